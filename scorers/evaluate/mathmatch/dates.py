"""A reference that is a calendar date is compared as a date, not as its numbers.

"September 1980" read as numbers is the bare year 1980 and a day of the month is a
stray value ("March 3, 2001" became two blanks), so a date scored 0 or 0.5 against
itself. A reference written wholly as a date in the forms English writes (the
month's name as :mod:`calendar` gives it, full or abbreviated: "September 1980",
"3 September 1980", "September 3, 1980", "Sept. 3rd 1980", "3 March") or as an ISO
8601 calendar date ("1980-09-03") is a date: the response's date is the last one its
final answer writes that holds the value read as its answer (the year "1980" of
"... appeared in September 1980 at the show"), and it matches when it names the
same year, month and day as far as the reference names them ("3 September 1980"
answers "September 1980"; "1980" or "October 1980" does not).
"""

from __future__ import annotations

import calendar
import re
from typing import NamedTuple

_NAMES = {
    name.lower(): number
    for number in range(1, 13)
    for name in (calendar.month_name[number], calendar.month_abbr[number])
}
_NAMES["sept"] = 9  # (the usual abbreviation beside "Sep")
_MONTH = r"(?P<{0}>" + "|".join(sorted(_NAMES, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<{0}>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"(?P<{0}>\d{{3,4}})"
_DATE = re.compile(
    r"(?<![\w-])(?:"
    # 3 September 1980, 3rd of September 1980, 3 March
    + _DAY.format("d1")
    + r"(?:\s+of)?\s+"
    + _MONTH.format("m1")
    + r"(?:,?\s+"
    + _YEAR.format("y1")
    + r")?"
    # September 3, 1980; September 1980; Sept. 3rd 1980
    + r"|"
    + _MONTH.format("m2")
    + r"(?:\s+"
    + _DAY.format("d2")
    + r"(?![\d.]))?(?:,?\s+"
    + _YEAR.format("y2")
    + r")?"
    # 1980-09-03
    + r"|(?P<y3>\d{4})-(?P<m3>0[1-9]|1[0-2])-(?P<d3>[0-2]\d|3[01])"
    + r")(?![\w-])",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")


class Date(NamedTuple):
    year: int | None
    month: int
    day: int | None


def _date(found: re.Match[str]) -> Date:
    def number(*names: str) -> int | None:
        value = next((found.group(n) for n in names if found.group(n)), None)
        return None if value is None else int(value)

    month = next(found.group(n) for n in ("m1", "m2", "m3") if found.group(n))
    return Date(
        number("y1", "y2", "y3"),
        _NAMES[month.lower()] if not month.isdigit() else int(month),
        number("d1", "d2", "d3"),
    )


def reference_date(reference: str) -> Date | None:
    """The date ``reference`` is, when it is wholly one (a month with a day or a year)."""
    found = _DATE.fullmatch(reference.strip().rstrip(".").strip())
    if found is None:
        return None
    date = _date(found)
    return date if date.year is not None or date.day is not None else None


def answered_date(text: str, extracted: str) -> tuple[str, Date] | None:
    """The last date written in ``text`` that holds every number of ``extracted``
    (the value read as the answer), as (its text, the date)."""
    wanted = {int(n) for n in _DIGITS.findall(extracted)}
    if not wanted:
        return None
    for found in reversed(list(_DATE.finditer(text))):
        date = _date(found)
        if date.year is None and date.day is None:
            continue  # ("in May": a month alone)
        if wanted <= {int(n) for n in _DIGITS.findall(found.group(0))}:
            return found.group(0), date
    return None


def same_date(answer: Date, reference: Date) -> bool:
    """Whether ``answer`` names the reference's year, month and day as far as it names them."""
    return all(r is None or a == r for a, r in zip(answer, reference, strict=True))
