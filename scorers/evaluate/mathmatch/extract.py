"""Read the final answer out of a model response.

Order, as MathReal's extractor and a human reader would: ``\\boxed{}`` (nested
braces counted; the last box, or the last *k* boxes when the reference lists *k*
blanks, points or alternatives: models box each one, and earlier boxes are
working), then the last JSON or dict field named like an answer (``"ans": 230``:
:mod:`fields`), then what the last ``<answer>`` tag holds, read as what follows, then the text after the last "final answer" / "answer:" / "the answer
is" / 答案 marker or another language's (``Jibu:``, ``答え：``), then (for one blank) the last value set in bold as the result,
then the last line (the last *k* lines for *k* blanks),
read as a sentence when it is one (:mod:`sentences`: the value the sentence
commits to, not what follows its last "is" or "=").
Text after a problem the writer poses once answered is not read
(:mod:`scorers.evaluate.invented`).
An answer cut off by its token limit is read as far as it had finished (:mod:`cutoff`).
"""

from __future__ import annotations

import re

from scorers.evaluate.answer_line import answer_line
from scorers.evaluate.invented import before_invented_problem
from scorers.evaluate.mathmatch.choices import opens_with_option
from scorers.evaluate.mathmatch.cutoff import (
    stopped_mid_line,
    without_calculations,
    without_cut_check,
    without_open_block,
)
from scorers.evaluate.mathmatch.fields import answer_field, answer_tag
from scorers.evaluate.mathmatch.normalize import strip_end_punctuation
from scorers.evaluate.mathmatch.prose import HAS_VALUE, LEAD, NUMBER, sentences
from scorers.evaluate.mathmatch.remarks import without_closing_remarks, without_cut_repeats
from scorers.evaluate.mathmatch.sentences import (
    committed_value,
    dollar_math,
    later_say,
    parts_of_line,
    revises,
)
from scorers.evaluate.mathmatch.values import (
    MATH_SPAN,
    only_value,
    reads_as_prose,
    same_unknown,
    system,
)
from scorers.evaluate.strict.answer_markers import last_marker, written_in
from scorers.evaluate.strict.final import lower_same_length, without_closing
from scorers.records import final_answer

