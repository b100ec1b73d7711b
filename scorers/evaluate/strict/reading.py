"""What an evaluator reads: the located answer, its correction, the question's options,
and the number conventions that need the answer's language or the question.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, cast

from scorers.evaluate.strict import asked, locale_numbers, option_letters
from scorers.evaluate.strict.commit import before_remark
from scorers.evaluate.strict.final import Located
from scorers.evaluate.strict.numbers import NUMBER_WORDS, Number, find_numbers
from scorers.evaluate.strict.question import ends
from scorers.evaluate.strict.question import options as question_options

# "How many", "number of", "count": the question asks for a whole number.
_COUNT_QUESTION = re.compile(r"\bhow many\b|\bnumber of\b|\bcount\b|\bwie viele\b", re.IGNORECASE)
# "to three decimal places", "to 2 decimals": the question asks for decimals.
_DECIMAL_QUESTION = re.compile(
    r"\bdecimal (?:places?|digits?)\b|\bto \w+ decimals\b", re.IGNORECASE
)
# Arithmetic of whole numbers, then "=", right before a number.
_WORKED = re.compile(r"(?<![\d.,])((?:\d+[ \t]*[-+×x*/÷−][ \t]*)+\d+)[ \t]*=[ \t]*\Z")
_WORKED_REACH = 60


def _arithmetic(expression: str) -> float | None:
    """The value of whole numbers joined by + - × ÷ (left to right, × and ÷ first)."""
    tokens = re.findall(r"\d+|[-+×x*/÷−]", expression)
    terms: list[float] = []
    sign, product, op = 1.0, float(tokens[0]), ""
    for tok in tokens[1:]:
        if not tok.isdigit():
            op = tok
            continue
        value = float(tok)
        if op in "×x*":
            product *= value
        elif op in "/÷":
            if value == 0:
                return None
            product /= value
        else:
            terms.append(sign * product)
            sign, product = (-1.0 if op in "-−" else 1.0), value
    terms.append(sign * product)
    return sum(terms)


# A decimal that no thousands group can be: one, two or four and more digits
# after a single mark ("42.2", "0,75", "3.14159"), no other group on either side.
_PLAIN_DECIMAL = re.compile(r"(?<![\d.,])\d+([.,])(?:\d{1,2}|\d{4,})(?![.,]?\d)")
# The word or two after a number, or the letters glued to it in a script that
# writes no spaces ("3万人"): where a scale word stands ("2 mil millones").
_NEXT_WORD = re.compile(
    r"[ \t\u00a0]+([^\W\d_]+\.?)(?:[ \t\u00a0]+([^\W\d_]+\.?))?|([^\W\d_]{1,2})"
)
# "12 or 13", "6 (possibly 7)", "6, maybe 7": another value offered beside it.
# ("13 to 15", "13–15": a range offered as the answer, unless it tells a change, "from 13 to 15")
_OR_NUMBER_AFTER = re.compile(
    r"[ \t]*[,(]?[ \t]*(?:(?:or|/)[ \t]+(?:(?:maybe|possibly|perhaps|even)[ \t]+)?"
    r"|(?:or[ \t]+)?(?:maybe|possibly|perhaps)[ \t]+|[ \t]+to[ \t]+|[ \t]*–[ \t]*)(?=[-.\d])"
)
_OR_NUMBER_BEFORE = re.compile(
    r"\d[ \t]*%?[ \t]*(?:,?[ \t]+or[ \t]+(?:(?:maybe|possibly|perhaps)[ \t]+)?|[ \t]+to[ \t]+|[ \t]*–[ \t]*)\Z"
)
# A bare list of values: numbers (signed, with separators), a variable set to
# them ("k="), a remark in brackets after each, and only separators between.
_VALUE_LIST_MAX = 200
_NUMERALS = re.compile(r"[-−+]?\d[\d.,]*")
_REMARK_IN_BRACKETS = re.compile(r"\([^()\n]{0,60}\)")
_ASSIGNED = re.compile(r"(?:\\?[^\W\d_]+[ \t]*=)")
_ONLY_SEPARATORS = re.compile(r"(?:[\s,;.$]|</?[a-z]{1,10}>?)*")  # (and tags: "<eoa>")
_FROM = re.compile(
    r"\bfrom[ \t]+[-\d.,]+[ \t]*%?[ \t]*(?:to|–)[ \t]*\Z|\bfrom[ \t]+\Z", re.IGNORECASE
)


class Reading:
    """What an evaluator reads. The question's options are parsed on first use:
    only options and orders need them, and each question is new.

    ``used`` names what the evaluator read beyond the located answer: the
    ``question`` text, or only facts of it (its ``options``, the ``ends`` it
    orders between), or the ``final`` answer whole. An outcome that read none
    is the outcome of the located answer alone, one that read only facts is the
    same for every question with those facts (``question_facts``): strict
    mode's memo (:mod:`scorers.evaluate.memo`) relies on this, so anything an
    evaluator learns from the question or the final answer must come through
    one of these properties or methods (a new fact: a function of the question
    in :mod:`scorers.evaluate.strict.asked`, an entry in ``_FACTS`` and a
    property or method here). A fact read is noted in ``used`` as a tuple, its
    name and its arguments; the texts as ``"question"`` and ``"final"``."""

    __slots__ = ("_final", "_options", "_question", "fixed", "loc", "used")

    def __init__(self, loc: Located, fixed: Located | None, question: str, final: str = "") -> None:
        self.loc = loc
        self.fixed = fixed  # a correction after the final answer, read as a conclusion
        self._question = question
        self._final = final  # the whole final answer, for its language
        self._options: dict[str, str] | None = None
        self.used: set[str | tuple[Any, ...]] = set()

    @property
    def question(self) -> str:
        self.used.add("question")
        return self._question

    @property
    def raw_question(self) -> str:
        """The question text, not noted as read: for a second reading of the same
        answer, whose ``used`` the caller merges."""
        return self._question

    @property
    def raw_final(self) -> str:
        return self._final

    @property
    def final(self) -> str:
        self.used.add("final")
        return self._final

    @property
    def options(self) -> dict[str, str]:
        """Label -> folded option text, from the question."""
        self.used.add(("options",))
        if self._options is None:
            self._options = dict(options_key(self._question))
        return self._options

    @property
    def asked_ends(self) -> tuple[str, str] | None:
        """The superlatives the question orders between (``question.ends``)."""
        self.used.add(("ends",))
        return _ends_of(self._question)

    def _fact(self, *fact: Any) -> Any:
        self.used.add(fact)
        return _FACTS[fact[0]](self._question, *fact[1:])

    @property
    def asks_one(self) -> bool:
        """The question asks for one thing (``asked.asks_one``)."""
        return bool(self._fact("asks_one"))

    def alternatives(self, keys: tuple[str, ...]) -> tuple[str, ...]:
        """The names the question joins to a key with "or"/"and" (``asked.alternatives``)."""
        return tuple(self._fact("alternatives", keys))

    @property
    def unit_at_end(self) -> str | None:
        """The unit the question's first line ends by asking in (``asked.unit_at_end``)."""
        return cast("str | None", self._fact("unit_at_end"))

    @property
    def counted(self) -> tuple[str, str] | None:
        """What the question asks a number of (``asked.counted``)."""
        return cast("tuple[str, str] | None", self._fact("counted"))

    @property
    def unit_asked(self) -> str | None:
        """The unit the question asks in (``asked.unit_asked``)."""
        return cast("str | None", self._fact("unit_asked"))

    @property
    def scale_asked(self) -> float:
        """The scale the question counts in, else 1 (``asked.scale_asked``)."""
        return float(self._fact("scale_asked"))

    @property
    def asks_bound(self) -> bool:
        """The question asks for a bound (``asked.asks_bound``)."""
        return bool(self._fact("asks_bound"))

    @property
    def asks_approximate(self) -> bool:
        """The question asks for an approximate value (``asked.asks_approximate``)."""
        return bool(self._fact("asks_approximate"))

    @property
    def decimals_asked(self) -> int | None:
        """The decimal places the question asks for (``asked.decimals_asked``)."""
        return cast("int | None", self._fact("decimals_asked"))

    @property
    def topic(self) -> tuple[frozenset[str], frozenset[str], frozenset[float]]:
        """The question's content words, its names and numbers (``asked.topic``)."""
        return cast("tuple[frozenset[str], frozenset[str], frozenset[float]]", self._fact("topic"))

    @property
    def option_script(self) -> str | None:
        """The sequence of another script's letters heading the question's options
        (``option_letters.question_script``)."""
        return cast("str | None", self._fact("option_script"))

    def echo_free(self, text: str) -> str:
        """``text`` less a tail copied from the question (``asked.echo_free``)."""
        return str(self._fact("echo_free", text))


