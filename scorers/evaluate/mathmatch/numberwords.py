"""Numbers and mathematics written in words, rewritten in digits and symbols.

Whole numbers go through text2num's ``alpha2digit`` (a maintained parser of
number words); fractions ("two thirds", "three and a half", "7 halves") and
mathematics read aloud ("the square root of 5", "pi over 6", "y squared minus
9") through the small tables below, which text2num does not cover.
"""

from __future__ import annotations

import re
from fractions import Fraction

try:  # text2num: number words in the languages of MathReal-style answers
    from text_to_num import alpha2digit as _alpha2digit
except ImportError:  # pragma: no cover - a declared dependency
    _alpha2digit = None

_DIGIT = re.compile(r"\d")
_ORDINAL = re.compile(r"\d(?:st|nd|rd|th)s?\b")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_DENOMINATORS = {
    "half": 2, "halve": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
_NUMERATORS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
               "seven": 7, "eight": 8, "nine": 9, "ten": 10}  # fmt: skip
# "two thirds", "one-half", "a quarter", "three quarters": a fraction in words ("70 quarters",
# in digits, are coins).
_FRACTION_WORDS = re.compile(
    r"\b(?:(?P<whole>\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+and\s+)?"
    r"(?P<top>an?|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}(?!\s+quarter))[\s-]+"
    r"(?P<bottom>half|halves|(?:third|quarter|fourth|fifth|sixth|seventh|eighth|ninth|tenth)s?)\b",
    re.I,
)


def _fraction(m: re.Match[str]) -> str:
    bottom = m.group("bottom").lower()
    bottom = bottom[:-1] if bottom.endswith("s") else bottom
    top_word = m.group("top").lower()
    top = int(top_word) if top_word.isdigit() else _NUMERATORS[top_word]
    under = _DENOMINATORS[bottom]
    whole = (m.group("whole") or "0").lower()
    top += under * (int(whole) if whole.isdigit() else _NUMERATORS[whole])  # "two and a half"
    return f"{top}/{under}"


_SCALES = {"dozen": 12, "hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9,
           "trillion": 10**12}  # fmt: skip
_NUMBER_WORD = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|"
    r"thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion)"
)
# "$1.2 million", "2 dozen", "a dozen", "half a million", "a quarter of a million" (1/4 by
# then), and text2num's "half a 1000000", "a 100": a quantity times a scale word is one
# number. Not in a compound that text2num reads whole ("one thousand two hundred").
_SCALED = re.compile(
    # ("8 dozen" stays: "how many dozen" is asked as often as how many)
    r"(?<![\d.,/])(?:(?P<digits>\d+(?:,\d{3})*(?:\.\d+)?(?:/\d+)?)(?:\s+of\s+an?)?(?!\s+dozen)"
    r"|(?<![\w-])(?P<half>half\s+an?)|(?<![\w-])an?)"
    r"\s+(?:(?P<word>dozen|hundred|thousand|million|billion|trillion)(?!\s+(?:and\s+)?"
    + _NUMBER_WORD
    + r"\b)|(?<=[a-z]\s)(?P<power>10{2,12})(?![\d.,]))\b",
    re.I,
)


def _scaled(m: re.Match[str]) -> str:
    word = m.group("word")
    scale = _SCALES[word.lower()] if word else int(m.group("power"))
    digits = m.group("digits")
    times = (
        Fraction(digits.replace(",", "")) if digits else Fraction(1, 2 if m.group("half") else 1)
    )
    value = times * scale
    return str(value.numerator) if value.denominator == 1 else str(value)


def number_words_to_digits(text: str) -> str:
    """``text`` with its number words written as digits: a fraction ("two
    thirds", "one half") and a quantity with a scale word ("$1.2 million") always;
    beside digits, "one" and "two" alone stay words ("one of the 3 roots", "the two
    ages are 9 and 14": the reader asks again once the clause that states the value
    is cut out, as in "two such numbers: 12 and 21"), while a larger number in words
    is a number ("seventy-five dollars for 3 shirts")."""
    if _CJK.search(text):
        return text
    text = _FRACTION_WORDS.sub(_fraction, text)
    scaled = _SCALE_WORD.search(text) is not None
    if scaled:
        text = _SCALED.sub(_scaled, text)
    if _alpha2digit is None:  # pragma: no cover - a declared dependency
        return text
    try:
        # threshold 0 without digits: "one" and "two" are answers too ("The answer is two.").
        converted = str(_alpha2digit(text, "en", 3 if _DIGIT.search(text) else 0))
    except (ValueError, TypeError):  # pragma: no cover - unexpected input to the parser
        return text
    # An ordinal ("the third root") is no number: such a text keeps its words.
    if _ORDINAL.search(converted):
        return text
    # "thirty (30)": the number restated in digits is one number
    converted = _RESTATED_DIGITS.sub(r"\1", converted)
    return _SCALED.sub(_scaled, converted) if scaled else converted


_PLAIN_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:/\d+)?")


