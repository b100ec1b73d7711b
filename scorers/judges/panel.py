"""Judge panels: several models judge the same calls; one panel verdict from their verdicts.

Each member's verdict is kept under ``judge:NAME@MODEL``. The panel verdict,
``judge:NAME``, is what the primary policy, the flags and the summary read:
for a judge with a 0/1 scale (rome, vrc-answer, rubric's question 1) the
majority of the members that gave a score, for a graded scale (mathreal's
partial credit, vrc-steps' 1-10 metrics) their mean. A member's error is left
out; the panel is an error only when no member scored, or when a 0/1 panel
splits evenly (a human should look, not a coin). ``agreement`` is the share of
scoring members that side with the majority (0/1 scales), or one minus the
mean absolute distance from the panel's mean (graded scales, scores 0-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorers.records import Verdict

MAJORITY_JUDGES = frozenset({"rome", "vrc-answer", "rubric"})


def member_source(name: str, model: str) -> str:
    return f"judge:{name}@{model}"


def panel_verdict(name: str, members: Sequence[tuple[str, Verdict]]) -> Verdict:
    """The panel's verdict from ``(model, verdict)`` pairs, in the members' order."""
    source = f"judge:{name}"
    models = [model for model, _ in members]
    scored = [(m, v) for m, v in members if v.get("error") is None and v.get("score") is not None]
    votes: dict[str, float | None] = {m: v.get("score") for m, v in members}
    base: dict[str, Any] = {
        "source": source,
        "extracted": None,
        "explanation": None,
        "model": "panel:" + ",".join(models),
        "parse": "panel",
    }
    if not scored and not any(v.get("error") is not None for _, v in members):
        # Every member answered without a score (the rubric's N/A): no score, no error.
        verdict = Verdict(**base, score=None)  # type: ignore[typeddict-item]
        verdict["metrics"] = {"members": votes}
        return verdict
    if not scored:
        errors = "; ".join(f"{m}: {v.get('error') or 'no score'}" for m, v in members)
        verdict = Verdict(**base, score=None, error=f"no panel member scored ({errors})"[:500])  # type: ignore[typeddict-item]
        verdict["metrics"] = {"members": votes}
        return verdict
    scores = [float(v["score"]) for _, v in scored]  # type: ignore[arg-type]
    metrics: dict[str, Any] = {"members": votes}
    if name in MAJORITY_JUDGES:
        ones = sum(1 for s in scores if s >= 0.5)
        zeros = len(scores) - ones
        if ones == zeros:
            verdict = Verdict(
                **base,  # type: ignore[typeddict-item]
                score=None,
                error=f"the panel is split evenly ({ones} say 1, {zeros} say 0)",
            )
            verdict["metrics"] = metrics
            verdict["agreement"] = 0.5
            return verdict
        score = 1.0 if ones > zeros else 0.0
        agreement = max(ones, zeros) / len(scores)
    else:
        score = sum(scores) / len(scores)
        agreement = 1.0 - sum(abs(s - score) for s in scores) / len(scores)
        metrics.update(_mean_metrics([v for _, v in scored]))
    verdict = Verdict(**base, score=round(score, 4))  # type: ignore[typeddict-item]
    stricts = [v["strict"] for _, v in scored if v.get("strict") is not None]
    if stricts:
        verdict["strict"] = 1.0 if score == 1.0 else 0.0
    verdict["agreement"] = round(agreement, 4)
    metrics["agreement"] = verdict["agreement"]
    if name == "rubric":
        metrics.update(_rubric_answers([v for _, v in members if v.get("error") is None]))
    verdict["metrics"] = metrics
    return verdict


def _rubric_answers(verdicts: Sequence[Verdict]) -> dict[str, Any]:
    """The panel's rubric answers: per question the members' majority (a tie is N/A), with
    the justification of the first member who gave it, so the rubric's flags follow the panel."""
    tables = [v.get("metrics") or {} for v in verdicts]
    answered = [t for t in tables if isinstance(t.get("answers"), dict)]
    if not answered:
        return {}
    numbers = sorted({n for t in answered for n in t["answers"]}, key=lambda n: int(n))
    answers: dict[str, Any] = {}
    for number in numbers:
        given = [
            t["answers"][number] for t in answered if isinstance(t["answers"].get(number), dict)
        ]
        tally: dict[str, int] = {}
        for entry in given:
            tally[str(entry.get("answer"))] = tally.get(str(entry.get("answer")), 0) + 1
        top = max(tally.values())
        winners = [a for a, c in tally.items() if c == top]
        answer = winners[0] if len(winners) == 1 else "N/A"
        first = next((e for e in given if e.get("answer") == answer), given[0])
        answers[number] = {**first, "answer": answer, "votes": tally}
    return {"variant": answered[0].get("variant", "default"), "answers": answers}


def _mean_metrics(verdicts: Sequence[Verdict]) -> dict[str, float]:
    """Per-metric means over the members (VRC's ten metrics), where every member has the metric."""
    tables = [v.get("metrics") or {} for v in verdicts]
    shared = set.intersection(*(set(t) for t in tables)) if tables else set()
    means: dict[str, float] = {}
    for key in sorted(shared):
        values = [t[key] for t in tables]
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values):
            means[key] = round(sum(values) / len(values), 4)
    return means
