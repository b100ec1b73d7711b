"""Dates written in any language, read as (year, month, day).

A key item "21 April 2017" (or "2017-04-21") is named by "21 de abril de 2017",
"le 21 avril 2017", "21. April 2017", "21 апреля 2017 года", "April 21st, 2017",
"2017年4月21日" and "21.04.2017": the month names and their abbreviations come from
the Unicode CLDR through Babel (every base locale, format and stand-alone forms,
so Russian's genitive "апреля" too). A name that means different months in
different languages ("listopad": November in Polish, October in Croatian) is
read in the answer's language (py3langid), else as the month four times as many
languages give it, else not at all. Only whole dates name a date: day, month
and year, all three; :func:`coarser` tells a text that names one to its month
or year only.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from scorers.evaluate.strict.diskcache import disk_cached
from scorers.evaluate.strict.fold import fold_phrase

Date = tuple[int, int, int]

_WORD = r"(?<![^\W\d_])([^\W\d_]{3,24}\.?)(?![^\W\d_])"  # a whole word: one try per word
_DAY_SUFFIX = r"(?:\.|er|eme|º|°|st|nd|rd|th|-?го)?"
# "21 April 2017", "21. April 2017", "21 April, 2017", "21 de abril de 2017", "21 апреля 2017"
_DAY_MONTH_YEAR = re.compile(
    rf"(?<![\d.])(\d{{1,2}}){_DAY_SUFFIX}\s+(?:de\s+|of\s+)?{_WORD},?\s+(?:de\s+|del\s+)?(\d{{4}})(?!\d)"
)
# "April 21, 2017", "April 21st 2017"
_MONTH_DAY_YEAR = re.compile(rf"{_WORD}\s+(\d{{1,2}}){_DAY_SUFFIX},?\s+(\d{{4}})(?!\d)")
# "2017年4月21日", "2017년 4월 21일"
_EAST_ASIAN = re.compile(r"(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]")
# "2017-04-21" (hyphens fold to spaces), "21.04.2017", "21/04/2017"
_ISO = re.compile(r"(?<![\d.])(\d{4})[ -](\d{2})[ -](\d{2})(?![\d.])")
_NUMERIC = re.compile(r"(?<![\d./])(\d{1,2})([./])(\d{1,2})\2(\d{4})(?!\d|[./]\d)")


@disk_cached("babel")
def _month_names() -> dict[str, dict[str, int]]:
    """Every CLDR month name and abbreviation of three letters or more, folded:
    word -> {language: month}."""
    from babel import Locale, localedata

    months: dict[str, dict[str, int]] = {}
    for ident in localedata.locale_identifiers():
        if "_" in ident or ident == "root":
            continue
        try:
            data = Locale.parse(ident).months
        except (ValueError, KeyError):
            continue
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for number, name in dict(data.get(context, {}).get(width, {})).items():
                    word = fold_phrase(str(name)).rstrip(".")
                    if len(word) >= 3 and word.isalpha():
                        months.setdefault(word, {})[ident] = int(number)
    return months


def _month(word: str, text: str) -> int | None:
    """The month ``word`` names: the one every language that has it agrees on, else
    the one of the text's language ("listopad" is November in Polish, October in
    Croatian), else the one four times as many languages give it ("mai")."""
    by_language = _month_names().get(word.rstrip("."))
    if not by_language:
        return None
    months = set(by_language.values())
    if len(months) == 1:
        return next(iter(months))
    from scorers.evaluate.strict.locale_numbers import language

    told = by_language.get(language(text) or "")
    if told is not None:
        return told
    # Not told: the month of four times as many languages as any other ("mai").
    counts = sorted((list(by_language.values()).count(m), m) for m in months)
    return counts[-1][1] if counts[-1][0] >= 4 * counts[-2][0] else None


def _valid(y: int, m: int, d: int) -> Date | None:
    return (y, m, d) if 1 <= m <= 12 and 1 <= d <= 31 else None


def dates_in(folded: str, raw: str = "") -> set[Date]:
    """Every whole date of a folded text (see :func:`fold_phrase`); ``raw``, the
    text as written, tells its language better when a month name needs it."""
    found: set[Date | None] = set()
    if not any(c.isdigit() for c in folded):
        return set()
    if not folded.isascii():
        folded = unicodedata.normalize("NFC", folded)  # Hangul syllables, decomposed by folding
    for m in _DAY_MONTH_YEAR.finditer(folded):
        month = _month(m.group(2), raw or folded)
        if month is not None:
            found.add(_valid(int(m.group(3)), month, int(m.group(1))))
    for m in _MONTH_DAY_YEAR.finditer(folded):
        month = _month(m.group(1), raw or folded)
        if month is not None:
            found.add(_valid(int(m.group(3)), month, int(m.group(2))))
    for m in _EAST_ASIAN.finditer(folded):
        found.add(_valid(int(m.group(1)), int(m.group(2)), int(m.group(3))))
    for m in _ISO.finditer(folded):
        found.add(_valid(int(m.group(1)), int(m.group(2)), int(m.group(3))))
    for m in _NUMERIC.finditer(folded):
        a, b, year = int(m.group(1)), int(m.group(3)), int(m.group(4))
        if m.group(2) == "." or a > 12:
            found.add(_valid(year, b, a))  # dots write day first; a day past 12 is one
        elif b > 12:
            found.add(_valid(year, a, b))  # "04/21/2017"
        # ("04/05/2017" stays unread: either could be the month)
    return {d for d in found if d is not None}


@lru_cache(maxsize=4096)
def key_date(key: str) -> Date | None:
    """The date a key item spells, when it is one whole date and nothing more."""
    folded = fold_phrase(key)
    if not any(c.isdigit() for c in folded) or len(folded) > 40:
        return None
    found = dates_in(folded)
    return next(iter(found)) if len(found) == 1 else None


_MONTH_YEAR = re.compile(rf"{_WORD}\s+(\d{{4}})")


@lru_cache(maxsize=4096)
def key_month(key: str) -> tuple[int, int] | None:
    """(year, month) of a key item that spells a month and its year and nothing more
    ("April 1917", "avril 1917")."""
    folded = fold_phrase(key)
    m = _MONTH_YEAR.fullmatch(folded) if any(c.isdigit() for c in folded) else None
    month = _month(m.group(1), key) if m is not None else None
    return None if m is None or month is None else (int(m.group(2)), month)


def finer(folded: str, raw: str, year: int, month: int) -> bool:
    """A text that names a whole date of that month, and no date of another
    ("on April 6, 1917" for April 1917): the key, to the day."""
    found = {d[:2] for d in dates_in(folded, raw)}
    return found == {(year, month)}


def coarser(folded: str, raw: str, date: Date) -> str | None:
    """How much of ``date`` a text names when it names no whole date of that
    month: "month" for its month and year ("nell'aprile 2017", "April 2017"),
    "year" for its year alone, with no month named at all ("opened in 1843");
    None when it names neither, another year too, or another month or day of
    that year."""
    year, month, _ = date
    years = {int(y) for y in re.findall(r"(?<!\d)[12]\d{3}(?!\d)", folded)}
    if years != {year} or re.search(rf"\d[./ ]\d{{1,2}}[./ ]{year}", folded):
        # another year beside it is another candidate ("November 2024"); a date
        # in figures left unread ("11/09/1989") names a day
        return None
    if any(d[:2] == (year, month) for d in dates_in(folded, raw)):
        return None  # another day of the month, or the day itself
    named = {_month(m.group(1), raw or folded) for m in re.finditer(_WORD, folded)}
    named.discard(None)
    if month in named:
        return "month"
    return None if named else "year"


def date_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` (as written) writes a whole date ("March 8, 2005", "4. prosince
    2012", "2017年4月21日"): the spans of its numbers' sentence that are a day
    and a year, not amounts."""
    if not any(c.isdigit() for c in text):
        return []
    spans = []
    for pattern, word in ((_DAY_MONTH_YEAR, 2), (_MONTH_DAY_YEAR, 1)):
        for m in pattern.finditer(text):
            if _month(fold_phrase(m.group(word)), text) is not None:
                spans.append(m.span())
    spans += [m.span() for p in (_EAST_ASIAN, _NUMERIC) for m in p.finditer(text)]
    return spans
