"""What an evaluator returns for one answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    score: float  # int 0/1 or a float, typed exactly as the reference would (rome mode)
    extracted: str  # what the evaluator read as the answer, in canonical form
    strict: float | None = None  # all-or-nothing score where partial credit exists
    parts: tuple[dict[str, Any], ...] | None = None  # per-blank detail (math)
    note: str | None = None  # why, in a few words, when the reason is not obvious
    uncertain: str | None = None  # why the rule cannot decide (strict): a ``rule_uncertain`` flag
