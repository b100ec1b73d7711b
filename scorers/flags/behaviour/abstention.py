"""``abstained``: the answer declines or gives no result of the kind asked, and nothing after;
``reasoning_abstains_answer_does_not``: the reasoning ends declining, unsettled; the answer commits."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from scorers.evaluate.strict.question import options
from scorers.flags.behaviour.contradiction import answer_outcome, grade
from scorers.flags.behaviour.cues import CueView, pattern, regex
from scorers.flags.behaviour.hedging import cues as hedge_cues
from scorers.flags.behaviour.text import Sentence, evidence, flag, in_scope_of_doubt, last_line_span
from scorers.records import Evidence, Flag, decode_kwargs

DECLINE = pattern("decline", gate=True)
_NO_OPTION = pattern("declining", "no_option", gate=True)  # "The answer is not among the options"
_NON = regex("declining", "non_answer").pattern
_NON_ANSWER = re.compile(rf"^\W*(?:final\s+answer\W*)?(?:{_NON})\s*(?:$|[.,;:—–(-])", re.I)
# "Final Answer: X", "the answer (result) is X", "<answer>X", "\boxed{X}" commit (X not a non-answer).
_COMMITS = re.compile(
    r"(?:final\s+answer|(?:answer|result)\W{0,3}(?::|is\b)|<answer>|\\boxed\{)\W*(.{0,40})", re.I
)
_LABEL = re.compile(r"\W{0,3}[A-J](?:[).:]|\W*$)(?!.{60})")  # "B) The author is wrong", "**C**"
_HEAD = re.compile(r"\s\(|\s(?:due\s+to|because)\b", re.I)  # "WRONG (due to ...)": the value
# A doubt: between two ("which of the two", "torn between B and D"), precision ("any better").
_TWO, _TORN = regex("declining", "two"), regex("declining", "torn")
_DEGREE = re.compile(r"^\W*(?:\w+\W+){0,3}?(?:" + regex("declining", "degree").pattern + ")", re.I)
# "..., which is exactly option E" is the answer's content; "the answer is that <a clause>" is not.
_CONTENT = re.compile(r"\b(?:option|choice)\s+\(?[A-J]\b|\banswer\s+is\b(?!\s+that\b)", re.I)
_DETAIL = re.compile(r"\b(?:read|see|make\s+out|be\s+read)\b", re.I)  # "can't read the unit"
_SETTLED, _GUESSING = pattern("settled"), pattern("declining", "guessing")  # guess: "if forced"
_PREMISE, _CAVEAT = (pattern("declining", k, gate=True) for k in ("premise", "caveat"))
_NOT = re.compile(r"not\b", re.I)  # "the answer is not possible without ...": no result
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")
# "I can't tell the exact street, but it is Paris": the clause after the decline answers.
_ANSWERS_AFTER = re.compile(r"(?:[^.!?\n]|\.\d)*?\b(?:but|however|though|although|still)\b", re.I)
_WORD, _CJK = re.compile(r"[^\W\d_]{4,}|\d+"), re.compile(r"[\u3040-\u30ff\u3400-\u9fff]{2,}")
_NAMED = re.compile(r"\d|(?<=[\w,;:]\s)(?!I\W)[A-Z]")  # a number, or a capital inside a sentence
# A refusal: the writer says what it does not do ("beyond my scope"; a riddle's answer echoes none)
_SELF, _STOPS = re.compile(r"\b(?:i|me|my)\b|我", re.I), re.compile(r"[.!?。！？\n]")
_NO = re.compile(rf"{regex('hedge_negators').pattern}|cannot|unable|[不无没未]", re.I)
_CONCEDED = re.compile(r"\b(?:although|though|while|at\s+first|initially)\b[^,;:.]*\Z", re.I)


def declines(text: str, cue: CueView = DECLINE) -> re.Match[str] | None:
    """The last decline cue of ``text`` not negated, supposed, planned, quoted or conceded."""
    found = [m for m in cue.finditer(text) if not in_scope_of_doubt(text, m.start(), 24)]
    found = [m for m in found if not _CONCEDED.search(text, max(0, m.start() - 40), m.start())]
    return found[-1] if found else None


def answer_declines(record: Mapping[str, Any], answer: str) -> Evidence | None:
    """Where the answer declines to answer, if it does and the reference does not."""
    start, end = last_line_span(answer)  # (0, 0) for a blank answer
    if _NON_ANSWER.match(answer[start:end]) or not answer.strip():
        found: Evidence | None = evidence("answer", answer, start, end)
    elif (m := declines(answer) or _NO_OPTION.search(answer)) is None:
        found = _no_result(record, answer)
    else:  # not "I can't tell exactly, but it is Paris", nor "Final Answer: Paris" in another
        rest = answer[m.end() :]  # ("Final Answer: Paris\n\n(I couldn't tell the street.)")
        said = [_HEAD.split(c[1])[0] for c in _COMMITS.finditer(answer) if _apart(answer, c, m)]
        said = [c for c in said if not (_NON_ANSWER.match(c) or DECLINE.search(c) or _NOT.match(c))]
        heads = "\n" in (head := answer[: m.start()].strip()) and _chooses(record, head, True)
        # an option chosen after the decline's sentence: a side issue ("Can't tell if it leaked. B")
        after = (e := _SENTENCE_END.search(rest)) is not None and _chooses(record, rest[e.end() :])
        answers = any(c.strip() for c in said) or heads or after or bool(_ANSWERS_AFTER.match(rest))
        found = None if answers else evidence("answer", answer, m.start(), m.end())
    return None if found is None or _reference_declines(record) else found  # (rarely read)


def _apart(answer: str, commit: re.Match[str], decline: re.Match[str]) -> bool:
    """The commit comes after the decline, or its sentence ("**Answer:** The problem does not give
    enough") ends before it, or the decline is its aside ("Answer: WRONG (due to ...)")."""
    at, stop = commit.start(1), len(answer)
    for end in (_SENTENCE_END.search(answer, at), _HEAD.search(answer, at, commit.end())):
        stop = min(stop, end.end()) if end else stop
    return commit.start() >= decline.end() or stop <= decline.start()


def _chooses(record: Mapping[str, Any], text: str, heading: bool = False) -> bool:
    """Whether ``text`` chooses one option; ``heading``: its first line, short and opening with the
    label ("B) The author is wrong\n\nThe scenario ... impossible to determine ...")."""
    kwargs, line = decode_kwargs(record.get("evaluator_kwargs")), text.lstrip().partition("\n")[0]
    text = (line if _LABEL.match(line) else "") if heading else text
    if record.get("evaluator") != "choices_matching" or not isinstance(kwargs, dict) or not text:
        return False
    read = grade("choices_matching", kwargs, text, record.get("question"))
    return read is not None and bool(read.extracted.strip()) and not read.note


def _no_result(record: Mapping[str, Any], answer: str) -> Evidence | None:
    """The answer's last line if the evaluator reads no option or number in it and no line answers;
    with no evaluator, if it takes up none of the question's material, names nothing and refuses."""
    evaluator, question = record.get("evaluator"), str(record.get("question") or "")
    if evaluator is None:  # (read only then: it reads both texts whole, a cost on every record)
        off = question and not _material(question) & _material(answer) and not _NAMED.search(answer)
        off = off and any(_SELF.search(s) and _NO.search(s) for s in _STOPS.split(answer))
        return evidence("answer", answer, *last_line_span(answer)) if off else None
    if evaluator not in ("choices_matching", "number_matching") or _chooses(record, answer, True):
        return None  # (the other evaluators read any words as the answer)
    kwargs = decode_kwargs(record.get("evaluator_kwargs"))
    read = answer_outcome(record, evaluator, kwargs, answer) if isinstance(kwargs, dict) else None
    if read is None or read.extracted.strip() or _COMMITS.search(answer):
        return None
    return evidence("answer", answer, *last_line_span(answer))


def _material(text: str) -> set[str]:
    """A text's words (their first five letters), numbers and pairs of CJK characters."""
    pairs = {r[i : i + 2] for r in _CJK.findall(text.lower()) for i in range(len(r) - 1)}
    return pairs | {w[:5] for w in _WORD.findall(_CJK.sub(" ", text.lower()))}


def reasoning_declines(
    record: Mapping[str, Any],
    texts: tuple[str, str],
    closing: list[Sentence],
    stretch: list[Sentence],
    concluded_at: int | None = None,
) -> tuple[Evidence, bool] | None:
    """Where ``stretch`` declines, unsettled (no settling word, unhedged end at ``concluded_at``
    or guess after), and if only a doubt; a premise found missing in ``closing`` (docs/flags.md)."""
    reasoning, answer = texts
    first = stretch[0].start if stretch else len(reasoning)
    lacks = bool(closing) and _PREMISE.search(reasoning, closing[0].start) is not None
    read = closing if lacks else stretch  # (a premise cue is rare: the whole text first)
    doubt = None  # a doubt ("can't see the time of day") does not hide a give-up before it
    for i in range(len(read) - 1, -1, -1):
        sentence = read[i]
        premise = declines(sentence.text, _PREMISE) if lacks else None
        m = premise or (declines(sentence.text) if sentence.start >= first else None)
        if m is None or _CONTENT.search(sentence.text):
            continue
        rest, later = sentence.text[m.end() :], read[i + 1 :]
        guessed = any(_GUESSING.search(s.text) for s in later)
        if sentence.start < first and not guessed:
            continue  # a premise found missing before the end counts if guessed past
        ends = [s for s in later if _SETTLED.search(s.text) or s.start == concluded_at]
        settled = not guessed and any(not hedge_cues(s.text) for s in ends)  # unhedged
        answered = _ANSWERS_AFTER.match(rest) and not hedge_cues(rest)
        if settled or answered or (premise and _CAVEAT.search(answer)):
            break
        span = evidence("reasoning", reasoning, *(sentence.start + i for i in m.span()))
        near = " ".join(s.text for s in read[max(0, i - 1) : i + 2])
        two = _TWO.search(sentence.text) or _TORN.search(near) or _DETAIL.search(m.group(0))
        if premise or not (_DEGREE.match(rest) or two):
            doubt = span, False
            break
        doubt = doubt or (span, True)
    return None if doubt is None or _reference_declines(record) else doubt


def unoffered(record: Mapping[str, Any], reasoning: str, answer: str) -> bool:
    """Whether the evaluator reads a result in the answer that the reasoning nowhere offers."""
    evaluator, kwargs = str(record.get("evaluator")), decode_kwargs(record.get("evaluator_kwargs"))
    read = answer_outcome(record, evaluator, kwargs, answer) if isinstance(kwargs, dict) else None
    said = re.sub(r"\W", "", read.extracted).lower() if read else ""
    return bool(said) and said not in re.sub(r"\W", "", reasoning).lower()


def _reference_declines(record: Mapping[str, Any]) -> bool:
    """Whether the reference declines, or the option it labels ("D. Cannot be determined")."""
    reference = text = record.get("reference")
    if isinstance(reference, str) and len(label := reference.strip(" ()[].:")) == 1:
        text = options(str(record.get("question") or "")).get(label, reference)
    return isinstance(text, str) and bool(DECLINE.search(text) or _NON_ANSWER.match(text))


def gave_up(reasoning: str, answer: str, span: Evidence) -> Flag:
    spans = [span, evidence("answer", answer, *last_line_span(answer))]
    why = "the reasoning says it cannot tell; the answer commits anyway"
    return flag("reasoning_abstains_answer_does_not", spans, why)
