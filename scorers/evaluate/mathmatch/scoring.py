"""Partial credit: blanks in order, items inside a blank in any order.

Score of an item = share of its coordinates that are right (a plain value has
one coordinate). Score of a blank = best one-to-one matching of reference items
to answer items, divided by the larger of the two counts (so a missing
alternative and an extra wrong one both cost a share). Score of the answer =
mean over the reference blanks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from scorers.evaluate.mathmatch import choices
from scorers.evaluate.mathmatch.blanks import coordinates, split_blanks, split_items
from scorers.evaluate.mathmatch.equivalence import Budget, equivalent
from scorers.evaluate.mathmatch.normalize import top_level_split
from scorers.evaluate.mathmatch.ranges import looks_like_range, parse_range

_PLACEHOLDER = re.compile(
    r"^(?:证明略|证明见解析|见解析|略|图略|作图略|作图见解析|答案略|解析略|"
    r"(?:the\s+)?proof(?:\s+(?:omitted|is omitted))?|see\s+(?:the\s+)?(?:proof|figure|solution)|"
    r"(?:answer|proof|figure|drawing)\s+omitted|omitted)$",
    re.IGNORECASE,
)
_MAX_ASSIGN = 10


@dataclass(frozen=True, slots=True)
class BlankResult:
    reference: str
    predicted: str
    score: float
    how: str

    def as_dict(self) -> dict[str, object]:
        return {
            "reference": self.reference,
            "predicted": self.predicted,
            "score": round(self.score, 4),
            "how": self.how,
        }


class Grader:
    """Grades one answer against one reference within one time budget."""

    def __init__(self, budget: Budget, multiple_choice: bool) -> None:
        self.budget = budget
        self.multiple_choice = multiple_choice

    # ----- whole answer -------------------------------------------------------
    def grade(self, ref_blanks: list[str], answer: str) -> list[BlankResult]:
        if ref_blanks and all(choices.is_circled_selection(b) for b in ref_blanks):
            return self._selections(ref_blanks, answer)
        pred_blanks = split_blanks(answer) if answer.strip() else []
        k = len(ref_blanks)
        if k == 1:
            joined = "; ".join(pred_blanks)
            return [self.blank(ref_blanks[0], joined)]
        if len(pred_blanks) == 1 and _alternatives(pred_blanks[0], k):
            # "x = -3 or x = 2" for a reference of the two roots as blanks: the
            # solutions of one unknown, in any order.
            return [self.blank(" or ".join(ref_blanks), pred_blanks[0])]
        if len(pred_blanks) < k:
            finer = [item for b in pred_blanks for item in _finer(b)]
            if len(finer) == k:
                pred_blanks = finer
        if len(pred_blanks) == k:
            return [self.blank(r, p) for r, p in zip(ref_blanks, pred_blanks, strict=True)]
        return self._align(ref_blanks, pred_blanks)

    def _selections(self, ref_blanks: list[str], answer: str) -> list[BlankResult]:
        wanted = [c for b in ref_blanks for c in choices.circled(b)]
        given = choices.circled_answer(answer)
        extra = [c for c in given if c not in wanted]
        share = len(wanted) / max(len(wanted), len(given)) if given else 1.0
        how = "selection" + (f" (extra {''.join(extra)})" if extra else "")
        return [
            BlankResult(
                c,
                c if c in given else "",
                share if c in given else 0.0,
                how if c in given else "selection missing",
            )
            for c in wanted
        ]

    def _align(self, refs: list[str], preds: list[str]) -> list[BlankResult]:
        """Order-keeping alignment of unequal blank lists (best total score)."""
        n, m = len(refs), len(preds)
        cache: dict[tuple[int, int], BlankResult] = {}

        def pair(i: int, j: int) -> BlankResult:
            if (i, j) not in cache:
                cache[(i, j)] = self.blank(refs[i], preds[j])
            return cache[(i, j)]

        # A proof/drawing blank is right whatever is written, so it gains
        # nothing from taking one of the answer's blanks.
        accepted = [bool(_PLACEHOLDER.match(r.strip())) for r in refs]
        best = [[0.0] * (m + 1) for _ in range(n + 1)]
        for i in range(1, n + 1):
            for j in range(1, m + 1):
                gain = 0.0 if accepted[i - 1] else pair(i - 1, j - 1).score
                best[i][j] = max(best[i - 1][j], best[i][j - 1], best[i - 1][j - 1] + gain)
        out: list[BlankResult | None] = [None] * n
        i, j = n, m
        while i > 0 and j > 0:
            if best[i][j] == best[i - 1][j]:
                i -= 1
            elif best[i][j] == best[i][j - 1]:
                j -= 1
            else:
                out[i - 1] = pair(i - 1, j - 1)
                i, j = i - 1, j - 1
        return [r if r is not None else self.blank(refs[k], "") for k, r in enumerate(out)]

    # ----- one blank ----------------------------------------------------------
    def blank(self, ref: str, pred: str) -> BlankResult:
        if _PLACEHOLDER.match(ref.strip()):
            return BlankResult(ref, pred, 1.0, "proof/drawing: accepted")
        if not pred.strip():
            return BlankResult(ref, pred, 0.0, "missing")
        letters = choices.reference_letters(ref, self.multiple_choice)
        if letters is not None:
            return self._letters(ref, pred, letters)
        pred = choices.option_text(pred) or pred  # "A: 464" for 464: the option's text
        if choices.is_circled_selection(ref):
            wanted = choices.circled(ref)
            given = choices.circled_answer(pred)
            hit = sum(c in given for c in wanted)
            return BlankResult(ref, pred, hit / max(len(wanted), len(given), 1), "selection")
        if looks_like_range(ref) and parse_range(ref, allow_open_pair=False) is not None:
            v = equivalent(ref, pred, self.budget)
            return BlankResult(ref, pred, float(v.equal), v.how)
        ref_items = split_items(ref)
        # Candidates joined by "or" are never one value, however an "=" chain reads them.
        one_candidate = len(top_level_split(pred, (" or ",))) == 1
        if len(ref_items) == 1 and coordinates(ref_items[0]) is None and one_candidate:
            whole = equivalent(ref, pred, self.budget)
            if whole.equal:
                return BlankResult(ref, pred, 1.0, whole.how)
        if len(ref_items) == 1 and _DECIMAL_COMMA.match(pred):
            pred = pred.replace(",", ".")  # "0,5" for one value: a decimal comma, not a list
        pred_items = split_items(pred)
        if len(ref_items) == 1 and len(pred_items) == 1:
            score, how = self._item(ref_items[0], pred_items[0])
            return BlankResult(ref, pred, score, how)
        score, how = self._items(ref_items, pred_items)
        return BlankResult(ref, pred, score, how)

    def _letters(self, ref: str, pred: str, wanted: list[str]) -> BlankResult:
        given = choices.answer_letters(pred, expand_runs=len(wanted) > 1)
        if len(wanted) == 1:
            ok = given == set(wanted)
            how = (
                "choice"
                if ok
                else (
                    "choice: other options named" if wanted[0] in given else "choice: wrong option"
                )
            )
            return BlankResult(ref, pred, float(ok), how)
        hit = len(given & set(wanted))
        return BlankResult(ref, pred, hit / max(len(wanted), len(given), 1), "choices")

    def _item(self, ref: str, pred: str) -> tuple[float, str]:
        rc, pc = coordinates(ref), coordinates(pred)
        if rc is not None and pc is not None:
            if len(rc) != len(pc):
                return 0.0, "point size differs"
            verdicts = [equivalent(a, b, self.budget) for a, b in zip(rc, pc, strict=True)]
            right = sum(v.equal for v in verdicts)
            how = "point" if right == len(rc) else f"point: {right}/{len(rc)} coordinates"
            if any(v.how == "math-verify timed out" for v in verdicts):
                how += ", math-verify timed out"
            return right / len(rc), how
        v = equivalent(ref, pred, self.budget)
        return float(v.equal), v.how

    def _items(self, refs: list[str], preds: list[str]) -> tuple[float, str]:
        n, m = len(refs), len(preds)
        if not preds:
            return 0.0, "missing"
        # "x=2, y=3" and "(2, 3)" state the same solution.
        if m == 1 and n > 1 and _assignments(refs) and len(coordinates(preds[0]) or ()) == n:
            return self._item("(" + ", ".join(_rhs(r) for r in refs) + ")", preds[0])
        if n == 1 and m > 1 and _assignments(preds) and len(coordinates(refs[0]) or ()) == m:
            return self._item(refs[0], "(" + ", ".join(_rhs(p) for p in preds) + ")")
        if n == 1 and m > 1:
            # Several candidates for one value commit to none of them: a reader gives
            # no credit for "4 or -4" when the answer is 4. The same value written
            # twice ("1/2 or 0.5") is one candidate.
            if all(self._item(refs[0], p)[0] == 1.0 for p in preds):
                return 1.0, f"one value written {m} ways"
            # "2.5 h or 150 min": one quantity in two units; the one stated first commits.
            if all(self._item(preds[0], p)[0] == 1.0 for p in preds[1:]):
                score, _ = self._item(refs[0], preds[0])
                return score, f"one value written {m} ways, the first read"
            return 0.0, f"{m} candidates for one value"
        scores = [[self._item(r, p)[0] for p in preds] for r in refs]
        if n <= _MAX_ASSIGN and m <= _MAX_ASSIGN:
            total = _best_assignment(tuple(tuple(row) for row in scores))
        else:
            total = _greedy(scores)
        denom = max(n, m)
        how = f"items: {total:g}/{denom}" if denom > 1 else "item"
        return total / denom, how


# "0,5", "3,25 m": a decimal comma (a comma before three digits is a thousands separator).
_DECIMAL_COMMA = re.compile(r"^[-−+]?\d+,(?:\d{1,2}|\d{4,})(?![\d,])(?:\s*[^\d\s,;][^,;]*)?$")
_ASSIGNMENT = re.compile(r"^[A-Za-z](?:_\{?\w+\}?)?\s*=\s*[^=]+$")


def _assignments(items: list[str]) -> bool:
    return all(_ASSIGNMENT.match(item) for item in items)


def _rhs(item: str) -> str:
    return item.split("=", 1)[1].strip()


def _alternatives(blank: str, k: int) -> bool:
    """Whether ``blank`` offers exactly ``k`` plain values joined by "or"."""
    parts = top_level_split(blank, (" or ",))
    return len(parts) == k and all(coordinates(p) is None for p in parts)


def _finer(blank: str) -> list[str]:
    parts = top_level_split(blank, (",", " and "))
    return parts if len(parts) > 1 else [blank]


@lru_cache(maxsize=4096)
def _best_assignment(scores: tuple[tuple[float, ...], ...]) -> float:
    m = len(scores[0]) if scores else 0

    @cache
    def go(i: int, used: int) -> float:
        if i == len(scores):
            return 0.0
        best = go(i + 1, used)  # reference item i left unmatched
        for j in range(m):
            if not used & (1 << j) and scores[i][j] > 0:
                best = max(best, scores[i][j] + go(i + 1, used | (1 << j)))
        return best

    return go(0, 0)


def _greedy(scores: list[list[float]]) -> float:
    used: set[int] = set()
    total = 0.0
    for row in scores:
        options = [(s, j) for j, s in enumerate(row) if j not in used and s > 0]
        if options:
            s, j = max(options)
            used.add(j)
            total += s
    return total


def reference_blanks(answer: str) -> list[str]:
    blanks = split_blanks(answer)
    if len(blanks) == 1 and _DECIMAL_COMMA.match(blanks[0]):
        # "0,6", "3,25 m": a reference with a decimal comma (ISO 80000-1 allows either
        # marker) is one value, as an answer's is; a list is written "3, 4" or "3; 4"
        return [blanks[0].replace(",", ".", 1)]
    return blanks


def expected_boxes(ref_blanks: list[str]) -> int:
    """How many ``\\boxed{}`` answers a response to this reference should end with.

    Models box each blank, and often each point or alternative, so this is the
    number of items (at least the number of blanks).
    """
    if all(choices.is_circled_selection(b) for b in ref_blanks):
        return sum(len(choices.circled(b)) for b in ref_blanks)
    return max(len(ref_blanks), sum(len(split_items(b)) for b in ref_blanks))
