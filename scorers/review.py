"""What a record's ``review`` means: the one owner of its rules.

A graded record carries every verdict (``rule:rome``, ``rule:strict``,
``judge:<name>``), the human override in force (``review.human``, with
``stale``/``conflict`` from the journal's replay) and the source of its
``correct`` (``review.primary``). Everything that reads or sets what those
mean goes through the pure functions here, so the grader, the judge run, the
review store, the app's rows and the summary cannot disagree at the edges:

- the **primary verdict** is the verdict of ``review.primary`` (else the run's
  rule); :func:`choose_primary` is the run's policy for when a judge is primary;
- the **machine score** is what the machine said before any human: the primary
  verdict's score; without one (a file graded elsewhere), ``correct`` unless a
  human override is in force, and then the first override's ``old``;
- the **human score** is the override in force: present and not stale (an
  override made on content that has since changed is kept but not applied);
- the **adjudicated** ``correct`` is the human score, else the machine score;
  ``correct_strict`` (all-or-nothing credit, math only) is full marks only
  when the human gave full marks;
- **scores**: a number in [0, 1]. A stored ``true``/``false`` (what JSON makes
  of a Python bool) is read as 1/0 wherever a score is read (results files,
  journals, summaries); a score being *set* (an override) must be a number;
- whether a source **grades correctness**: rules and humans do; judges do
  unless named in :data:`NOT_CORRECTNESS_JUDGES` (tests check the set against
  every registered judge's own ``grades_correctness``); a judge this version
  does not know counts, so that its disagreements are shown rather than hidden;
- the flags the journal implies (:func:`override_flags`) and the flag context
  of a run (:func:`flag_context`).

No I/O, and nothing of scorers but the record model is imported here: every
stage (flags, grade, judges, adjudicate, stats) may use it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from scorers.errors import UsageError
from scorers.records import REVIEW_KEY, Flag, Verdict, review_of


class RunSettings(Protocol):
    """What the rules read of a run's settings (``scorers.io.run_settings.RunSettings``;
    a Protocol so that this module stays below ``io``)."""

    tracker_type: str
    tools_available: list[str]

    @property
    def primary_rule(self) -> str: ...

    def primary_for(self, bucket: Any) -> str: ...


JUDGE_PREFIX = "judge:"
# The published grade of a release row (BAAI/ROME-Evaluated's own ``correct`` and
# ``judgement_response``), kept beside the rules' and judges' verdicts.
RELEASE_SOURCE = "release"
# Registered judges whose score is not answer correctness: the LRM-Eval behaviour
# rubric and VRC-Bench's step quality (tests/test_review_owner.py checks this
# against every JUDGE in scorers.judges.registry).
NOT_CORRECTNESS_JUDGES = frozenset({"rubric", "vrc-steps"})
# Judges whose 0/1 the reference stores as ints in ``correct`` (scores.json shows 1, not 1.0).
BINARY_JUDGES = frozenset({"rome", "vrc-answer"})
OVERRIDE_KINDS = ("override_stale", "override_conflict")

Score = int | float


# --- scores ---------------------------------------------------------------------


def is_score(value: Any) -> bool:
    """A score as stored: a finite number in [0, 1]; true/false read as 1/0."""
    kind = type(value)
    if kind is int or kind is bool:
        return 0 <= value <= 1
    if kind is float:
        return 0.0 <= value <= 1.0  # NaN compares false
    return isinstance(value, (int, float)) and math.isfinite(value) and 0 <= value <= 1


def read_score(value: Any) -> Score | None:
    """A stored score as a number (true/false as 1/0), or None when it is not one."""
    if not is_score(value):
        return None
    return int(value) if isinstance(value, bool) else value


def valid_score(value: Any) -> float:
    """A score being set (an override): a number, or numeric text, in [0, 1].

    A bool is refused: a person types a number, and True from code is a slip.
    """
    if isinstance(value, bool):
        raise UsageError(f"score must be a number between 0 and 1, got {value!r}")
    if not isinstance(value, (int, float)):
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise UsageError(f"score must be a number between 0 and 1, got {value!r}") from None
    if not math.isfinite(value) or not 0 <= value <= 1:
        raise UsageError(f"score must be a number between 0 and 1, got {value!r}")
    return float(value)


def valid_reason(value: Any) -> str:
    """The reason an override is recorded with, stripped. It is required: none, a
    non-string, or text that is empty or only whitespace is refused, the same from
    the command line, the app's dialog and code."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise UsageError("an override needs a reason (--reason TEXT), and blank is none")
    return text