# Markdown bold around text, never a power ("2**3"): its stars touch no word outside.
_BOLD = re.compile(r"(?<![\w*])\*\*(?=\S)(.+?)(?<=\S)\*\*(?![\w*])")
_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{")
# (negated, it names no answer: "the answer is not 12" rules 12 out)
_MARKERS = re.compile(
    r"(?:(?:final\s+answers?(?:\s+(?:is|are|was|should\s+be|would\s+be|will\s+be)\b)?|(?:correct|right)\s+(?:option|choice)s?\s+(?:is|are)|"
    r"answers?\s+(?:is|are|should\s+be))(?!n['’]t\b|\s+(?:(?:is|are|was)\s+)?not\b)|answers?\s*[:：]|"
    r"最终答案|答案\s*(?:是|为)?\s*[:：]?|故答案为|所以答案是|"
    # the published Korean and Japanese answer words (strict.answer_markers) with the topic
    # particle, as "the answer is": "답은 10", "정답은 12입니다", "答えは 8 です"
    rf"(?<![\uac00-\ud7af])(?:{'|'.join(written_in('hangul'))})\s*[은는]|"
    rf"(?:{'|'.join(written_in('kana'))})は)\s*[:：]?",
    re.IGNORECASE,
)
_SENTENCE_CUT = re.compile(r"(?:\bis\b|\bare\b|\bequals\b|[=：:]|为|是)", re.IGNORECASE)
# A Chinese sentence stating its value: "体积是120立方厘米".
_CJK_SENTENCE = re.compile(r"[\u4e00-\u9fff][^\n]*(?:是|为)\s*[-\d(\\$]")
_PART_LABEL = re.compile(r"^\s*(?:\(\s*\d{1,2}\s*\)|\d{1,2}[.)](?=\s))\s*")
# A markup tag or a tokenizer's special token ("<br>", "</s>", "<|eot_id|>", "<result>",
# "</endanswer>") is no text of the answer; answer tags are read by fields.answer_tag.
# (A name of two or more letters, or a closing slash: "x<y>" is no tag.)
_MARKUP = re.compile(
    r"<\|[^|<>\s]{1,40}\|>|<\s*(?!/?\s*answer\s*>)(?:/\s*[A-Za-z_][\w-]*|[A-Za-z_][\w-]+)\s*/?\s*>",
    re.I,
)
_HAS_VALUE = re.compile(r"[0-9$\\①-⑳]|(?<![A-Za-z])[A-H](?![A-Za-z])|[\u4e00-\u9fff]")


def boxed_contents(text: str) -> list[str]:
    """Every ``\\boxed{...}`` body in order, nested braces respected."""
    out: list[str] = []
    pos = 0
    while True:
        m = _BOX.search(text, pos)
        if m is None:
            return out
        depth = 1
        i = m.end()
        while i < len(text) and depth:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
            i += 1
        if depth:
            out.append(text[m.end() :].strip())
            return out
        out.append(text[m.end() : i - 1].strip())
        pos = i


def _last_marker(text: str) -> tuple[int, int] | None:
    """(start, end) of the last answer marker: English, Chinese, or another
    language's (``Jibu:``, ``答え：``; ``strict.answer_markers``) when it stands later,
    or GSM8K's ``#### 72`` line (:mod:`scorers.evaluate.answer_line`) after them."""
    last = None
    for last in _MARKERS.finditer(text):  # noqa: B007 - we want the last match
        pass
    known = (last.start(), last.end()) if last is not None else None
    other = last_marker(text, lower_same_length(text), known[0] if known else -1)
    found = (other.start, other.end) if other is not None else known
    # GSM8K's "#### 72" line after them states the answer as a marker does
    return answer_line(text, found[1] if found is not None else 0) or found


def _after_marker(text: str, items: int, blanks: int = 1) -> str | None:
    found = _last_marker(text)
    if found is None:
        return None
    start, end = found
    rest = text[end:].strip()
    # The answer runs to the end of its paragraph.
    paragraphs = re.split(r"\n\s*\n", rest, maxsplit=1)
    para = paragraphs[0].strip()
    after = paragraphs[1] if len(paragraphs) > 1 else ""
    if "\n" in para:  # "7.\nThanks!": a closing remark is no part of the answer
        para = "\n".join(without_closing_remarks(para.splitlines(), blanks))
    if blanks == 1 and "\n" in para:
        # "So the answer is 33.\nThe 3 boxes then hold 11 each.": a sentence on the marker's
        # line (or the first line holding a value) is the answer; the lines after it are
        # read as what is said later (a correction or a doubt counts, nothing else does).
        lines = para.splitlines()
        while len(lines) > 1 and not _HAS_VALUE.search(lines[0]):
            lines = lines[1:]  # "... to get our final answer.\n6 plus 12 is 18."
        # ("Answer: 30\nNo wait, it's 35.": a line that corrects or doubts ends the one above)
        if len(lines) > 1 and (lines[0].rstrip()[-1:] in ".!?" or revises(lines[1])):
            after = "\n".join(lines[1:]) + "\n\n" + after
            lines = lines[:1]
        para = "\n".join(lines).strip()
    if blanks > 1 and not re.search(r"[\n;]", para) and reads_as_prose(para):
        # "For (a) the answer is 4, and for (b) it is 9.": one line holding every blank.
        line = text[:start].rsplit("\n", 1)[-1] + text[start:end] + " " + para
        parts = parts_of_line(line.strip(), blanks)
        if parts is not None:
            return "\n".join(_answer_in_line(p) for p in parts)
    if not _HAS_VALUE.search(para):
        # "So 14 is our final answer.": the value came before the marker.
        line = text[:end].rsplit("\n", 1)[-1]
        if _HAS_VALUE.search(line):
            return committed_value(line + para, items) or None
        if not para.strip(" .!"):
            return None  # "... to get our final answer.": the marker named, the value comes later
    if para and "\n" not in para and _CJK_SENTENCE.search(para):
        para = _answer_in_line(para, items)  # 答：体积是120立方厘米 -> 120立方厘米
    elif para and "\n" not in para and reads_as_prose(para):
        # "the perimeter, 28.", "9, not 6 as one might think": the value stated.
        para = committed_value(para, items, first=True)
    if para and after.strip() and blanks == 1 and "\n" not in para:
        # "Answer: 30.\n\nBut it could also be 32.": a later doubt or correction counts
        para = later_say(para, after, items)
    return para or None


_LIST_STEP = re.compile(r"^(\d{1,2})([.)])\s+(?=\S)")


def _last_lines(text: str, count: int, items: int) -> str:
    """The last ``count`` lines (one per expected answer), each cut to its answer;
    a last line that holds all ``count`` answers is cut into them."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    # (one line may hold every blank: "x = -3 or x = 2.\n(Check: ...)")
    lines = without_closing_remarks(lines, 1)
    if count > 1 and lines:
        parts = parts_of_line(lines[-1], count)
        if parts is not None:
            lines = parts
    per_line = items if count == 1 else 1
    if count == 1 and lines:
        # "3. 3/5 of 700 = 420\n4. 280": the last step of a numbered list; its number is
        # the step's, not a value (the step before it carries the number before)
        last = LEAD.sub("", lines[-1])  # ("So 4. 280")
        step = _LIST_STEP.match(last)
        if step and any(ln.startswith(f"{int(step.group(1)) - 1}{step.group(2)}") for ln in lines):
            lines[-1] = last[step.end() :]
    lines = lines[-count:]
    while len(lines) > 1 and not without_closing_remarks(lines[:1], 0):
        lines = lines[1:]  # "Let me think step by step.": a lead-in, no blank
    return "\n".join(_answer_in_line(ln, per_line) for ln in lines)


def _answer_in_line(line: str, items: int = 1) -> str:
    if reads_as_prose(line) and not _CJK_SENTENCE.search(line):
        # "(3) The line crosses the axis at x = 1.5.": the label names the blank, not a value.
        return committed_value(_PART_LABEL.sub("", line), items)
    bare = LEAD.sub("", strip_end_punctuation(line))
    alternatives = same_unknown(bare)
    if alternatives is not None:
        return alternatives  # "So x = 5 or x = -75." -> 5 or -75
    if system(bare) is not None:
        return bare  # "x = 2, y = 3": the values of two unknowns
    found = sentences(line)
    if len(found) > 1:
        line = found[-1]
    line = LEAD.sub("", line).strip()
    math = MATH_SPAN.search(line)
    if math and math.start() > 0:
        # "The equation of the line is $y = 3 - x$." -> the formula (and any unit after it).
        return line[math.start() :].strip()
    # A sentence is cut after its last verb or "="; a formula ("2x + y - 4 = 0") is kept whole.
    words = re.search(r"[A-Za-z]{2,}", re.sub(r"\\[A-Za-z]+", " ", line))
    if (len(line.split()) > 3 and words) or _CJK_SENTENCE.search(line):
        cuts = list(_SENTENCE_CUT.finditer(line))
        if cuts:
            tail = line[cuts[-1].end() :].strip()
            # "Statements 2 and 5 are correct.": the answer came before the verb.
            if tail and _HAS_VALUE.search(tail):
                line = tail
    return line


def _answered(text: str) -> bool:
    """Whether ``text`` gives an answer: a box, an answer tag or field, or a marker."""
    return bool(_BOX.search(text) or answer_tag(text) or answer_field(text) or _last_marker(text))


def extract_answer(response: str, boxes: int = 1, lines: int = 1) -> tuple[str, str]:
    """(answer text, how it was found: "boxed", "field", "marker", "bold" or "last line").

    Only the final answer (``scorers.records.final_answer``) is read.

    ``boxes``: how many trailing boxes make up the answer; ``lines``: how many
    trailing lines when there is neither a box nor a marker.
    """
    text = dollar_math(without_closing(final_answer(response)))  # "Hope this helps!" states nothing
    text = _MARKUP.sub(" ", text) if "<" in text else text  # "42 eggs.<|im_end|>", "<br>"
    text = without_calculations(text)  # "5+2=<<5+2=7>>7 dollars": a calculator's trace
    text = before_invented_problem(without_cut_repeats(text), _answered)
    plain = _BOLD.sub(r"\1", text) if "**" in text else text  # "**So $47.25.**": Markdown dress
    found = [b for b in boxed_contents(plain) if b]
    if found:
        return "; ".join(found[-max(1, boxes) :]), "boxed"
    field = answer_field(plain) if lines <= 1 else None
    if field is not None:
        value, after = field  # {"rationale": ..., "ans": 230}: the slot filled with the result
        return later_say(value, after, max(1, boxes)), "field"
    tagged = answer_tag(text)
    if tagged is not None:  # "<answer> So the total is 42. </answer>": read what the tag holds
        inner, after = tagged
        value, how = _unboxed(inner, boxes, lines)
        if after.strip() and lines <= 1:
            value = later_say(value, _BOLD.sub(r"\1", after), max(1, boxes))
        return value, how
    return _unboxed(text, boxes, lines)


def stated_before_option(response: str, boxes: int = 1) -> str:
    """When the text's last marker names an option letter ("The best answer is B."), the
    answer the text gave before that marker's line ("... so the net price is $60.48."):
    else, or when it gave none, "". (The options themselves are not in the response.)"""
    text = final_answer(response)
    found = _last_marker(text)
    if found is None or not opens_with_option(text[found[1] :].lstrip(" *:")):
        return ""
    head = text[: text.rfind("\n", 0, found[0]) + 1]
    stated = extract_answer(head, boxes)[0] if head.strip() else ""
    if not stated or opens_with_option(stated):
        return ""
    line_end = text.find("\n", found[1])
    after = text[line_end:] if line_end >= 0 else ""
    # "But it could also be G.": a doubt or correction below the letter still counts
    return later_say(stated, after, boxes) if after.strip() else stated


def _unboxed(text: str, boxes: int, lines: int) -> tuple[str, str]:
    """The answer of a text with neither box nor field: marker, bold value, last lines."""
    # a check in code or in prose, cut off: what came before stands
    text = without_cut_check(without_open_block(text))
    emphasised = _emphasised(text) if "**" in text and lines <= 1 else None
    if "**" in text:
        text = _BOLD.sub(r"\1", text)
    marked = _after_marker(text, max(1, boxes), max(1, lines))
    if marked:
        return marked, "marker"
    if emphasised is not None:
        # "**1578**", "**8センチ短くなります**" ("becomes 8 cm shorter"): its one value, as
        # a later correction or doubt leaves it
        span, after = emphasised
        value = only_value(span) or committed_value(span, max(1, boxes))
        return later_say(value, _BOLD.sub(r"\1", after), max(1, boxes)), "bold"
    standing = stopped_mid_line(text)
    if standing is None:
        return "", "last line"  # "He has 6*": cut off while working, no answer yet
    return _last_lines(standing, max(1, lines), max(1, boxes)), "last line"


# A bold span that opens with a word ("**Month 2**") or ends in a colon is a heading or a
# label: it names a part, it states no value.
_HEADING = re.compile(r"^[^\d$£€-]|.*[:：]\s*$", re.S)


def _emphasised(text: str) -> tuple[str, str] | None:
    """The value the writer set in bold as their result: the last bold span that holds
    one number and is no heading, unless a later sentence concludes."""
    spans = [
        m
        for m in _BOLD.finditer(text)
        if len(NUMBER.findall(m.group(1))) == 1 and not _HEADING.match(m.group(1))
    ]
    if not spans:
        return None
    last = spans[-1]
    after = text[last.end() :]  # ("**30**. No wait, it's 35.": a correction on its line counts)
    later = sentences(_BOLD.sub(r"\1", after))
    if any(LEAD.match(s) and HAS_VALUE.search(s) for s in later):  # "So 15 remain.": it concludes
        return None
    return last.group(1), after
