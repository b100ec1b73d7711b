"""Negation, hypotheticals and intent before a cue, checked on lowercased text.

A claim, hedge or abstention phrase only counts when the words before it in
the same clause do not negate it or make it hypothetical ("if I could search",
"I cannot browse", "without running code"). Word sets and ``in`` tests keep
this cheap: it runs for every cue found.
"""

from __future__ import annotations

from scorers.flags.spans import sentence_start

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
_CLAUSE_BREAKS = (",", ";", ":", "(", " but ", " however ", " though ", " yet ", " — ", " - ")
_STRIP = ".,;:!?()[]{}\"'*`“”‘’"


def clause_before(low: str, pos: int) -> str:
    """The part of the clause that precedes ``pos`` (lowercased text in, lowercased out)."""
    start = sentence_start(low, pos)
    cut = start
    for brk in _CLAUSE_BREAKS:
        i = low.rfind(brk, start, pos)
        if i != -1 and i + len(brk) > cut:
            cut = i + len(brk)
    return low[cut:pos]


_PHRASES_BY_WORD: dict[str, tuple[str, ...]] = {}
for _phrase in _NOT_DONE_PHRASES:
    _first = _phrase.split()[0]
    _PHRASES_BY_WORD[_first] = (*_PHRASES_BY_WORD.get(_first, ()), _phrase)


def has_negation(piece: str) -> bool:
    raw = piece.split()
    words = {w.strip(_STRIP) for w in raw}
    if not words.isdisjoint(_NOT_DONE_WORDS):
        return True
    firsts = words.intersection(_PHRASES_BY_WORD)
    if not firsts:
        return False
    padded = f" {' '.join(raw)} "
    return any(p in padded for w in firsts for p in _PHRASES_BY_WORD[w])


def negated_or_hypothetical(low: str, pos: int) -> bool:
    """True when the clause before ``pos`` negates or conditions what follows."""
    return has_negation(clause_before(low, pos))


def negated_after(low: str, end: int) -> bool:
    """ "I searched ... not" style: a negation right after the claim's verb."""
    head = low[end : end + 12].lstrip()
    return head.startswith(("not ", "n't", "never "))
