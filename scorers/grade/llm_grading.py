"""The ROME LLM grader on every record of a grade (``rome-tui grade --use_llm_evaluator``).

Its verdict (source ``judge:rome``) is added beside the rule verdicts; which one
sets ``correct`` is the run's primary policy, applied when the grader finishes
each record. The calls go through ``scorers.judges.grade_hook`` (the published
prompt, the reply cache).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from scorers.evaluate import rome
from scorers.io.run_settings import RunSettings
from scorers.io.scores import REJECTED_KEY
from scorers.records import REVIEW_KEY, Verdict, final_answer

JUDGE_SOURCE = "judge:rome"


def judge_all(
    settings: RunSettings,
    records: list[dict[str, Any]],
    pairs_gt: list[Mapping[str, Any]],
    warnings: list[str],
    cache_dir: str | None,
) -> None:
    """The ROME LLM grader on every record (``--use_llm_evaluator``)."""
    from scorers.judges.grade_hook import llm_scores

    todo: list[int] = []
    triples: list[tuple[str, str, str]] = []
    for i, record in enumerate(records):
        review = record[REVIEW_KEY]
        if review.get(REJECTED_KEY):
            continue
        raw = record.get("raw_answer", record.get("answer"))
        if not isinstance(raw, str):
            continue  # multi-run answers are judged by rules only
        gt = pairs_gt[i]
        answer = rome.judged_text(raw) if settings.mode == "rome" else final_answer(raw)
        question = gt.get("question", "")
        reference = gt.get("reference", "")
        triples.append((str(question or ""), str(reference or ""), answer))
        todo.append(i)
    if not todo:
        return
    rome_mode = settings.mode == "rome"
    results = llm_scores(
        triples,
        model=settings.llm_model,
        base_url=os.environ.get("OPENAI_BASE_URL"),
        parse="rome" if rome_mode else "robust",
        cache_dir=cache_dir,
    )  # the published prompt byte for byte in either mode: fencing is the judge's opt-in
    failed = 0
    for i, (score, raw_reply, error) in zip(todo, results, strict=True):
        record = records[i]
        verdict = Verdict(source=JUDGE_SOURCE, score=score, extracted=None, explanation=None)
        if settings.llm_model:
            verdict["model"] = settings.llm_model
        if raw_reply is not None:
            verdict["raw"] = raw_reply
        if error is not None or score is None:
            verdict["error"] = error or "no score"
            failed += 1
        record[REVIEW_KEY]["verdicts"].append(verdict)
        record["judgement_response"] = raw_reply
    if failed:
        warnings.append(
            f"{failed} judge call(s) failed or could not be parsed; those items keep their rule verdict"
        )
