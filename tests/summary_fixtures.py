"""Graded records for summary tests and benchmarks, built in code.

``record`` builds one record in the shape rome-tui writes (ROME fields plus a
``review``); ``synthetic_run`` builds a realistic run of many items for one
model: per-task difficulty, rule modes that sometimes disagree, a judge that
errs, a few human overrides, behaviour flags from the heuristics and the
rubric, and token usage that grows with difficulty.
"""

from __future__ import annotations

from typing import Any

import numpy as np

TASKS = ("academic", "diagrams", "code", "puzzles", "memes", "geo", "recognition", "multi")


def verdict(source: str, score: float | None, **extra: Any) -> dict[str, Any]:
    return {"source": source, "score": score, "extracted": None, "explanation": None, **extra}


def record(
    qid: str,
    correct: float | None,
    *,
    task: str = "academic",
    verdicts: list[dict[str, Any]] | None = None,
    human: float | None = None,
    flags: list[tuple[str, str]] | None = None,
    primary: str = "rule:strict",
    **fields: Any,
) -> dict[str, Any]:
    review: dict[str, Any] = {
        "version": 1,
        "mode": "strict",
        "primary": primary,
        "verdicts": verdicts if verdicts is not None else [verdict(primary, correct)],
        "flags": [{"kind": k, "source": s, "evidence": []} for k, s in (flags or [])],
        "history": [],
    }
    if human is not None:
        review["human"] = {
            "score": human,
            "annotator": "ann",
            "time": "2026-01-01T00:00:00Z",
            "reason": "r",
        }
    return {
        "question_id": qid,
        "task": task,
        "answer": "x",
        "correct": correct,
        "judgement_response": None,
        **fields,
        "review": review,
    }


def synthetic_run(
    n: int, model: str, skill: float, seed: int, *, runs: int = 0, tokens: float = 4000.0
) -> list[dict[str, Any]]:
    """``n`` graded records of one model; ``skill`` shifts its accuracy (about 0.2 to 0.8),
    ``tokens`` its mean completion length (harder items get longer answers)."""
    rng = np.random.default_rng(seed)
    difficulty = {task: 0.15 * i - 0.5 for i, task in enumerate(TASKS)}
    out = []
    for i in range(n):
        task = TASKS[i % len(TASKS)]
        p = float(np.clip(skill - difficulty[task] * 0.6, 0.03, 0.97))
        strict = float(rng.random() < p)
        rome = strict if rng.random() > 0.06 else 1.0 - strict
        judge = strict if rng.random() > 0.1 else 1.0 - strict
        verdicts = [verdict("rule:rome", rome), verdict("rule:strict", strict)]
        if rng.random() < 0.02:
            verdicts.append(verdict("judge:rome", None, error="unparsable reply"))
        else:
            verdicts.append(verdict("judge:rome", judge))
        human = None
        if (rome != strict or judge != strict) and rng.random() < 0.5:
            # Reviewers side with the strict rule about two times in three.
            human = strict if rng.random() < 0.68 else 1.0 - strict
        flags: list[tuple[str, str]] = []
        for kind, rate in (
            ("answer_contradicts_reasoning", 0.04),
            ("hedged_reasoning_certain_answer", 0.25),
            ("claims_web_search", 0.05 * skill),
            ("claims_tool_use", 0.03),
        ):
            present = rng.random() < rate
            # The heuristics miss a fifth of the real cases and rarely invent one;
            # the rubric judge misses a tenth and invents a few more.
            if (present and rng.random() < 0.8) or (not present and rng.random() < 0.005):
                flags.append((kind, "heuristic"))
            if i % 4 == 0 and (
                (present and rng.random() < 0.9) or (not present and rng.random() < 0.02)
            ):
                flags.append((kind, "judge:rubric"))
        if i % 4 == 0:
            verdicts.append(verdict("judge:rubric", None))
        if rome != strict:
            flags.append(("rome_strict_disagree", "verdicts"))
        completion = float(rng.gamma(4.0, tokens / 4.0 * (1.6 - p)))
        reasoning = completion * float(rng.uniform(0.6, 0.9))
        rec = record(
            f"q{i:06d}",
            strict if human is None else human,
            task=task,
            verdicts=verdicts,
            human=human,
            flags=flags,
            reason="<think>Let me look at the image. It might be 42.</think>",
            usage={
                "prompt_tokens": 900,
                "completion_tokens": int(completion),
                "total_tokens": 900 + int(completion),
                "completion_tokens_details": {"reasoning_tokens": int(reasoning)},
            },
        )
        if runs:
            scores = [float(rng.random() < p) for _ in range(runs)]
            rec["inference_scores"] = scores
            rec["num_inferences"] = runs
            rec["correct"] = sum(scores) / runs
        out.append(rec)
    return out
