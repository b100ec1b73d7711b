"""Where the final answer is in a response, read as a careful human reads it.

A reader skips the reasoning (``scorers.records.final_answer`` keeps what
follows the first ``</think>``), then looks for
the last place the model says what its answer is: an answer marker in any case
and any Markdown dress (``**Final Answer:** C``, ``FINAL ANSWER: B``,
``answer:``, ``The answer is D``, ``### Final Answer`` on its own line,
``答案：``, another language's ``정답:`` or ``Respuesta:``), or a ``\\boxed{}``
(the last one, nested braces and all). The answer is the rest of that line;
a marker that ends its line, or introduces a list with a colon, takes the
paragraph below it. Without either, the whole
final text is the answer and each evaluator looks at its end.

Every scan here is linear: ``str.find``/``rfind`` and regexes without nested
quantifiers, so a 100,000-character adversarial answer costs one pass.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from ahocorasick_rs import AhoCorasick

from scorers.evaluate.answer_line import answer_line
from scorers.evaluate.strict.answer_markers import last_marker, quoted

How = Literal["marker", "boxed", "whole"]


class Located(NamedTuple):
    how: How
    segment: str  # the answer as stated: one line or one paragraph, boxes unwrapped
    tail: str  # from the start of the answer to the end of the response


# After "answer": Markdown dress, an optional "(s)"/"(final)" aside, then what
# says "here it comes". Adjacent classes share no characters, so no backtracking.
_AFTER_ANSWER = re.compile(
    r"[ \t*_`#]*(?:\([^()\n]{0,20}\)[ \t*_`]*)?"
    r"(?:(?P<colon>[:：=])|(?P<verb>(?:is|was|would be|should be|will be|must be)\b[ \t*_`]*:?)"
    r"|(?P<dash>[-—–](?=[ \t]))|(?P<eol>\n|$))"
)
_AFTER_FINAL = re.compile(r"[ \t*_`#]*")
_AFTER_CHINESE = re.compile(r"[ \t*_`】\]]*(?:[:：]|是|为|选)?[ \t*_`]*(?P<eol>\n|$)?")
_HEADING_PREFIX = re.compile(
    r"[\s#*_>\-]*(?:(?:the|my|final|correct|short|overall)[ \t]+)*[\s*_]*\Z", re.IGNORECASE
)
_VERB_PREFIX = re.compile(r"\b(?:the|my|final|correct|right|best|short|true|our)[ \t*_]*\Z")
_FINAL_BEFORE = re.compile(r"final[ \t*_]*\Z")
_TALKS_ABOUT = re.compile(
    r"[ \t]+(?:does|do|did|doesn't|didn't|remains|stays|stands|holds|has|had|was|will|would"
    r"|should|must|can|could|may|might|above|below|given|i|we|changes|changed)\b"
)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_BOX_COMMANDS = ("\\boxed", "\\fbox")
_MAX_BOX = 2000  # a box longer than this is not an answer; bounds the brace scan
_MAX_BOXES = 20  # boxes unwrapped or tried per answer
_MAX_SEGMENT = 5000  # a stated answer longer than this is cut here
_PREFIX_WINDOW = 40
# Another's belief reported before the marker: "a user who is usually correct believes
# the answer is A", "they think the answer is C" (not "I think the answer is 18").
_REPORTED = re.compile(
    r"(?:\b(?:believes|thinks|claims|insists|argues|believed|claimed|insisted)"
    r"|\b(?:you|they|user|users|hint|someone|others|agents?)[ \t]+(?:\w+[ \t]+)?"
    r"(?:believe|think|claim|insist|argue|suggest|suggested|suggests))"
    r"[ \t]+(?:that[ \t]+)?(?:the[ \t]+)?(?:correct[ \t]+|right[ \t]+)?\Z"
)
_BRACE = re.compile(r"[{}]")
_LAST_LINE_MARKER = re.compile(r"[ \t*_#>]*final answer[ \t*_]*[:：][ \t*_]*", re.IGNORECASE)
_DRESS = re.compile(r"\*\*|__|`+|\$+(?!\d)|\\\(|\\\)|\\\[|\\\]")
_DRESS_CHAR = re.compile(r"[*_`$\\]")  # the first character of every _DRESS match
_EDGE = " \t\n\r*_#>"


def lower_same_length(text: str) -> str:
    if text.isascii():
        return text.lower()
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    # A few letters (U+0130) lengthen when lowered; keep offsets aligned.
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _marker(text: str) -> tuple[int, int, bool] | None:
    """(marker start, answer start, heading?) for the last real answer marker.

    A heading marker ends its line (``### Final Answer``): its answer is the
    paragraph below, not one line. Another language's marker (``정답:``,
    ``Respuesta:``; :mod:`answer_markers`) wins when it stands later, and GSM8K's
    ``#### N`` line (:mod:`scorers.evaluate.answer_line`) after either.
    """
    lowered = lower_same_length(text)
    known = _known_marker(text, lowered)
    # (one can stand only after the known marker's own words: "Answer:" holds a colon)
    other = last_marker(text, lowered, known[1] - 1 if known is not None else -1)
    found = (other.start, other.end, False) if other is not None else known
    line = answer_line(text, found[1] if found is not None else 0)
    return (line[0], line[1], False) if line is not None else found


def _known_marker(text: str, lowered: str) -> tuple[int, int, bool] | None:
    """``_marker`` for the English and Chinese markers."""
    cjk = not text.isascii()
    end = len(lowered)
    while True:
        # rfind from the end: C-speed scans, and the last marker usually wins at once.
        start = lowered.rfind("answer", 0, end)
        if cjk:
            start = max(start, lowered.rfind("答案", 0, end), lowered.rfind("故选", 0, end))
        if start == -1:
            return None
        end = start
        if lowered.startswith("answer", start):
            stop = start + 6
            if (start and _is_word(lowered[start - 1])) or (
                stop < len(lowered) and _is_word(lowered[stop])
            ):
                continue  # "answers", "answering", "reanswer"
            # Only the few characters before the marker matter; looking no
            # further keeps a long line full of "answer"s linear.
            window = max(0, start - _PREFIX_WINDOW)
            line_start = lowered.rfind("\n", window, start) + 1
            prefix = lowered[max(line_start, window) : start]
            after = _AFTER_ANSWER.match(lowered, stop)
            if after is not None and after.group("verb") and not _VERB_PREFIX.search(prefix):
                after = None  # "I hope this answer is helpful" states no answer
            if after is not None and _supposed_at(lowered, start):
                continue  # "If we find no record, then the answer is no": supposed
            if after is not None and quoted(text, start):
                continue  # 'The hint says "the answer is B".': quoted, not stated
            if after is not None and _REPORTED.search(prefix):
                continue  # "the user believes the answer is C": another's, not stated
            if after is not None:
                heading = after.group("eol") is not None
                if heading and (
                    (line_start == 0 and window > 0) or not _HEADING_PREFIX.match(prefix)
                ):
                    continue
                return start, after.end(), heading
            if (
                _FINAL_BEFORE.search(prefix)
                and not _TALKS_ABOUT.match(lowered, stop)
                and not quoted(text, start)
            ):
                # "Final Answer C": with "final" in front no colon is needed
                # ("the final answer does not change" talks about it instead).
                found = _AFTER_FINAL.match(lowered, stop)
                return start, found.end() if found else stop, False
            continue
        if quoted(text, start):
            continue  # 要求写成「答案：X」: quoted, not stated
        # "【答案】" alone on its line heads the paragraph below, as "### Final Answer" does
        after_cn = _AFTER_CHINESE.match(lowered, start + 2)
        if after_cn is None:
            return start, start + 2, False
        return start, after_cn.end(), after_cn.group("eol") is not None


# A sentence that opens with a condition states what would follow from it, not the
# answer ("If we find no evidence, then the answer is no."; "If you expect dropout,
# inflate: ... 87 per group").
_CONDITION = re.compile(r"[ \t*_#>(-]*if\b", re.IGNORECASE)
_SENTENCE_REACH = 300  # characters looked back for the sentence's start


def _supposed_at(lowered: str, start: int) -> bool:
    """Whether the sentence holding ``start`` opens with a condition."""
    low = max(0, start - _SENTENCE_REACH)
    find = lowered.rfind
    opening = max(find(".", low, start), find("!", low, start), find("?", low, start))
    opening = max(opening, find("\n", low, start)) + 1
    if opening == 0 and low > 0:
        return False  # (its start is out of reach: a sentence that long is not read so)
    return _CONDITION.match(lowered, opening, start) is not None


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def without_supposed(text: str) -> str:
    """``text`` less the closing paragraphs that open with a condition ("If you
    expect 10% dropout, enrol 87."): suppositions a reader passes over."""
    body = text.rstrip()
    # (the paragraphs within reach of the end, found in one pass: linear in a long text)
    low = max(0, len(body) - _SUPPOSED_REACH)
    for found in reversed(list(_PARAGRAPH_BREAK.finditer(body, low))):
        if not _CONDITION.match(body, found.end()):
            break
        body = body[: found.start()].rstrip()
    return body


_SUPPOSED_REACH = 4000


def before_supposed(loc: Located) -> Located | None:
    """An answer without a marker less its closing suppositions
    (``without_supposed``), when it has some and something is left before them:
    a reader passes over them when that part answers (the caller checks it does)."""
    if loc.how != "whole":
        return None
    body = without_supposed(loc.segment)
    if not body or len(body) == len(loc.segment.rstrip()):
        return None
    return Located("whole", body, body)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _box_end(text: str, open_brace: int) -> int:
    """Index just past the brace closing the one at ``open_brace``, or -1."""
    depth = 0
    for m in _BRACE.finditer(text, open_brace, open_brace + _MAX_BOX):
        if m.group() == "{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.end()
    return -1


def _box_at(text: str, start: int) -> tuple[int, int, int] | None:
    """(command start, content start, end) of a well-formed box at ``start``."""
    for command in _BOX_COMMANDS:
        if text.startswith(command, start):
            brace = start + len(command)
            while brace < len(text) and text[brace] == " ":
                brace += 1
            if brace < len(text) and text[brace] == "{":
                end = _box_end(text, brace)
                if end != -1:
                    return start, brace + 1, end
    return None


def _last_box(text: str) -> tuple[int, int, int] | None:
    pos = len(text)
    for _ in range(_MAX_BOXES):
        pos = max(text.rfind(_BOX_COMMANDS[0], 0, pos), text.rfind(_BOX_COMMANDS[1], 0, pos))
        if pos == -1:
            return None
        box = _box_at(text, pos)
        if box is not None:
            return box
    return None


def _next_box_command(text: str, start: int) -> int:
    a = text.find(_BOX_COMMANDS[0], start)
    b = text.find(_BOX_COMMANDS[1], start)
    if a == -1:
        return b
    return a if b == -1 else min(a, b)


def unwrap_boxes(text: str) -> str:
    """``\\boxed{X}`` replaced by ``X`` wherever it is well formed."""
    if "\\boxed" not in text and "\\fbox" not in text:
        return text
    out: list[str] = []
    i = 0
    for _ in range(_MAX_BOXES):
        j = _next_box_command(text, i)
        if j == -1:
            break
        box = _box_at(text, j)
        if box is None:
            out.append(text[i : j + 1])
            i = j + 1
            continue
        out.append(text[i:j])
        out.append(unwrap_boxes(text[box[1] : box[2] - 1]))
        i = box[2]
    out.append(text[i:])
    return "".join(out)


def clean(segment: str) -> str:
    """The answer without boxes, Markdown emphasis, code ticks and math delimiters."""
    segment = unwrap_boxes(segment[:_MAX_SEGMENT])
    if _DRESS_CHAR.search(segment) is not None:  # (the usual answer wears none)
        segment = _DRESS.sub(" ", segment)
    return segment.strip(_EDGE)


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    return len(text) if end == -1 else end


def _paragraph_from(text: str, start: int) -> str:
    while start < len(text) and text[start] in " \t\r\n":
        start += 1
    blank = _BLANK_LINE.search(text, start)
    return text[start : blank.start() if blank else len(text)]


def _boxed(text: str, box: tuple[int, int, int], line_end: int, tail: str) -> Located:
    # The box's content and the rest of its line ("\boxed{12} m^2" is "12 m^2"),
    # without parsing the box a second time.
    content = text[box[1] : box[2] - 1]
    return Located("boxed", clean(content + text[box[2] : line_end]), tail)


def _last_line_marker(text: str) -> Located | None:
    """The common case, read directly: the response ends with ``Final Answer: X``."""
    end = len(text.rstrip())
    start = text.rfind("\n", 0, end) + 1
    m = _LAST_LINE_MARKER.match(text, start, end)
    if m is None:
        return None
    rest = text[m.end() : end]
    if "answer" in rest.lower() or "答案" in rest:
        return None  # a second marker on the line: the general reader decides
    if "\\" in rest:
        # A box on the last line is the last box of the text, and after the marker.
        box = _last_box(rest)
        if box is None:
            return None
        return _boxed(rest, box, len(rest), text[m.end() + box[0] :])
    segment = clean(rest)
    if not segment or segment.endswith((":", "：")):
        return None
    return Located("marker", segment, text[m.end() :])


def locate(text: str) -> Located:
    """Find the stated final answer in ``text`` (already past ``</think>``)."""
    fast = _last_line_marker(text)
    if fast is not None:
        return _unclosed(fast)
    marker = _marker(text)
    box = _last_box(text)
    if box is not None and (marker is None or box[0] >= marker[0]):
        return _boxed(text, box, _line_end(text, box[2]), text[box[0] :])
    if marker is not None:
        start = marker[1]
        line = "" if marker[2] else clean(text[start : _line_end(text, start)])
        if not line or line.endswith((":", "：")):
            line = clean(_paragraph_from(text, start))
        return _unclosed(Located("marker", line, text[start:]))
    # Without a marker the answer is read at its end, where a closing would hide it.
    text = without_closing(text)
    concluding = _concluding_line(text)
    if concluding is not None:
        # "... So: Lorentz." closes the answer: what follows it is the answer.
        start = concluding.end()
        return Located("marker", clean(text[start : _line_end(text, start)]), text[start:])
    return Located("whole", text.strip(), text)


def _unclosed(loc: Located) -> Located:
    """A marker's answer without a closing on its line ("C D A B Let me know if
    ..."); what follows it is read without one where it is read (a correction,
    a phrase answer's text)."""
    if len(loc.segment) <= _SHORT_SEGMENT:
        return loc  # (the usual answer: too short to hold one)
    segment = without_closing(loc.segment)
    return loc if segment is loc.segment else loc._replace(segment=segment)


# Formulaic closings after an answer ("Hope this helps!", "Let me know if you
# have questions.", "Good luck!"): they state nothing, and read as the answer's
# concluding sentence they would hide it. English's closing formulas, not answers.
_CLOSING = re.compile(
    r"[ \t\n]*(?:(?:I[ \t]+)?hope[ \t]+(?:this|that|it)[ \t]+(?:helps|answers[^.!?\n]*)"
    r"|let[ \t]+me[ \t]+know\b[^.!?\n]*|feel[ \t]+free[ \t]+to\b[^.!?\n]*"
    r"|(?:I'm[ \t]+|I[ \t]+am[ \t]+)?(?:happy|glad)[ \t]+to[ \t]+help\b[^.!?\n]*|good[ \t]+luck\b[^.!?\n]*"
    r"|thanks?(?:[ \t]+you)?(?:[ \t]+for\b[^.!?\n]*)?|cheers|have[ \t]+a[ \t]+(?:great|nice|good)[ \t]+day"
    # the writer's confidence in what it answered: "I'm fairly confident in this answer."
    r"|(?:I'm|I[ \t]+am)[ \t]+(?:(?:fairly|quite|very|pretty|reasonably|highly|not[ \t]+(?:entirely"
    r"|completely|fully|100%))[ \t]+)?(?:confident|sure|certain)(?:[ \t]+(?:in|about|of|with)[ \t]+"
    r"(?:this|that|it|my|the)\b[^.!?\n]*)?|confidence(?:[ \t]+level)?[ \t]*:[^!?\n]*)"
    r"[ \t]*[.!]*[ \t]*(?:[😊🙂])?[ \t]*\Z",
    re.IGNORECASE,
)
# The words a closing opens with, found first in the lowered end of the text
# (literals only: a case-blind alternation with optional words is tried slowly
# at every position).
_CLOSING_GATE = re.compile(
    r"hope|let me know|feel free|happy to help|glad to help|good luck|thank|cheers|have a |i'm |i am "
    r"|confidence"
)
_CLOSING_SUBJECT = re.compile(r"(?:i|i'm|i am)[ \t]+\Z")
_CLOSING_REACH = 64
_SHORT_SEGMENT = 12  # a stated answer this short holds no closing
_CLOSING_OPENERS = (
    "hope",
    "let me know",
    "feel free",
    "to help",
    "luck",
    "thank",
    "cheers",
    "have a ",
    "i'm ",
    "i am ",
    "onfidence",
)
# Written as they open a sentence or follow a word, so the text need not be lowered.
_CLOSING_FINDER = AhoCorasick([*_CLOSING_OPENERS, *(w.capitalize() for w in _CLOSING_OPENERS)])


def without_closing(text: str) -> str:
    """``text`` without the formulaic closings it ends with (a sentence of its
    own, or a capitalised one after the answer on its line), if anything is left."""
    for _ in range(3):
        low = max(0, len(text) - _CLOSING_REACH)
        if not _CLOSING_FINDER.find_matches_as_indexes(text[low:]):
            break  # (one native pass first: the usual answer ends with no closing)
        tail = text[low:].lower()
        opening = None
        for opening in _CLOSING_GATE.finditer(tail):  # noqa: B007
            pass
        if opening is None:
            break
        at = low + opening.start()
        subject = _CLOSING_SUBJECT.search(text[max(0, at - 6) : at].lower())
        if subject is not None:
            at -= 6 - subject.start() if at >= 6 else at - subject.start()  # "I hope ..."
        sentence = max(text.rfind(c, 0, at) for c in ".!?\n") + 1
        if not text[sentence:at].strip():
            start = sentence
        elif text[at].isupper() and text[at - 1 : at].isspace():
            start = at  # "Final Answer: C Let me know if ..."
        else:
            break
        if not text[:start].strip() or _CLOSING.match(text, start) is None:
            break
        text = text[:start].rstrip()
    return text


# A last sentence that opens with "So:", "Thus:", "Therefore:" or "Hence:" and
# runs to the end of the text (bounded, so the search is linear).
_CONCLUDING_LINE = re.compile(
    r"(?:^|(?<=[.!?\n])[ \t]*)(?:so|thus|therefore|hence)[ \t]*:[ \t]*(?=[^\n.!?]{1,120}[.!?]?[ \t]*\Z)",
    re.IGNORECASE,
)


# Greedy, so it ends just past the last sentence stop before the end it is given.
_LAST_STOP = re.compile(r".*[.!?\n]", re.DOTALL)


def _concluding_line(text: str) -> re.Match[str] | None:
    """``_CONCLUDING_LINE.search(text)``, tried only where it can start: nothing
    from its start to the end of the text is a sentence stop but an optional
    last one, so it starts just past the last stop before that (or at 0)."""
    end = len(text.rstrip(" \t"))
    stop = _LAST_STOP.match(text, 0, max(end - 1, 0))
    return _CONCLUDING_LINE.match(text, 0 if stop is None else stop.end())


def states_answer(text: str) -> bool:
    """Whether ``text`` states an answer by a marker or a box (what
    :mod:`scorers.evaluate.invented` asks before it cuts an invented problem)."""
    return locate(text).how != "whole"


_ECHO_MIN = 24  # characters: a shorter common tail may be the answer quoting one option


def without_echo(text: str, asked: str) -> str:
    """``text`` without a tail copied word for word from the question ``asked``
    (a model that answers, then repeats the question or its list of options):
    the copy states nothing, and read at the end it would name the last option."""
    if not asked:
        return text
    squeezed = " ".join(asked.split())
    body = text.rstrip()
    # A tail that is in the question has every shorter tail in it too: halve.
    low, high = 0, len(body)
    while low < high:
        mid = (low + high + 1) // 2
        if " ".join(body[len(body) - mid :].split()) in squeezed:
            low = mid
        else:
            high = mid - 1
    if low < _ECHO_MIN:
        return text
    head = body[: len(body) - low]
    return head if head.strip(" \t\n.,;:") else text
