"""Character folding shared by the strict evaluators.

Two foldings, because numbers and words need different things from the same
dash: in running text an em dash is punctuation, before a digit a U+2212 is a
minus sign.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping

# Spaces that look like a space to a reader: NBSP, the U+2000 block, narrow
# NBSP, medium math space, ideographic space. Zero-width ones vanish.
_SPACES = "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
# Each such space as " ", one character for one, so offsets into the text still hold.
AS_SPACE = str.maketrans(_SPACES, " " * len(_SPACES))
_ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_HYPHENS = "\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d"  # read as "-" everywhere
_LONG_DASHES = "\u2014\u2015\ufe58"  # em dash: "-" in words, a pause before numbers
_SINGLE_QUOTES = "\u2018\u2019\u201a\u201b\u2032\u00b4\uff07"
_DOUBLE_QUOTES = "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\uff02"
# Letters that NFKD leaves whole but a reader treats as their base letter.
_LETTERS = {"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ħ": "h", "ı": "i"}

_COMMON: dict[int, str | None] = {}
for _c in _SPACES:
    _COMMON[ord(_c)] = " "
for _c in _ZERO_WIDTH:
    _COMMON[ord(_c)] = None
for _c in _HYPHENS:
    _COMMON[ord(_c)] = "-"
for _c in _SINGLE_QUOTES:
    _COMMON[ord(_c)] = "'"
for _c in _DOUBLE_QUOTES:
    _COMMON[ord(_c)] = '"'
_COMMON[0x22C5] = "\u00b7"  # dot operator, as the reference normalises it

TEXT_TABLE: dict[int, str | None] = dict(_COMMON)
for _c in _LONG_DASHES:
    TEXT_TABLE[ord(_c)] = "-"
for _k, _v in _LETTERS.items():
    TEXT_TABLE[ord(_k)] = _v
# Markdown emphasis and code marks carry no meaning for a matched phrase.
TEXT_TABLE[ord("*")] = None
TEXT_TABLE[ord("`")] = None

NUMBER_TABLE: dict[int, str | None] = dict(_COMMON)
for _c in _LONG_DASHES:
    NUMBER_TABLE[ord(_c)] = " "
# The Arabic decimal and thousands separators (٣٫٥ is 3.5, ١٬٢٣٤ is 1234).
NUMBER_TABLE[0x066B] = "."
NUMBER_TABLE[0x066C] = ","


def translator(table: Mapping[int, str | int | None]) -> Callable[[str], str]:
    """``text.translate(table)``, found by one regex scan for the characters the table
    maps: ``str.translate`` with a dict looks every character of a non-ASCII text up
    (30 us on a 470-character answer of the benchmark corpus, against 3-5)."""
    to = {
        chr(k): "" if v is None else v if isinstance(v, str) else chr(v) for k, v in table.items()
    }
    mapped = re.compile("[" + "".join(re.escape(c) for c in sorted(to)) + "]")

    def translate(text: str) -> str:
        return mapped.sub(lambda m: to[m.group()], text)

    return translate


as_space = translator(AS_SPACE)
_text_chars = translator(TEXT_TABLE)
_number_chars = translator(NUMBER_TABLE)

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile(r"[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")
# U.S.S.R. and USSR, U.S. and US: dotted initials fold to the bare letters.
_ACRONYM = re.compile(r"\b(?:[^\W\d_]\.){2,}")
# What every _ACRONYM match holds (".S."), found from its literal dot: _ACRONYM
# itself is tried at every position (2 us on a 100-character answer, against 0.15).
_DOTTED_LETTER = re.compile(r"\.[^\W\d_]\.")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


_SLASHED = re.compile(r"(\d?)([⁰¹²³⁴⁵⁶⁷⁸⁹]+|\d+)⁄([₀₁₂₃₄₅₆₇₈₉]+|\d+)")
_SUBSCRIPT = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def _slashed_to_ascii(match: re.Match[str]) -> str:
    lead, top, bottom = match.groups()
    fraction = f"{top.translate(_SUPERSCRIPT)}/{bottom.translate(_SUBSCRIPT)}"
    return f"{lead} {fraction}" if lead else fraction


def _superscript_to_caret(match: re.Match[str]) -> str:
    return "^" + match.group().translate(_SUPERSCRIPT)


# Vulgar fractions (½, ¾, ⅛), after a whole number or alone: "2½" is 2.5.
_VULGAR = re.compile(r"(?:(\d+)[ \t]?)?([\u00bc-\u00be\u2150-\u215e])")
# The fraction alone, found by a plain scan: _VULGAR's optional lead is tried at
# every position, four times the cost on a 90-character answer.
_VULGAR_CHAR = re.compile(r"[\u00bc-\u00be\u2150-\u215e]")


def _vulgar_to_decimal(match: re.Match[str]) -> str:
    whole = int(match.group(1)) if match.group(1) else 0
    return repr(whole + unicodedata.numeric(match.group(2)))


def fold_number_text(text: str) -> str:
    """Text ready for number reading: ASCII digits, ``-`` signs, ``^n`` exponents,
    vulgar fractions as decimals."""
    if text.isascii():
        return text
    if "⁄" in text:  # "²⁄₇", "1²⁄₃": fractions written with the fraction slash
        text = _SLASHED.sub(_slashed_to_ascii, text)
    text = _SUPERSCRIPT_RUN.sub(_superscript_to_caret, text)
    if _VULGAR_CHAR.search(text):
        text = _VULGAR.sub(_vulgar_to_decimal, text)
    # NFKC turns full-width digits, letters and punctuation into ASCII.
    return unicodedata.normalize("NFKC", _number_chars(text))


def fold_width(text: str) -> str:
    """Full-width letters and punctuation as ASCII, for reading option letters."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", _number_chars(text))


def fold_phrase(text: str) -> str:
    """Case, accents, quotes, dashes, markdown marks and whitespace folded away.

    ``Zürich`` and ``zurich`` fold alike; so do ``New\\u00a0York`` and
    ``new  york``, ``O’Hare`` and ``o'hare``, ``U.S.S.R.`` and ``USSR``.
    """
    if text.isascii():
        text = text.replace("*", "").replace("`", "").lower()
    else:
        text = unicodedata.normalize("NFKD", _text_chars(text))
        text = _COMBINING.sub("", text).casefold()
    if "." in text and _DOTTED_LETTER.search(text):
        text = _ACRONYM.sub(_undot, text)
    return " ".join(text.split())


def _undot(match: re.Match[str]) -> str:
    return match.group().replace(".", "")


def split_camel(text: str) -> str:
    """``DisneySea`` as ``Disney Sea``: a compound's parts become words."""
    return _CAMEL.sub(" ", text)
