"""Doubts strict mode raises over a sure free-text verdict from how the answer
relates to the key as a whole, after the evaluator has read it.

Each signal here was kept because, over the dev halves of the blind batches, read
both with today's rules and with each batch's first-reading rules (answers the
rules were not written from), it marked sure misses from three sources or more, at
least one for every right verdict it marked, and the gain held leaving each batch
out in turn (``benchmarks/strict_uncertainty_signals.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from scorers.evaluate.strict import names
from scorers.evaluate.strict.answer_names import CAPITALISED
from scorers.evaluate.strict.commit import sentences
from scorers.evaluate.strict.fold import fold_phrase

_WORD = re.compile(r"[^\W_]+")
_OWN_WORD = 4  # shorter words ("of", "the", "de", "new") are shared by chance


def _groups(evaluator: str, kwargs: Mapping[str, Any]) -> list[list[str]]:
    """The annotation's key items (or candidate places), one list of variants a group."""
    if evaluator == "location_matching":
        fine, coarse = kwargs.get("location_fine_grained"), kwargs.get("location_coarse_grained")
        return [[v] if isinstance(v, str) else list(v) for v in (fine, coarse) if v]
    items = kwargs.get("key_items") or []
    if all(isinstance(g, list) for g in items):
        return [[v for v in g if isinstance(v, str)] for g in items]
    return [[v for v in items if isinstance(v, str)]]


def partial_key(evaluator: str, kwargs: Mapping[str, Any], segment: str, final: str) -> str | None:
    """A one-sentence answer graded 0 that names half or more of the own words of
    a key item of several words, but not all ("United States" for the United
    States of America, "the National Football Conference" for its West division,
    "rock fragments" for rock cuttings): whether the part names the whole is
    knowledge the words do not hold. A name's word counts only capitalised ("a
    watch maker" names no "Watch Co."); dates and numbers are left out (a shared
    year or month is no part of the same day)."""
    if len(sentences(final.strip())) > 1:
        return None  # a longer answer shares a word with the key as often by chance
    raw = _WORD.findall(segment)
    said = {fold_phrase(w) for w in raw}
    named_as_name = {fold_phrase(w) for w in raw if w[:1].isupper()}
    for group in _groups(evaluator, kwargs):
        if any(set(_WORD.findall(fold_phrase(v))) <= said for v in group):
            continue  # (a group named whole: the rule weighed it)
        for variant in group:
            words = _WORD.findall(variant)
            if len(words) < 2 or any(ch.isdigit() for ch in variant):
                continue
            own = [
                (fold_phrase(w), at > 0 and w[:1].isupper())
                for at, w in enumerate(words)
                if len(w) >= _OWN_WORD and w.isalpha()
            ]
            named = [w for w, name in own if w in (named_as_name if name else said)]
            if named and len(own) <= 2 * len(named) < 2 * len(own):
                if _another_place(segment, named, variant):
                    continue
                return f"names '{' '.join(named)}' of the key '{variant}' but not all of it"
    return None


def _another_place(segment: str, named: list[str], key: str) -> bool:
    """The words are those of a name the data knows as another place than the key
    ("South Sudan" for South Africa): a place of its own, no part of the key."""
    where = names.place_of(key)
    if where == (None, None):
        return False
    for m in CAPITALISED.finditer(segment):
        phrase = fold_phrase(m.group())
        shares = not set(named).isdisjoint(phrase.split())
        if shares and names.is_place(phrase) and names.place_of(phrase) != where:
            return True
    return False
