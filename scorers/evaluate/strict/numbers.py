"""Numbers as written by people and by LaTeX.

Read as one value: ``1,234``, ``1 234``, ``1'234`` and ``1,50,000`` (thousands),
``1.234,5`` and ``3,5`` (decimal commas), ``.5``, ``3e8``,
``1.5E-3``, ``3.0 × 10^8``, ``3 \\times 10^{8}``, ``10⁸``, ``2^10``,
``\\frac{9}{4}``, ``9/4``, ``45%``, ``1.5 million``. Not read as values: the exponent of a unit
(``12 m^2`` is 12, ``m²`` and ``cm3`` hold no number), and the second year of
a range (``2023-2024`` is 2023 then 2024, never -2024). Number words are read
when an answer has no digits at all: English ones here and through text2num,
other languages' through text2num, number-parser and cn2an.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import NamedTuple

from scorers.evaluate.strict.fold import fold_number_text


class Number(NamedTuple):
    value: float
    start: int
    end: int
    percent: bool
    # The other reading of a lone separator group (``1,234``, ``1.500``): a
    # thousands separator in one convention, a decimal mark in the other.
    other: float | None = None


# Grouped digits in either convention (1,234.5 / 1.234,5 / 1 234,5), then a
# decimal comma that cannot be a thousands group (3,5 / 0,25), then plain digits.
_MANTISSA = (
    r"\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d+)?(?![\d,])"  # Indian lakh grouping: 1,50,000
    r"|\d{1,3}(?:'\d{3})+(?:[.,]\d+)?(?![\d'])"  # Swiss apostrophes: 1'234.5
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])"
    r"|\d{1,3}(?:\.\d{3})+,\d+(?![\d,]|\.\d)"  # (a sentence's full stop may follow)
    r"|\d{1,3}(?:\.\d{3}){2,}(?!\d|\.\d)"
    r"|\d{1,3}(?: \d{3})+(?:[.,]\d+)?(?![\d])"
    r"|\d+,(?:\d{1,2}|\d{4,})(?![\d,])"
    r"|\d+(?:\.\d+)?|\.\d+"
)
_NUMBER = re.compile(
    # every number starts with a sign, a point, a digit or a backslash: reject
    # other positions with one test instead of trying each alternative
    r"(?=[-.\\\d])(?:"
    # a LaTeX fraction, whole
    r"(?P<fneg>-[ \t]*)?\\[dt]?frac[ \t]*\{[ \t]*(?P<fn>-?(?:\d+(?:\.\d+)?|\.\d+))[ \t]*\}"
    r"[ \t]*\{[ \t]*(?P<fd>-?(?:\d+(?:\.\d+)?|\.\d+))[ \t]*\}"
    # or a number not glued to a word, a decimal point or an exponent caret
    r"|(?<![A-Za-z0-9_.^\\])(?P<neg>-)?(?P<m>" + _MANTISSA + r")"
    r"(?:[eE](?P<e>[-+]?\d+)(?![A-Za-z0-9])"
    r"|[ \t]*(?:[x×*·]|\\times|\\cdot)[ \t]*10[ \t]*(?:\^|\*\*)[ \t]*\{?[ \t]*(?P<p>[-+]?\d+)[ \t]*\}?"
    r"|[ \t]*\^[ \t]*\{?[ \t]*(?P<pow>[-+]?\d+)[ \t]*\}?"
    r"|[ \t]*/[ \t]*(?P<den>\d+(?:\.\d+)?)(?![\d/])"
    r")?"
    r"(?P<pct>[ \t]*(?:\\?%|percent\b|per cent\b))?"
    r"(?P<mult>[ \t]+(?i:thousand|million|billion|trillion|lakhs?|crores?)\b|(?P<short>[kK]|[MBT]|bn)(?![A-Za-z0-9]))?"
    r")"
)
# (Indian English counts in lakhs, 100,000, and crores, 10,000,000.)
_MULTIPLIERS = {
    "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12,
    "lakh": 1e5, "lakhs": 1e5, "crore": 1e7, "crores": 1e7,
}  # fmt: skip
UNIT_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
# Longest first, for alternations: "seventeen" before "seven".
NUMBER_WORDS = sorted([*UNIT_WORDS, *_TENS], key=len, reverse=True)
_WORD_VALUES = {w: i for i, w in enumerate(UNIT_WORDS)} | {
    w: 20 + 10 * i for i, w in enumerate(_TENS)
}
_NUMBER_WORD = re.compile(
    r"\b(?P<t>" + "|".join(_TENS) + r")(?:[- ](?P<u>" + "|".join(UNIT_WORDS[1:10]) + r"))?\b"
    r"|\b(?P<w>" + "|".join(UNIT_WORDS) + r")\b",
    re.IGNORECASE,
)
# Case-insensitive matching also pairs "i" with the Turkish "İ" and "ı" and "s" with the long
# "ſ", whose lowercase forms differ from "i" and "s" ("FİVE".lower() is five characters).
_FOLD = str.maketrans({"ı": "i", "ſ": "s", "\u0307": None})


def _word_value(word: str) -> int:
    return _WORD_VALUES[word.lower().translate(_FOLD)]


_PAREN = re.compile(r"\([^()\n]*\)")
_EQUALS = re.compile(r"=|≈|\\approx|\\simeq|~")
_MAX_SEGMENT = 4000
_PLAIN = re.compile(r"-?\d{1,300}(?:\.\d{1,300})?")
_MAX_EXPONENT = 308


_LONE_GROUP = re.compile(r"\d{1,3}[.,]\d{3}")
_SHORT = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "bn": 1e9, "T": 1e12}


def _float(text: str) -> float:
    """The value of a mantissa: the last of ``.``/``,`` is the decimal mark when
    both appear; a lone comma before three digits groups thousands (English), a
    lone dot is a decimal point unless it repeats (1.234.567)."""
    text = text.replace(" ", "").replace("'", "")
    comma, dot = text.rfind(","), text.rfind(".")
    if comma != -1 and dot != -1:
        if comma > dot:
            return float(text.replace(".", "").replace(",", "."))
        return float(text.replace(",", ""))
    if comma != -1:
        groups = text.split(",")
        if len(groups) > 2 or (len(groups[1]) == 3 and groups[0].lstrip("-") != "0"):
            return float(text.replace(",", ""))
        return float(text.replace(",", "."))
    if text.count(".") > 1:
        return float(text.replace(".", ""))
    return float(text)


def _other_reading(mantissa: str) -> float | None:
    """The thousands reading of ``1.234``, which English reads as a decimal.

    ``1,234`` is not doubted here: it is English's thousands, the convention of
    the benchmarks' answers; only an answer in a decimal-comma language reads it
    otherwise (:mod:`scorers.evaluate.strict.reading`)."""
    if _LONE_GROUP.fullmatch(mantissa) is None or mantissa[0] == "0":
        return None  # 0.285 is no thousands
    if "," in mantissa:
        return float(mantissa.replace(",", "."))
    return float(mantissa.replace(".", ""))


def _value(m: re.Match[str]) -> float | None:
    if m.group("fn") is not None:
        den = float(m.group("fd"))
        if den == 0:
            return None
        value = float(m.group("fn")) / den
        return -value if m.group("fneg") else value
    value = _float(m.group("m"))
    exp = m.group("e") or m.group("p")
    if exp is not None:
        e = int(exp)
        if abs(e) > _MAX_EXPONENT:
            return None
        value *= 10.0**e
    elif m.group("pow") is not None:
        e = int(m.group("pow"))
        if abs(e) > 64:
            return None
        try:
            value = value**e
        except (OverflowError, ZeroDivisionError):
            return None
    elif m.group("den") is not None:
        den = float(m.group("den"))
        if den == 0:
            return None
        value /= den
    if m.group("short"):
        value *= _SHORT[m.group("short")]
    elif m.group("mult"):
        value *= _MULTIPLIERS[m.group("mult").strip().lower()]
    if not math.isfinite(value):
        return None
    return -value if m.group("neg") else value


def find_numbers(text: str) -> list[Number]:
    """Every number in ``text`` (already folded), in order."""
    return list(_numbers_in(text))


@lru_cache(maxsize=256)  # (one evaluation reads a sentence's numbers several times)
def _numbers_in(text: str) -> tuple[Number, ...]:
    found: list[Number] = []
    for m in _NUMBER.finditer(text):
        value = _value(m)
        if value is not None:
            other = None
            mantissa = m.group("m")
            if (
                mantissa is not None
                and 5 <= len(mantissa) <= 7  # one digit group: 1,234 or 123.456
                and ("," in mantissa or "." in mantissa)
                and not any(m.group(g) for g in ("e", "p", "pow", "den", "mult"))
            ):
                other = _other_reading(mantissa)
                if other is not None and value < 0:
                    other = -other
            found.append(Number(value, m.start(), m.end(), m.group("pct") is not None, other))
    return tuple(found)


# Languages whose number words text2num reads ("vingt-trois", "dreiundzwanzig"),
# and those number-parser reads beyond them ("сорок пять", "сім", "पैंतालीस").
_WORD_LANGUAGES = ("fr", "es", "pt", "de", "nl", "it")
_PARSER_LANGUAGES = ("ru", "uk", "hi")
_FEW_WORDS = 3
_UNTOLD_CHARS = 80  # a sentence or two: longer texts whose language is not told are mixed
_LATIN = re.compile(r"[A-Za-zÀ-ɏ]{2}")


def _foreign_number_words(text: str, last: bool) -> Number | None:
    """Number words of the answer's language, when a maintained package reads it:
    text2num, number-parser, or cn2an for Chinese and Japanese numerals ("四十五")."""
    from scorers.evaluate.strict.locale_numbers import language

    han = _han_numerals(text, last)
    if han is not None:
        return han
    lang = language(text)
    if lang is None and len(text) <= _UNTOLD_CHARS:
        # Its language not told ("sieben", "семь", "Il y en a trente."): the
        # languages of its script that read a number in it must agree on one.
        tried = _WORD_LANGUAGES if text.isascii() or _LATIN.search(text) else _PARSER_LANGUAGES
        read = {n.value: n for n in (_words_in(text, other, last) for other in tried) if n}
        return next(iter(read.values())) if len(read) == 1 else None
    if lang in _WORD_LANGUAGES or lang in _PARSER_LANGUAGES:
        return _words_in(text, lang, last)
    return None


_ORDINAL_END = re.compile(r"(?:st|nd|rd|th)\b")


def _words_in(text: str, lang: str, last: bool, threshold: int = 3) -> Number | None:
    if lang in _PARSER_LANGUAGES:
        return _parsed_in(text, lang, last, threshold)
    from text_to_num import alpha2digit

    try:
        digits = alpha2digit(text, lang, threshold=threshold)
    except ValueError:
        return None
    # (text2num writes ordinals as "2nd": "per second" is no number)
    numbers = [n for n in find_numbers(digits) if not _ORDINAL_END.match(digits, n.end)]
    if digits == text or not numbers:
        return None
    n = numbers[-1] if last else numbers[0]
    return Number(n.value, n.start, n.end, n.percent)


def _parsed_in(text: str, lang: str, last: bool, threshold: int) -> Number | None:
    """Number words read by number-parser (CLDR's spell-out rules), which writes
    every one, "один" (one, also "a") included: as text2num's threshold does, a
    number under ``threshold`` counts only in an answer of a few words."""
    from number_parser import parse

    try:
        digits = parse(text, language=lang)
    except Exception:  # noqa: BLE001 (whatever number-parser raises, no number is read)
        return None
    if digits == text:
        return None
    numbers = find_numbers(digits)
    if len(text.split()) > _FEW_WORDS:
        numbers = [n for n in numbers if abs(n.value) >= threshold]
    if not numbers:
        return None
    n = numbers[-1] if last else numbers[0]
    return Number(n.value, n.start, n.end, n.percent)


def _han_numerals(text: str, last: bool) -> Number | None:
    """Chinese and Japanese numerals ("四十五", "两千", "三点五", "一億二千万"), each
    unbroken run read by cn2an; a run after "第" is an ordinal and no value. A
    lone character ("一" in 一些, "some") is read only when no longer run is."""
    if text.isascii() or _HAN.search(text) is None:
        return None
    runs = [m for m in _han_run().finditer(text) if not text.startswith("第", m.start() - 1)]
    if not runs:
        return None
    import cn2an

    longer = [m for m in runs if len(m.group()) > 1]
    found = []
    for m in longer or runs:
        if len(m.group()) > _LONGEST_NUMERAL:
            continue  # no numeral is written so long: a run of text, not a value
        try:
            value = float(cn2an.cn2an(m.group(), "normal"))
        except Exception:  # noqa: BLE001 (whatever cn2an raises, the run is no number)
            continue
        found.append(Number(value, m.start(), m.end(), False))
    if not found:
        return None
    return found[-1] if last else found[0]


_LONGEST_NUMERAL = 24  # "一千二百三十四万五千六百七十八亿..." is long enough
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@lru_cache(maxsize=1)
def _han_run() -> re.Pattern[str]:
    """Runs of the characters cn2an reads as numerals, and of the Han characters the
    Unicode Character Database gives a numeric value (萬, 億, 兩): cn2an decides."""
    import unicodedata

    import cn2an

    chars = set(cn2an.Cn2An().check_key_dict["normal"]) - {"点", "负"}
    chars |= {
        c for c in map(chr, range(0x4E00, 0xA000)) if unicodedata.numeric(c, None) is not None
    }
    body = "".join(sorted(chars))
    return re.compile(f"负?[{body}]+(?:点[{body}]+)?")


# English number words past ninety-nine ("two hundred and six", "twelve
# thousand"): read by text2num, which composes them.
LARGE_WORD = re.compile(r"\b(?:hundred|thousand|million|billion|point)\b", re.IGNORECASE)
# "a dozen", "two dozen", "half a dozen": English counts in twelves.
_DOZEN = re.compile(
    r"\b(?:(?P<half>half an?)|(?P<n>an?|one|two|three|four|five|six|seven|eight|nine|ten))[ \t]+dozen\b",
    re.IGNORECASE,
)


# "one quarter", "two thirds", "three and a half": English fractions in words.
_DENOMINATORS = {
    "half": 2, "halves": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
_SMALL = r"a|an|one|two|three|four|five|six|seven|eight|nine|ten"
_FRACTION_WORDS = re.compile(
    rf"\b(?:(?P<whole>{_SMALL}|eleven|twelve)[ \t]+and[ \t]+an?[ \t]+(?P<part>half|quarter|third)"
    rf"|(?P<num>{_SMALL})[ \t-]+(?P<den>halves|half|(?:third|quarter|fourth|fifth|sixth|seventh"
    r"|eighth|ninth|tenth)s?))\b",
    re.IGNORECASE,
)


def _fraction_words(text: str, last: bool) -> Number | None:
    found = list(_FRACTION_WORDS.finditer(text))
    if not found:
        return None
    m = found[-1] if last else found[0]
    if m.group("whole"):
        whole = m.group("whole").lower()
        value = _word_value(whole) + 1 / _DENOMINATORS[m.group("part").lower()]
    else:
        num = m.group("num").lower()
        den = m.group("den").lower()
        value = (1 if num in ("a", "an") else _word_value(num)) / _DENOMINATORS[
            den if den in _DENOMINATORS else den[:-1]
        ]
    return Number(value, m.start(), m.end(), False)


def word_numbers(text: str, start: int, end: int) -> list[Number]:
    """The English number words of ``text[start:end]`` under a hundred, as numbers."""
    out = []
    for m in _NUMBER_WORD.finditer(text, start, end):
        value = _word_value(m.group("t") or m.group("w"))
        if m.group("u"):
            value += _word_value(m.group("u"))
        if _MINUS_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            value = -value
        out.append(Number(float(value), m.start(), m.end(), False))
    return out


def _number_words(text: str, last: bool) -> Number | None:
    if any(w in text for w in ("half", "halves", "thir", "quart", "fourth", "fifth", "th ", "ths")):
        fraction = _fraction_words(text, last)
        if fraction is not None:
            return fraction
    if "ozen" in text:
        dozens = list(_DOZEN.finditer(text))
        if dozens:
            d = dozens[-1] if last else dozens[0]
            count = 0.5 if d.group("half") else 1.0
            if d.group("n") and d.group("n").lower() not in ("a", "an", "one"):
                count = _word_value(d.group("n"))
            return Number(12 * count, d.start(), d.end(), False)
    matches = list(_NUMBER_WORD.finditer(text))
    if not matches:
        return _foreign_number_words(text, last)
    if "(" in text:  # words in brackets count only when nothing else does, as digits
        asides = [p.span() for p in _PAREN.finditer(text)]
        plain = [m for m in matches if not any(s <= m.start() < e for s, e in asides)]
        matches = plain or matches
    if LARGE_WORD.search(text):
        composed = _words_in(text, "en", last, threshold=0)
        if composed is not None:
            return composed
    m = matches[-1] if last else matches[0]
    if m.group("t"):
        value = _word_value(m.group("t"))
        if m.group("u"):
            value += _word_value(m.group("u"))
    else:
        value = _word_value(m.group("w"))
    return Number(float(value), m.start(), m.end(), False)


# A mixed number, "3 3/4" (a proper fraction after a whole number): 3.75.
_MIXED = re.compile(r"(?<![\d.,/])(\d{1,6})[ \t]+(\d{1,3})/(\d{1,3})(?![\d/.])")


def _mixed_to_decimal(m: re.Match[str]) -> str:
    numerator, denominator = int(m.group(2)), int(m.group(3))
    if not 0 < numerator < denominator:
        return m.group()
    return repr(int(m.group(1)) + numerator / denominator)


def pick_number(segment: str, *, last: bool) -> tuple[Number | None, str]:
    """The number an answer states, and the folded text it was read from.

    A stated answer (``last=False``) gives its value after its last ``=`` or
    ``≈`` (``12 + 3 = 15`` is 15), else its first number: what follows is a
    remark (``3 (from 2 planes)``, ``37 °C (98.6 °F)``). A whole response
    (``last=True``) gives the last number of the last line holding one.
    Numbers inside parentheses count only when nothing else does.
    """
    if not last and _PLAIN.fullmatch(segment) and not _LONE_GROUP.fullmatch(segment):
        # "Final Answer: 123", the format the prompt asks for
        return Number(float(segment), 0, len(segment), False), segment
    text = fold_number_text(segment[-_MAX_SEGMENT:] if last else segment[:_MAX_SEGMENT])
    if "/" in text:
        text = _MIXED.sub(_mixed_to_decimal, text)
    if "inus" in text or "egative" in text:
        text = _MINUS_WORD.sub("-", text)  # "minus 5" is -5
    if last:
        lines = text.splitlines()
        for line in reversed(lines):
            numbers = find_numbers(line)
            if numbers and (label := _STEP_LABEL.match(line)) is not None:
                # "Step 4: Find what is left." numbers the step: no amount
                numbers = [n for n in numbers if n.start >= label.end()]
            if numbers:
                offset = text.rfind(line)
                return _choose(numbers, line, last=True, offset=offset), text
        return _signed(_number_words(text, last=True), text), text
    numbers = find_numbers(text)
    if not numbers:
        return _signed(_number_words(text, last=False), text), text
    return _choose(numbers, text, last=False, offset=0), text


# A line that opens by numbering its step ("Step 4:", "**Step 2.**", "Stage 3)").
_STEP_LABEL = re.compile(
    r"[ \t*_#>-]*(?:step|stage|الخطوة)[ \t]+\d{1,2}[ \t*_]*[:.)]", re.IGNORECASE
)
_MINUS_WORD = re.compile(r"\b(?:minus|negative)[ \t]+(?=\d)", re.IGNORECASE)
_MINUS_BEFORE = re.compile(r"\b(?:minus|negative)[ \t]+$", re.IGNORECASE)
# A Roman numeral of two letters or more, the whole answer ("XXI", "MCMXCIX").
_ROMAN = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}


def _signed(number: Number | None, text: str) -> Number | None:
    """A number in words, or a Roman numeral when the answer is nothing else;
    negative after "minus" ("minus forty")."""
    if number is None:
        bare = text.strip(" \t\n*_.!`")
        if len(bare) < 2 or not bare.isupper() or not _ROMAN.fullmatch(bare):
            return None
        values = [_ROMAN_VALUES[c] for c in bare]
        value = sum(-v if v < w else v for v, w in zip(values, [*values[1:], 0], strict=True))
        return Number(float(value), text.find(bare), text.find(bare) + len(bare), False)
    if _MINUS_BEFORE.search(text, max(0, number.start - 12), number.start):
        return number._replace(value=-number.value)
    return number


def _choose(numbers: list[Number], text: str, *, last: bool, offset: int) -> Number:
    if len(numbers) == 1:
        n = numbers[0]
    else:
        asides = [(p.start(), p.end()) for p in _PAREN.finditer(text)] if "(" in text else []

        def aside(n: Number) -> bool:
            return any(s <= n.start and n.end <= e for s, e in asides)

        start = 0
        for eq in _EQUALS.finditer(text):
            if not any(s <= eq.start() < e for s, e in asides):
                start = eq.end()
        pool = [n for n in numbers if n.start >= start] or numbers
        plain = [n for n in pool if not aside(n)] or pool
        n = plain[-1] if last else plain[0]
    if not offset:
        return n
    return n._replace(start=n.start + offset, end=n.end + offset)  # (its other reading kept)


def canonical(value: float, percent: bool = False) -> str:
    """A stable spelling of a value: ``1234``, ``0.5``, ``3e+08``; ``%`` kept."""
    if value == int(value) and abs(value) < 1e15:
        text = str(int(value))
    else:
        text = repr(value)
    return text + "%" if percent else text