def number_in_words(text: str) -> str:
    """A text that is only a number written in words ("Four", "one half") as that number;
    any other text as it is."""
    if _DIGIT.search(text):
        return text
    said = number_words_to_digits(text).strip().rstrip(".")
    return said if _PLAIN_NUMBER.fullmatch(said) else text


_RESTATED_DIGITS = re.compile(r"\b(\d+)\s*\(\s*\1\s*\)")
_SCALE_WORD = re.compile(r"dozen|hundred|thousand|illion|\b10{2,12}\b", re.I)


def _bound(words: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\d%])(?<![\d%]\s)\b(?:" + words + r")\s+(?=[-−+]?\d)", re.I)


# Mathematics read aloud: "the square root of 3", "2 root 3", "pi over 4",
# "x squared plus 1", "negative 4". Each rewrite needs a value on the side(s) it joins.
_SPOKEN = (
    (re.compile(r"\b(?:the\s+)?square\s+root\s+of\s+", re.I), "√"),
    (re.compile(r"(?<=\d)\s+root\s+(?=\d)", re.I), "√"),
    (re.compile(r"\bpi\b", re.I), "π"),
    (re.compile(r"(?<=[\w)π])\s+squared\b", re.I), "^2"),
    (re.compile(r"(?<=[\w)π])\s+cubed\b", re.I), "^3"),
    (re.compile(r"\b(?:negative|minus)\s+(?=[\d√π(])", re.I), "-"),
    (re.compile(r"(?<=[\w)π])\s+minus\s+(?=[\w√π(])", re.I), " - "),
    (re.compile(r"(?<=[\w)π^])\s+plus\s+(?=[\w√π(])", re.I), " + "),
    (re.compile(r"(?<=[\d)π])\s+over\s+(?=[\d√π(])", re.I), "/"),
    (re.compile(r"(?<=[\d)π])\s+times\s+(?=[\d√π(])", re.I), " × "),
    (re.compile(r"(?<=\d)\s*(?:per\s*cent|percent)\b", re.I), "%"),
    # "x is less than 5", "t is at least 2": a bound on a named unknown.
    (
        re.compile(
            r"(?<=\b[a-z])\s+is\s+(?:less\s+than\s+or\s+equal\s+to|at\s+most|no\s+more\s+than)\s+"
        ),
        " ≤ ",
    ),
    (
        re.compile(
            r"(?<=\b[a-z])\s+is\s+(?:greater\s+than\s+or\s+equal\s+to|at\s+least|no\s+less\s+than)\s+"
        ),
        " ≥ ",
    ),
    (re.compile(r"(?<=\b[a-z])\s+is\s+(?:strictly\s+)?less\s+than\s+"), " < "),
    (re.compile(r"(?<=\b[a-z])\s+is\s+(?:strictly\s+)?(?:greater|more)\s+than\s+"), " > "),
    # "at least 12", "no more than 12" with no unknown named: a bound, which is
    # no value ("5 more than 25" compares two values and stays as written).
    (_bound(r"at\s+least|no\s+(?:less|fewer)\s+than"), "≥ "),
    (_bound(r"at\s+most|no\s+more\s+than"), "≤ "),
    (_bound(r"(?:more|greater)\s+than"), "> "),
    (_bound(r"(?:less|fewer)\s+than"), "< "),
)
# "twelve (12)": a number in words restated in digits.
_WORDS_THEN_DIGITS = re.compile(r"\b([a-z]+(?:[\s-][a-z]+){0,3})\s*\(\s*(\d+)\s*\)", re.I)


def spoken_math(text: str) -> str:
    """``text`` with mathematics read aloud written in symbols and a duration
    in two units ("2 hours and 30 minutes") in the smaller one."""
    if _SPOKEN_WORD.search(text):  # one scan decides whether any rewrite can apply
        for pattern, symbol in _SPOKEN:
            text = pattern.sub(symbol, text)
    if _DIGIT.search(text):
        text = _TWO_UNIT_TIME.sub(_in_smaller_unit, text)
        if "(" in text:
            text = _WORDS_THEN_DIGITS.sub(_digits_restated, text)
    return text


_SPOKEN_WORD = re.compile(
    r"\b(?:root|pi|squared|cubed|negative|minus|plus|over|times|per\s*cent|percent|than|least|most)\b",
    re.I,
)


_TWO_UNIT_TIME = re.compile(
    r"\b(\d+)\s*(hours?|hrs?|h|minutes?|mins?)\s*(?:and\s+|,\s*)?(\d+)\s*(minutes?|mins?|seconds?|secs?|s)\b",
    re.I,
)


def _in_smaller_unit(m: re.Match[str]) -> str:
    big, big_unit, small, small_unit = m.groups()
    big_unit, small_unit = big_unit.lower()[0], small_unit.lower()[0]
    if (big_unit, small_unit) not in (("h", "m"), ("m", "s")):
        return m.group(0)
    name = "minutes" if small_unit == "m" else "seconds"
    return f"{int(big) * 60 + int(small)} {name}"


def _digits_restated(m: re.Match[str]) -> str:
    words, digits = m.group(1), m.group(2)
    said = number_words_to_digits(words)
    if said.split()[-1:] == [digits]:
        return said
    return m.group(0)