def remark_passed(reading: Reading) -> Reading | None:
    """The reading of an answer without a marker less its closing remark
    (``before_remark``), for an evaluator that found nothing of its kind in it."""
    loc, fixed = reading.loc, reading.fixed
    if fixed is not None:
        # a correction read as a conclusion ("Oops ... The order is D, C, B, A. ...")
        body = before_remark(fixed.segment)
        fixed = None if body is None else fixed._replace(segment=body)
        if fixed is None:
            return None
    elif loc.how == "whole" and (body := before_remark(loc.segment)) is not None:
        loc = Located("whole", body, body)
    else:
        return None
    return Reading(loc, fixed, reading.raw_question, reading.raw_final)


def options_key(question: str) -> tuple[tuple[str, str], ...]:
    """The question's options as ``Reading.options`` reads them, hashable."""
    return _options_of(question) if question else ()


@lru_cache(maxsize=1024)  # a run asks each question of many models
def _options_of(question: str) -> tuple[tuple[str, str], ...]:
    return tuple(question_options(question).items())


def _sentence_of(number: Number, text: str) -> str:
    """The sentence or line of ``text`` that holds ``number`` (its own dots kept)."""
    start = max(text.rfind(". ", 0, number.start), text.rfind("\n", 0, number.start)) + 1
    ends = [i for i in (text.find(". ", number.end), text.find("\n", number.end)) if i >= 0]
    return text[start : min(ends, default=len(text))]


