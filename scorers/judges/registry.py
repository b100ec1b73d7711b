"""Judge name -> judge object. Add a judge: a module with ``JUDGE`` and a line here."""

from __future__ import annotations

import importlib

from scorers.judges.base import Judge

JUDGE_MODULES: dict[str, str] = {
    "rome": "scorers.judges.rome",
    "vrc-steps": "scorers.judges.vrc_steps",
    "vrc-answer": "scorers.judges.vrc_answer",
    "mathreal": "scorers.judges.mathreal",
    "rubric": "scorers.judges.rubric",
}


def get_judge(name: str) -> Judge:
    try:
        module = JUDGE_MODULES[name]
    except KeyError:
        raise KeyError(f"unknown judge {name!r}; choose from {', '.join(JUDGE_MODULES)}") from None
    judge: Judge = importlib.import_module(module).JUDGE
    return judge