def stored_score(source: str, score: Any) -> Any:
    """A verdict's score as ``correct`` stores it: a binary judge's 0/1 as an int."""
    binary = source.startswith(JUDGE_PREFIX) and source[len(JUDGE_PREFIX) :] in BINARY_JUDGES
    if binary and score in (0.0, 1.0) and not isinstance(score, bool):
        return int(score)
    return score


# --- sources --------------------------------------------------------------------


def grades_correctness(source: str) -> bool:
    """Whether a source's score says if the answer is right (see the module docstring)."""
    if not source.startswith(JUDGE_PREFIX):
        return True
    # A panel member, ``judge:NAME@MODEL``, grades what its judge grades.
    return source[len(JUDGE_PREFIX) :].split("@", 1)[0] not in NOT_CORRECTNESS_JUDGES


def _review(record: Mapping[str, Any]) -> Mapping[str, Any]:
    review = record.get(REVIEW_KEY)
    return review if isinstance(review, dict) else {}


def primary_source(record: Mapping[str, Any], default: str = "rule:strict") -> str:
    """The source of the record's ``correct``: ``review.primary``, else ``default``
    (the run's rule, ``RunSettings.primary_rule``)."""
    primary = _review(record).get("primary")
    return primary if isinstance(primary, str) and primary else default


def primary_verdict(record: Mapping[str, Any], default: str = "rule:strict") -> Verdict | None:
    source = primary_source(record, default)
    for verdict in _review(record).get("verdicts") or ():
        if isinstance(verdict, dict) and verdict.get("source") == source:
            return verdict  # type: ignore[return-value]
    return None


def choose_primary(
    record: Mapping[str, Any], settings: RunSettings, judge: str, policy: str | None = None
) -> str:
    """The primary source once ``judge`` (a source, ``judge:NAME``) has judged the record.

    The judge where it grades correctness, the run's policy for the record's
    bucket (or ``policy``) says "judge" (or names it) and its verdict has a
    score; else the run's rule. A judge error is never read as a 0.
    """
    rule = settings.primary_rule
    if not grades_correctness(judge):
        return primary_source(record, rule)
    if policy is None:
        policy = settings.primary_for(record.get(settings.tracker_type) or "all")
    if policy != "judge" and policy != judge:
        return primary_source(record, rule)
    for verdict in _review(record).get("verdicts") or ():
        if isinstance(verdict, dict) and verdict.get("source") == judge:
            if verdict.get("error") is None and verdict.get("score") is not None:
                return judge
            break
    return rule


# --- machine, human, adjudicated ----------------------------------------------------


