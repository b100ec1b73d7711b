"""A country's adjective in other languages ("polacca", "американское",
"Österreichisches"), from the Unicode CLDR through Babel.

CLDR holds no demonyms, and no maintained package on PyPI gives them in several
languages; it does hold, in every locale, the names of languages and of their
regional forms, which are written with the country's adjective:

- a regional form's name less its language's ("inglese americano" less "inglese"
  is "americano", "австрийский немецкий" less "немецкий" is "австрийский",
  "français canadien" less "français" is "canadien");
- a language's name where it is the adjective of the country the language is
  most likely spoken in (CLDR's likely subtags) and shares that country's name's
  first letters in the same locale ("polacco" and Polonia, "Deutsch" and
  Deutschland, "польский" and Польша; not "inglese" for the United States, nor
  "portoghese" for Brazil).

A word of an answer names such an adjective when the two differ only in an
inflection's ending (a few vowels and one of s, n, m, r: "polacca" for
"polacco", "американское" for "американский", "Amerikanisches" for
"amerikanisch"), not in a longer or other tail ("Francesco" is no "francese").
"""

from __future__ import annotations

import re

from scorers.evaluate.strict.diskcache import disk_cached
from scorers.evaluate.strict.fold import fold_phrase

_STEM = 5  # letters two forms of one adjective share at least
_SHARED_WITH_NAME = 3  # "pol" of "polacco" and "Polonia"
# What may follow the shared stem in either form: an inflection's ending.
_ENDING = re.compile(r"[aeiouyаеёиоуыэюяйь]{0,3}[snmrх]?[aeiouyаеёиоуыэюяйь]{0,2}")


@disk_cached("babel")
def _adjectives() -> dict[str, frozenset[str]]:
    import pickle

    from babel import localedata
    from babel.core import get_global

    likely = get_global("likely_subtags")
    found: dict[str, set[str]] = {}

    def add(adjective: str, code: str) -> None:
        folded = fold_phrase(adjective)
        if " " not in folded and len(folded) >= _STEM and folded.isalpha():
            found.setdefault(folded, set()).add(code)

    for ident in localedata.locale_identifiers():
        if "_" in ident:
            continue
        with open(localedata.resolve_locale_filename(ident), "rb") as f:
            data = pickle.load(f)
        languages, territories = data.get("languages", {}), data.get("territories", {})
        for code, name in languages.items():
            if not isinstance(name, str):
                continue
            lang, _, region = code.partition("_")
            base = languages.get(lang)
            if region.isalpha() and region.isupper() and isinstance(base, str):
                rest = fold_phrase(name).replace(fold_phrase(base), " ").strip()
                if rest != fold_phrase(name).strip():
                    add(rest, region)
            elif not region:
                where = (likely.get(lang) or "").rpartition("_")[2]
                country = territories.get(where)
                if isinstance(country, str) and _head(name) == _head(country):
                    add(name, where)
    return {k: frozenset(v) for k, v in found.items() if len(v) == 1}


def _head(name: str) -> str:
    """A name's first letters, past the Arabic article ("البولندية", "بولندا")."""
    return fold_phrase(name).removeprefix("ال")[:_SHARED_WITH_NAME]


def territory_of(word: str) -> str | None:
    """The CLDR territory code whose adjective ``word`` is, in some language."""
    folded = fold_phrase(word)
    if len(folded) < _STEM or not folded.isalpha():
        return None
    data = _adjectives()
    if (codes := data.get(folded)) is not None:
        return next(iter(codes))
    for size in range(len(folded), _STEM - 1, -1):
        stem, tail = folded[:size], folded[size:]
        if _ENDING.fullmatch(tail) is None:
            break
        codes = frozenset().union(*(c for _, c in _by_stem().get(stem, ())))
        if codes:
            return next(iter(codes)) if len(codes) == 1 else None
    return None


_STEMS: list[dict[str, list[tuple[str, frozenset[str]]]]] = []


def _by_stem() -> dict[str, list[tuple[str, frozenset[str]]]]:
    """Each adjective under every stem of it whose tail is an ending."""
    if not _STEMS:
        index: dict[str, list[tuple[str, frozenset[str]]]] = {}
        for adjective, codes in _adjectives().items():
            for size in range(len(adjective), _STEM - 1, -1):
                if _ENDING.fullmatch(adjective[size:]) is None:
                    break
                index.setdefault(adjective[:size], []).append((adjective, codes))
        _STEMS.append(index)
    return _STEMS[0]