def _scale(after: re.Match[str], sentence: str) -> float | None:
    """The factor of the scale word after a number: two words before one ("mil
    millones" before "mil"), two glued letters before one ("万亿" before "万")."""
    if after.group(3) is not None:
        glued = after.group(3)
        if not locale_numbers.unspaced(glued[0]):
            return None
        tries = [glued, glued[0]] if len(glued) == 2 else [glued]
    else:
        tries = [after.group(1)]
        if after.group(2) is not None:
            tries.insert(0, f"{after.group(1).rstrip('.')} {after.group(2)}")
    for word in tries:
        factor = locale_numbers.multiplier(word, sentence)
        if factor is not None:
            return factor
    return None


def resolve_number(
    number: Number, text: str, question: str, context: tuple[str, ...] = ()
) -> tuple[Number, str | None]:
    """The number as the answer's conventions read it, and why it stays ambiguous.

    A multiplier word of the answer's language follows it (``1,5 Tausend``); a
    lone group (``1,234``, ``1.500``) is read by the decimal mark of the
    language of the stated answer, else of the whole answer (``context``), else
    of the question,
    else as a whole number when the question counts, else in the English
    convention with the doubt reported.
    """
    after = _NEXT_WORD.match(text, number.end)
    if after is not None and not number.percent:
        factor = _scale(after, _sentence_of(number, text))
        if factor is not None:
            number = number._replace(value=number.value * factor, other=None)
        elif number.other is None and (
            unsure := locale_numbers.unsettled(after.group(1) or "", _sentence_of(number, text))
        ):
            # "3 mil" alone: a scale word of several languages, or an English unit.
            word = text[number.start : after.end(1)].strip()
            scaled = number.value * unsure
            return number._replace(other=scaled), (
                f"'{word}' reads {number.value:g} or {scaled:g}: its language is not told"
            )
    if number.other is None:
        return number, None
    # The stated answer's own words first; a bare "2,500" takes the language of
    # the rest of the answer, then of the question ("Wie viele ...").
    # The number's own sentence first: a remark in another language before it
    # ("Let me think.\n\nInsgesamt zählt man 1.234 Besucher.") does not decide.
    # The sum the answer shows for it ("617 + 617 = 1.234"): the reading it equals.
    shown = _WORKED.search(text, max(0, number.start - _WORKED_REACH), number.start)
    total = _arithmetic(shown.group(1)) if shown is not None else None
    if total is not None and total in (number.value, number.other):
        return number._replace(value=total, other=None), None
    # Another number of the answer written with an unambiguous decimal mark
    # ("42.195 km, i.e. 42.2 km") says which convention the writer uses.
    marks = {
        "point" if m.group(1) == "." else "comma"
        for m in _PLAIN_DECIMAL.finditer(text)
        if not (m.start() < number.end and number.start < m.end())
    }
    mark = marks.pop() if len(marks) == 1 else None
    sentence = _sentence_of(number, text)
    if mark is None and sentence != text:
        mark = locale_numbers.convention(sentence)
    if mark is None:
        mark = locale_numbers.convention(text)
    for source in context:
        if mark is not None:
            break
        # Only a text with a letter beyond ASCII (ä, é, ñ) can be in another
        # language's convention: English ones skip the identifier.
        if source and not source.isascii():
            mark = locale_numbers.convention(source)
    if mark == "comma":
        return number._replace(value=number.other, other=None), None
    if mark == "point":
        return number._replace(other=None), None
    written = text[number.start : number.end].strip()
    # Below, nothing settles the reading: the English one is read, and the
    # other is kept (``other``) for the caller, who reads it, unsure, when only
    # it matches ("617 + 617 = 1.234").
    if _DECIMAL_QUESTION.search(question or ""):
        # "to three decimal places": the group is the decimals ("1,732" is 1.732).
        if "," in written:
            return number._replace(value=number.other, other=None), None
        return number._replace(other=None), None
    if "," in written:
        return number, None  # English thousands, the default
    if _COUNT_QUESTION.search(question or ""):
        # A count is whole: "2.500" and "10.000" group thousands.
        return number._replace(value=number.other, other=None), None
    if not written.rstrip("%").endswith("0"):
        # "3.001", "1.234": English decimals as written; a group that ends in
        # zeros ("1.500", "2.000") is how thousands are grouped elsewhere, and a
        # decimal rarely keeps trailing zeros.
        return number, None
    return (
        number,
        f"'{written}' reads {number.value:g} or {number.other:g}: no language or question settles it",
    )


