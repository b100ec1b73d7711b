"""Verdicts of the rule evaluators: an evaluator's outcome, an error, the mean of runs."""

from __future__ import annotations

from scorers.evaluate.outcome import Outcome
from scorers.records import Verdict


def outcome_verdict(source: str, outcome: Outcome) -> Verdict:
    verdict: Verdict = {
        "source": source,
        "score": outcome.score,
        "extracted": outcome.extracted,
        "explanation": outcome.note,
    }
    if outcome.strict is not None:
        verdict["strict"] = outcome.strict
    if outcome.parts is not None:
        verdict["parts"] = list(outcome.parts)
    if outcome.uncertain is not None:
        verdict["uncertain"] = outcome.uncertain
    return verdict


def error_verdict(source: str, error: str) -> Verdict:
    return Verdict(source=source, score=None, extracted=None, explanation=None, error=error)


def mean_verdict(source: str, runs: list[Verdict], keys: list[str]) -> Verdict:
    scores = [v.get("score") for v in runs]
    numeric = [s for s in scores if s is not None]
    mean = sum(numeric) / len(numeric) if numeric and len(numeric) == len(scores) else None
    verdict = Verdict(
        source=source,
        score=mean,
        extracted=runs[0].get("extracted") if runs else None,
        explanation=f"mean of {len(runs)} runs",
        parts=[
            {"run": key, "score": v.get("score"), "extracted": v.get("extracted")}
            for key, v in zip(keys, runs, strict=False)
        ],
    )
    if mean is None:
        verdict["error"] = next(
            (str(v["error"]) for v in runs if v.get("error")), "a run could not be graded"
        )
    doubt = next((v["uncertain"] for v in runs if v.get("uncertain")), None)
    if doubt is not None:
        verdict["uncertain"] = doubt
    stricts = [v.get("strict", v.get("score")) for v in runs]
    if any("strict" in v for v in runs) and all(s is not None for s in stricts):
        verdict["strict"] = sum(s for s in stricts if s is not None) / len(stricts)
    return verdict
