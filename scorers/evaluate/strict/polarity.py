"""Yes or no, told without the word: the answer restates the question's claim.

"Was Amy a fan of jazz?" answered "It is unlikely that Amy was a fan of jazz."
says no; "Is the coin still heads up?" answered "So the coin is tails up." says
no too, by putting a word of its own where the question has one. A reader weighs
the concluding clause against the question: it must restate most of the
question's own words, else it says something else and is not read here.
"""

from __future__ import annotations

import re

from scorers.evaluate.strict.commit import before_remark, conclusion, drop_excluded
from scorers.evaluate.strict.question import STOP_WORDS

# A yes/no question opens its clause with an auxiliary verb.
_ASKED = re.compile(
    r"(?:^|[.!?:]\s+)((?:is|was|are|were|do|does|did|can|could|will|would|has|have|had|should"
    r"|may|might|must)\b[^?]*)\?",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W_]+")
_NEGATED = re.compile(
    r"\b(?:not|never|no|unlikely|impossible|false|doubtful|cannot|neither|nor)\b|n['’]t\b",
    re.IGNORECASE,
)
# Where a sentence reaches its conclusion: what follows is the claim it makes.
_CONCLUDES = re.compile(
    r".*\b(?:so|therefore|thus|hence|answer is(?: that)?|answer would be(?: that)?)\b[ \t,:]*",
    re.IGNORECASE | re.DOTALL,
)
# The question reader's stop words, and the auxiliaries and pronouns a restatement changes.
_FUNCTION_WORDS = STOP_WORDS | frozenset(
    [
        "was",
        "were",
        "be",
        "been",
        "do",
        "does",
        "did",
        "can",
        "could",
        "will",
        "would",
        "has",
        "have",
        "had",
        "should",
        "may",
        "might",
        "must",
        "these",
        "those",
        "there",
        "he",
        "she",
        "they",
        "his",
        "her",
        "their",
        "we",
        "you",
        "i",
    ]
)
# A claim left open: a negated verb of knowing before "if"/"whether" ("cannot
# tell whether", "not possible to determine if"), or "unclear whether".
_OPEN_QUESTION = re.compile(
    r"\b(?:not|cannot|can't|unable|impossible|no way)\b[^.!?\n]{0,30}?\b(?:determine|say|tell|know"
    r"|conclude|confirm|establish|verify|be determined|be sure|be certain)[ \t,]+(?:if|whether)\b"
    r"|\b(?:unclear|unknown|uncertain|undetermined)[ \t]+(?:if|whether)\b",
    re.IGNORECASE,
)
_BUT = re.compile(r"\b(?:but|however|yet)\b", re.IGNORECASE)
_RESTATES = 0.5  # the share of the question's own words a restatement repeats


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _FUNCTION_WORDS]


def said(answer: str, question: str) -> tuple[bool | None, bool] | None:
    """(yes, sure) when the answer's concluding clause restates the claim of a
    yes/no question: negated it says no; with a word of its own in place of one
    of the question's it says no, unsure (only a reader knows the words are
    contraries: "tails up" for "heads up"). (None, False) when it restates
    nothing ("Most vegans avoid honey" for "Would a vegan eat honey?"); None
    when the question asks no yes/no question."""
    found = _ASKED.findall(question)
    if not found:
        return None
    claim = _words(found[-1])
    if not claim:
        return None
    last = conclusion(answer)
    if _OPEN_QUESTION.search(_BUT.split(last)[-1]):
        # "it is not possible to determine if X": the negation falls on knowing,
        # and the claim after "if" is left open, neither said nor denied.
        return None, False
    told = _restated(last, claim)
    if told is None and (body := before_remark(answer)) is not None:
        told = _restated(conclusion(body), claim)  # "... tails up. That is my answer."
    return (None, False) if told is None else told


def _restated(last: str, claim: list[str]) -> tuple[bool, bool] | None:
    """(yes, sure) when ``last`` restates the ``claim``, else None."""
    concluded = _CONCLUDES.match(last)
    clause = last[concluded.end() :] if concluded else last
    own = _words(clause)
    kept = [w for w in claim if w in own]
    if len(kept) < _RESTATES * len(claim) or not kept:
        return None
    if _NEGATED.search(clause):
        # "born in Salzburg, not Vienna" rules out another claim, not this one
        kept_text = drop_excluded(clause)
        ruled_out = set(own) - set(_words(kept_text))
        if _NEGATED.search(kept_text) or ruled_out & set(claim):
            return False, True
    missing = [w for w in claim if w not in own]
    added = [w for w in own if w not in claim]
    if missing and added:
        return False, False
    return True, True