def human_in_force(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """The human override applied to ``correct``: present and not stale."""
    review = _review(record)
    human = review.get("human")
    if isinstance(human, dict) and not review.get("stale"):
        return human
    return None


def human_score(record: Mapping[str, Any]) -> Score | None:
    human = human_in_force(record)
    return None if human is None else read_score(human.get("score"))


def release_verdict(record: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The verdict of source ``release`` (the published grade), if the record has one."""
    for verdict in _review(record).get("verdicts") or ():
        if isinstance(verdict, dict) and verdict.get("source") == RELEASE_SOURCE:
            return verdict
    return None


def published(record: Mapping[str, Any]) -> Score | None:
    """``correct`` as a republished release states it: the human score in force,
    else the release's own grade, else the adjudicated ``correct``."""
    human = human_score(record)
    if human is not None:
        return human
    verdict = release_verdict(record)
    if verdict is not None:
        return read_score(verdict.get("score"))
    return read_score(record.get("correct"))


def _first_set_old(review: Mapping[str, Any]) -> Any:
    for entry in review.get("history") or ():
        if isinstance(entry, dict) and entry.get("op") == "set":
            return entry.get("old")
    return None


def machine_scores(
    record: Mapping[str, Any], default: str = "rule:strict"
) -> tuple[Score | None, Score | None]:
    """(score, all-or-nothing score) before any human; the second is None for a
    record without ``correct_strict`` (only math has all-or-nothing credit)."""
    has_strict = "correct_strict" in record
    verdict = primary_verdict(record, default)
    if verdict is not None:
        score = read_score(verdict.get("score"))
        if score is not None:
            strict = read_score(verdict.get("strict", score)) if has_strict else None
            return score, strict
    if human_in_force(record) is not None:
        # A file written with an override in force and no primary verdict:
        # ``correct`` is the human's; what came before is the first override's ``old``.
        return read_score(_first_set_old(_review(record))), None
    strict = read_score(record.get("correct_strict")) if has_strict else None
    return read_score(record.get("correct")), strict


def machine_score(record: Mapping[str, Any], default: str = "rule:strict") -> Score | None:
    """The score before any human (see :func:`machine_scores`)."""
    return machine_scores(record, default)[0]


def adjudicated(machine: Any, machine_strict: Any, human: Score | None) -> tuple[Any, Any]:
    """(``correct``, ``correct_strict``) from the machine's scores and the human in force.

    A human score is all-or-nothing credit only when it is full marks;
    ``correct_strict`` stays None for a record without one.
    """
    if human is None:
        return machine, machine_strict
    return human, (None if machine_strict is None else (1.0 if human >= 1 else 0.0))


def settle(record: dict[str, Any], primary: str) -> None:
    """Make ``primary`` the record's primary source and set ``correct`` (and
    ``correct_strict``) from its verdict and the human override in force.

    A verdict without ``strict`` takes ``correct_strict`` away: all-or-nothing
    credit comes from the same source as ``correct``. A primary verdict without
    a score leaves both as they are (unless a human is in force).
    """
    review = review_of(record)
    review["primary"] = primary
    verdict = primary_verdict(record, primary)
    human = human_score(record)
    if verdict is not None and verdict.get("score") is not None:
        machine = stored_score(primary, verdict["score"])
        strict = verdict.get("strict")
        if strict is None:
            record.pop("correct_strict", None)
        correct, correct_strict = adjudicated(machine, strict, human)
        record["correct"] = correct
        if correct_strict is not None:
            record["correct_strict"] = correct_strict
    elif human is not None:
        record["correct"] = human


# --- flags ----------------------------------------------------------------------


@dataclass(frozen=True)
class FlagContext:
    """Run-wide settings that change what counts as a flag (the detectors' third argument)."""

    tools_available: frozenset[str] = field(default_factory=frozenset)
    primary_rule: str = "rule:strict"


def flag_context(settings: RunSettings) -> FlagContext:
    """The flag context of a run graded with ``settings``."""
    return FlagContext(
        tools_available=frozenset(settings.tools_available), primary_rule=settings.primary_rule
    )


def override_flags(review: Mapping[str, Any]) -> list[Flag]:
    """The flags the journal's replay implies: a stale override, disagreeing reviewers."""
    flags: list[Flag] = []
    if review.get("stale"):
        flags.append(
            Flag(
                kind="override_stale",
                source="journal",
                evidence=[],
                detail="content changed since the override",
            )
        )
    if review.get("conflict"):
        flags.append(
            Flag(
                kind="override_conflict",
                source="journal",
                evidence=[],
                detail="reviewers disagree",
            )
        )
    return flags
