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
    " i'd like ",
    " i'd love ",
    " i'd have liked ",
    " i'd have loved ",
    " would have liked ",
    " i'd want ",
    " i'd prefer ",
)
# The last sentence or clause break (". ", "\n", ",", " but ", ...) before a
# position: a greedy ``.*`` backs off from the end, trying the breaks at each
# step, so the search costs only as much as the clause is long. No break lies
# inside another, so the last to start is also the last to end. (Three
# branches that each open with a character set, which ``re`` tests fast.)
_LAST_BREAK = re.compile(r"(?s:.*)(?:[.!?] |[\n,;:(]| (?:but|however|though|yet|\u2014|-) )")
_REACH = 200
_STRIP = ".,;:!?()[]{}\"'*`“”‘’"


def clause_before(low: str, pos: int) -> str:
    """The part of the clause that precedes ``pos`` (lowercased text in, lowercased out).

    Looks back at most ``_REACH`` characters; the clause starts after the last
    break that lies wholly within them.
    """
    lo = pos - _REACH if pos > _REACH else 0
    m = _LAST_BREAK.match(low, lo, pos)
    return low[m.end() if m is not None else lo : pos]


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
    return _negates(piece.split())


def _negates(raw: list[str]) -> bool:
    """Whether the words of a clause (``str.split``) negate or condition what follows."""
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
    return _negates(clause_before(low, pos).split())


# Words that open a clause break (" but ", " yet "...): a word-by-word look back stops at them.
_BREAK_WORDS = frozenset(["but", "however", "though", "yet"])
# How many words right before a claim stem the quick look back reads, and how long each may be.
_NEAR_WORDS = 3
_NEAR_LEN = 16


def not_negated(low: str, pos: int) -> bool:
    """``not negated_or_hypothetical(low, pos)``: Scanner.find's ``keep`` for claims."""
    # Most claim stems in a trace sit right after their negation ("I cannot
    # search the web"): a negating word among the few words before ``pos``,
    # each separated by one space and holding only letters (so no clause break
    # lies between it and ``pos``), settles it without finding the clause.
    k = pos - 1
    if k > 0 and low[k] == " ":
        for _ in range(_NEAR_WORDS):
            j = low.rfind(" ", k - _NEAR_LEN if k > _NEAR_LEN else 0, k)
            if j < 0:
                break
            word = low[j + 1 : k]
            if word in _NOT_DONE_WORDS:
                return False
            if not word.isalpha() or word in _BREAK_WORDS:
                break
            k = j
    # clause_before written out: this runs for every claim stem in the reasoning.
    lo = pos - _REACH if pos > _REACH else 0
    m = _LAST_BREAK.match(low, lo, pos)
    return not _negates(low[m.end() if m is not None else lo : pos].split())


def negated_after(low: str, end: int) -> bool:
    """ "I searched ... not" style: a negation right after the claim's verb."""
    head = low[end : end + 12].lstrip()
    return head.startswith(("not ", "n't", "never "))