_WORD_OR_WORD = re.compile(
    rf"(?<!from )\b({'|'.join(NUMBER_WORDS)})[ \t]*,?[ \t]+(?:or|to)[ \t]+"
    rf"(?:(?:maybe|possibly|perhaps|minus|negative)[ \t]+)?({'|'.join(NUMBER_WORDS)})\b",
    re.IGNORECASE,
)


_ANY_DIGIT = re.compile(r"\d")


def number_doubt(number: Number, text: str) -> bool:
    """The number is offered beside another ("12 or 13", "two or three"), or
    the answer is a list of values and nothing more ("k=2, -2", "1979 (the
    acquittal), 1984 (the conviction)"): no commitment."""
    if "," in text and len(text) <= _VALUE_LIST_MAX:
        # a number inside a bracketed remark ("42 (80% sure)") is not one of the values
        bare = _REMARK_IN_BRACKETS.sub(" ", text)
        values = {n.value for n in find_numbers(bare)}
        rest = _NUMERALS.sub(" ", bare)
        assigned = {m.group().rstrip(" \t=") for m in _ASSIGNED.finditer(rest)}
        if (
            len(values) > 1
            and len(assigned) <= 1  # ("x = 3, y = 4" solves for two unknowns)
            and _ONLY_SEPARATORS.fullmatch(_ASSIGNED.sub(" ", rest))
        ):
            return True
    if (" or " in text or " to " in text) and _ANY_DIGIT.search(text) is None:
        for m in _WORD_OR_WORD.finditer(text):
            if m.group(1).lower() != m.group(2).lower():
                return True
    if _OR_NUMBER_AFTER.match(text, number.end) and not _FROM.search(
        text, max(0, number.start - 8), number.start
    ):
        following = list(find_numbers(text[number.end : number.end + 40]))
        if following and following[0].value != number.value:
            return True
    before = _OR_NUMBER_BEFORE.search(text, max(0, number.start - 40), number.start)
    if before is not None and not _FROM.search(text, max(0, number.start - 40), number.start):
        previous = find_numbers(text[max(0, number.start - 40) : before.start() + 1])
        if previous and previous[-1].value != number.value:
            return True
    return _or_in_other_language(number, text)


