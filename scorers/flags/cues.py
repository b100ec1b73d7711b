"""Negation, hypotheticals and intent before a cue, checked on lowercased text.

A claim, hedge or abstention phrase only counts when the words before it in
the same clause do not negate it or make it hypothetical ("if I could search",
"I cannot browse", "without running code"). Word sets and ``in`` tests keep
this cheap: it runs for every cue found.
"""

from __future__ import annotations

import re

# Single words that, before a claim in the same clause, mean the model did not do it.
_NOT_DONE_WORDS = frozenset(
    [
        "if",
        "unless",
        "whether",
        "could",
        "would",
        "should",
        "can't",
        "cannot",
        "couldn't",
        "wouldn't",
        "unable",
        "without",
        "don't",
        "didn't",
        "haven't",
        "hasn't",
        "never",
        "wish",
        "wished",
        "pretend",
        "imagine",
        "suppose",
        "lack",
        "lacks",
        "lacking",
        "won't",
        "ideally",
        "hypothetically",
        "might",
        "may",
        "impossible",
        "not",
        "no",
        "nor",
        "cant",
        "dont",
        "didnt",
        "wont",
    ]
)
# Phrases (space-padded, lowercase) with the same effect.
_NOT_DONE_PHRASES = (
    " can not ",
    " not able ",
    " no way ",
    " no access ",
    " no ability ",
    " instead of ",
    " rather than ",
    " no need ",
    " will not ",
    " not going to ",
    " need to ",
    " needs to ",
    " were i ",
    " had i ",
    " in principle ",
    " not possible ",
    " isn't possible ",
    " not allowed ",
    " not permitted ",
    " one can ",
    " one could ",
    " you can ",
    " you could ",
    " someone could ",
    " users can ",
    " a person could ",
)
# Sentence and clause breaks, reversed: ". ", "\n", ",", " but ", ...
_REVERSED_BREAK = re.compile(r" [.!?]|\n|[,;:(]| tub | revewoh | hguoht | tey | \u2014 | - ")
_REACH = 200
_STRIP = ".,;:!?()[]{}\"'*`“”‘’"


def clause_before(low: str, pos: int) -> str:
    """The part of the clause that precedes ``pos`` (lowercased text in, lowercased out).

    Found by searching the reversed preceding text for the nearest sentence or
    clause break: one short regex search instead of a dozen rfind calls.
    """
    piece = low[max(0, pos - _REACH) : pos]
    m = _REVERSED_BREAK.search(piece[::-1])
    return piece[len(piece) - m.start() :] if m else piece


_PUNCT_FORMS = ("", ",", ".", ";", ":", ")", "!", "?", '"', "'", "*")
_NOT_DONE_FORMS = frozenset(w + p for w in _NOT_DONE_WORDS for p in _PUNCT_FORMS) | frozenset(
    "(" + w for w in _NOT_DONE_WORDS
)
_PHRASES_BY_WORD: dict[str, tuple[str, ...]] = {}
for _phrase in _NOT_DONE_PHRASES:
    _first = _phrase.split()[0]
    _PHRASES_BY_WORD[_first] = (*_PHRASES_BY_WORD.get(_first, ()), _phrase)


_PHRASE_FORMS = frozenset(w + p for w in _PHRASES_BY_WORD for p in _PUNCT_FORMS)


def has_negation(piece: str) -> bool:
    raw = piece.split()
    # Set operations in C: the word forms include trailing punctuation ("not,").
    if not _NOT_DONE_FORMS.isdisjoint(raw):
        return True
    firsts = _PHRASE_FORMS.intersection(raw)
    if not firsts:
        return False
    padded = f" {' '.join(w.strip(_STRIP) for w in raw)} "
    return any(p in padded for w in firsts for p in _PHRASES_BY_WORD[w.strip(_STRIP)])


def negated_or_hypothetical(low: str, pos: int) -> bool:
    """True when the clause before ``pos`` negates or conditions what follows."""
    return has_negation(clause_before(low, pos))


def negated_after(low: str, end: int) -> bool:
    """ "I searched ... not" style: a negation right after the claim's verb."""
    head = low[end : end + 12].lstrip()
    return head.startswith(("not ", "n't", "never "))
