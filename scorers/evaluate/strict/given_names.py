"""Other forms of a person's name: the given name's nicknames and full forms.

"Larry Pennell" names Lawrence Kenneth Pennell, "Bill Clinton" William Jefferson
Clinton, "William Clinton" Bill Clinton: the given names and their nicknames come
from the ``nicknames`` package (a hand-curated data set of English given names and
their diminutives), loaded on first use. A key counts as a person's name when it
has two words or more, each capitalised, and its first word is a given name the
data knows; its other forms are each form of that given name before its last word
(a middle name may be left out, as people do: "Lawrence Pennell").
"""

from __future__ import annotations

from functools import lru_cache

from scorers.evaluate.strict.fold import fold_phrase

_MIN_WORDS = 2


@lru_cache(maxsize=1)
def _namer():  # type: ignore[no-untyped-def]
    from nicknames import NickNamer

    return NickNamer()


@lru_cache(maxsize=4096)
def person_variants(key: str) -> tuple[str, ...]:
    """Folded other forms of ``key`` when it is a person's name, else ()."""
    words = key.split()
    if len(words) < _MIN_WORDS or not all(w[:1].isupper() for w in words) or not key.isascii():
        return ()
    first, last = words[0].lower(), fold_phrase(words[-1])
    namer = _namer()
    forms = set(namer.nicknames_of(first)) | set(namer.canonicals_of(first))
    if not forms:
        return ()
    forms.add(first)
    folded = fold_phrase(key)
    return tuple(sorted(f"{f} {last}" for f in forms if f"{f} {last}" != folded))