def _or_in_other_language(number: Number, text: str) -> bool:
    """ "12 oder 13", "q=1或q=2", "3 또는 4": another value offered with the word
    for "or" of another language (CLDR's list patterns). A word written in ASCII
    ("oder", "eller") counts only in a text the identifier finds is not English."""
    for spelled_in_ascii in (False, True):
        after, before = _other_or(spelled_in_ascii)
        start = max(0, number.start - 40)
        found = None
        if after.match(text, number.end):
            following = list(find_numbers(text[number.end : number.end + 40]))
            found = bool(following) and following[0].value != number.value
        if not found and (hit := before.search(text, start, number.start)) is not None:
            previous = find_numbers(text[start : hit.start() + 1])
            found = bool(previous) and previous[-1].value != number.value
        if found and (not spelled_in_ascii or locale_numbers.text_not_english(text)):
            return True
    return False


@lru_cache(maxsize=2)
def _other_or(spelled_in_ascii: bool) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(after a number, before one): another language's "or" between two values;
    a variable may be set to the second ("q=1或q=2")."""
    words = [w for w in locale_numbers.or_words() if w.isascii() == spelled_in_ascii]
    alternatives = "|".join(re.escape(w) for w in words) or "(?!)"
    assign = r"(?:[^\W\d_]{1,3}[ \t]*=[ \t]*)?"
    unit = r"(?:[ \t]*[^\W\d_]{1,4}\.?)?"  # a unit or counter after the first ("9개 또는 10개")
    return (
        re.compile(
            rf"{unit}[ \t]*,?[ \t]*(?:{alternatives})[ \t]*{assign}(?=[-−.\d])", re.IGNORECASE
        ),
        re.compile(
            rf"\d[ \t]*%?{unit}[ \t]*,?[ \t]*(?:{alternatives})[ \t]*{assign}\Z", re.IGNORECASE
        ),
    )


@lru_cache(maxsize=1024)
def _ends_of(question: str) -> tuple[str, str] | None:
    return ends(question)


_FACTS: dict[str, Callable[..., object]] = {
    "options": options_key,
    "ends": _ends_of,
    "asks_one": asked.asks_one,
    "alternatives": asked.alternatives,
    "unit_at_end": asked.unit_at_end,
    "counted": asked.counted,
    "unit_asked": asked.unit_asked,
    "scale_asked": asked.scale_asked,
    "asks_bound": asked.asks_bound,
    "asks_approximate": asked.asks_approximate,
    "decimals_asked": asked.decimals_asked,
    "echo_free": asked.echo_free,
    "topic": asked.topic,
    "option_script": option_letters.question_script,
}
# What a Reading notes when an evaluator reads a text rather than a fact of it.
TEXTS = frozenset({"question", "final"})


def question_facts(question: str, facts: tuple[tuple[Any, ...], ...]) -> tuple[object, ...]:
    """The values of ``facts`` (as ``Reading.used`` notes them) for ``question``."""
    return tuple(_FACTS[fact[0]](question, *fact[1:]) for fact in facts)
