"""``choices_matching``: the option letters the answer commits to, written as
letters or named by the options' text."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, cast

from scorers.errors import json_shown
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.strict import choices, numbered_choices, option_letters
from scorers.evaluate.strict.commit import CONCLUDING, conclusion, drop_excluded, sentences
from scorers.evaluate.strict.final import Located
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.kwargs import check_kwargs, fail
from scorers.evaluate.strict.question import by_position, lower_labels
from scorers.evaluate.strict.question import named as option_named
from scorers.evaluate.strict.question import named_one as option_named_one
from scorers.evaluate.strict.reading import Reading, remark_passed
from scorers.evaluate.strict.scores import RIGHT, WRONG


def _letters(loc: Located, reading: Reading, single: bool) -> tuple[list[str], str | None]:
    """The option letters ``loc`` commits to: written as letters, else named by
    the options' text, and why a reading by text is unsure. Letters that are no
    option of the question are words ("the letter F"); the question is read only
    when that could matter. ``single``: the question takes one answer."""
    whole = loc.how == "whole"
    if whole and (after := after_review(loc.segment)) is not None:
        # The answer walks through the options ("A) Heart: too small ... C) Skin:
        # ..."): each line's letter names the option it discusses. Only what
        # follows the walk-through chooses; an answer that ends inside it (cut
        # off, or with no conclusion) has chosen nothing.
        if not after.strip():
            return [], None
        loc = Located("whole", after, after)
    segment = drop_excluded(loc.segment)
    letters = choices.read_letters(segment, last=whole)
    if letters and all(x in _USUAL_OPTIONS for x in letters):
        return letters, None
    options = reading.options
    doubt = None
    if options:
        letters = [x for x in letters if x in options]
        if not letters and lower_labels(reading.question):
            letters = [
                x for x in choices.read_letters(segment, last=whole, lower=True) if x in options
            ]
        elif not letters and (end := _LOWER_LETTER_END.search(segment)):
            # "I believe b": an option's letter in lower case, ending the answer
            letters = [x for x in end.group(1).upper() if x in options]
        if not letters:
            # (the concluding sentence found before what it rules out is cut)
            text = drop_excluded(conclusion(loc.segment)) if whole else segment
            folded = fold_phrase(text)
            if single:
                letters, doubt = option_named_one(folded, options, reading.question)
            else:
                letters = option_named(folded, options)
            letters = letters or by_position(folded, options)
    return letters, doubt


# A line that opens with an option's letter and its bracket or stop ("B) Liver:",
# "- **C.** ...", "2. (D) ..."), after a bullet or an item number.
_REVIEW_HEAD = re.compile(
    r"^[ \t]*(?:[-*•]|\d{1,2}[.)])?[ \t]*(?:\*\*|__)?[ \t]*(?:[Oo]ption[ \t]+)?\(?([A-J])[).:\]]",
    re.MULTILINE,
)
_REVIEW_MIN = 3  # options discussed in turn: fewer is a comparison, not a walk-through
# A last line that calls its option the answer ("D) Rubber: the correct answer.") chooses it.
_CHOSEN = re.compile(r"\b(?:correct|right|best|answer)\b", re.IGNORECASE)
_NOT_CHOSEN = re.compile(r"\b(?:not|incorrect|wrong)\b|n't\b", re.IGNORECASE)


def after_review(text: str) -> str | None:
    """What follows the last line of ``text``'s walk-through of the options (lines
    opening with their letters in alphabetical order, at least three), or None
    when it has none."""
    heads = list(_REVIEW_HEAD.finditer(text))
    if len(heads) < _REVIEW_MIN:
        return None
    letters = [m.group(1).upper() for m in heads]
    if len(set(letters)) < _REVIEW_MIN:
        return None
    # (the walk-through that ends the run of heads: letters rising to the last one)
    run = 1
    while run < len(letters) and letters[-run - 1] < letters[-run]:
        run += 1
    if run < _REVIEW_MIN:
        return None
    end = text.find("\n", heads[-1].end())
    last = text[heads[-1].end() : None if end == -1 else end]
    if _CHOSEN.search(last) and not _NOT_CHOSEN.search(last):
        return None
    return "" if end == -1 else text[end:]


def _ends_in_review(reading: Reading) -> bool:
    loc = reading.loc
    return reading.fixed is None and loc.how == "whole" and after_review(loc.segment) == ""


def _settled_among(reading: Reading, read: frozenset[str]) -> frozenset[str] | None:
    """The one option of ``read`` that a marker's paragraph concludes with, when
    its first sentence named several."""
    loc = reading.loc
    if reading.fixed is not None or loc.how != "marker":
        return None
    last = conclusion(loc.segment)
    if last == loc.segment.strip():
        return None
    chosen = frozenset(choices.read_letters(drop_excluded(last), last=True))
    return chosen if len(chosen) == 1 and chosen <= read else None


# "... so B. Note that C would be Venus.", "... so B. If it asked for the largest, D
# would be right.": after a sentence that commits, a last sentence that speaks of an
# option as a supposition (a modal with the letter as its subject or under "if"), or
# an aside opened by "note", is a remark, unless it takes the choice back.
_SUPPOSED = re.compile(
    r"^(?:note|notice|nb|by the way|incidentally)\b"
    r"|\b[A-H] (?:would|could|might)\b"
    r"|\b(?:if|unless|otherwise|had)\b.*\b(?:would|could|might)\b"
    r"|\b(?:would|could|might)\b.*\b(?:if|unless|otherwise)\b",
    re.I,
)
_TAKES_BACK = re.compile(
    r"\b(?:actually|wait|instead|rather|correct(?:ion|ed)?|mistake|sorry|oops|re-?read|final)\b",
    re.I,
)


def _before_supposition(loc: Located) -> Located | None:
    """An answer without a marker less a closing supposition about another option,
    when the sentence before it commits (see ``_SUPPOSED``)."""
    if loc.how != "whole":
        return None
    parts = sentences(loc.segment)
    if len(parts) < 2:
        return None
    last = parts[-1]
    if not _SUPPOSED.search(last) or _TAKES_BACK.search(last):
        return None
    at = loc.segment.rstrip().rfind(last)
    body = loc.segment[:at].rstrip() if at > 0 else ""
    if not body or not CONCLUDING.search(conclusion(body)):
        return None
    return Located("whole", body, body)


_USUAL_OPTIONS = frozenset("ABCD")
_LOWER_LETTER_END = re.compile(r"(?:^|[ \t:(])([a-h])\)?[.!]?[ \t]*\Z")
# An answer that declines or rules everything out names no option on purpose.
_DECLINES = re.compile(r"\b(?:none|neither|cannot|can't|unable|not|no|unclear|impossible)\b", re.I)


def _names_none(reading: Reading) -> str | None:
    """Why a verdict is unsure when the answer names no option of a question
    that lists some, in words of its own ("It's circular" for "a circle",
    "ping-pong" for "table tennis"): only a reader who knows the words can say."""
    if not reading.options:
        return None
    loc = reading.fixed or reading.loc
    text = conclusion(loc.segment) if loc.how == "whole" else loc.segment
    if not re.search(r"[^\W\d_]{3}", text) or _DECLINES.search(text):
        return None
    return f"names none of the options in their words ('{text.strip()[:60]}')"


_WORD = re.compile(r"[^\W\d_]{3}")
# A letter that opens a sentence about it ("A is tempting, yet ..."), not its option's dress.
_TALKED_ABOUT = re.compile(r"[A-Z] (?:is|was|seems|looks|might|may|could|would)\b")
_SHORT_WHOLE = 80


def _text_disagrees(
    reading: Reading, read: frozenset[str], loc: Located | None = None
) -> str | None:
    """Why a letter is unsure when the answer also names another option by its
    whole text ("Rabat (option D)" where Rabat is C): the two readings disagree."""
    loc = loc or reading.fixed or reading.loc
    if len(loc.segment) > _SHORT_WHOLE:
        return None  # a long answer's letters are read from its end, often after its reasons
    segment = conclusion(loc.segment) if loc.how == "whole" else loc.segment
    head = segment.lstrip(" \t*_([")
    if head[:1] in read and not _TALKED_ABOUT.match(head):
        return None  # "C) towel", the usual dress: the letter first, then its text
    if not _WORD.search(segment) or not reading.options:
        return None
    named = option_named(fold_phrase(drop_excluded(segment)), reading.options)
    if len(named) == 1 and named[0] not in read and len(reading.options[named[0]]) > 2:
        return f"names option {''.join(read)} by letter but {named[0]} by its text"
    return None


def choices_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    check_kwargs("choices_matching", kwargs)  # before any kwarg is read: they may be a list
    label = kwargs.get("label")
    if isinstance(label, str) and choices.read_label(label) is None:
        number = numbered_choices.read_label(label)
        # "3" for a question that numbers its options 1 to 4: the option numbered 3
        if (
            number is not None
            and numbered_choices.numbered(reading.options)
            and number in reading.options
        ):
            return numbered_choices.numbered_choice(number, reading)
    kwargs, reading = _in_latin_letters(kwargs, reading)
    if reading.fixed is None and reading.loc.how == "whole":
        # An answer that goes on to repeat the question's options ("'B': 'x'\n
        # 'A': ..., 'B': ..., 'E': ...") would name the last option, read at its end.
        stated = reading.echo_free(reading.loc.segment)
        copied = reading.loc.segment[len(stated) :]
        if stated != reading.loc.segment and len(_OPTION_HEAD.findall(copied)) > 1:
            head = Reading(
                Located("whole", stated, stated), None, reading.raw_question, reading.raw_final
            )
            outcome = _choices(kwargs, head)
            reading.used |= head.used
            return outcome
    return _choices(kwargs, reading)


# An option's letter heading its text ("B) ...", "(C) ...", "D. ..."): a copied tail
# with one is the answer quoting its option in the usual dress, not an echo of the list.
_OPTION_HEAD = re.compile(r"(?:^|(?<=[\s:;,،]))[(\[]?['\"‘“]?[A-J]['\"’”]?[.)\]:]")


def _in_latin_letters(
    kwargs: Mapping[str, Any], reading: Reading
) -> tuple[Mapping[str, Any], Reading]:
    """The kwargs and reading with another script's option letters (a label "ب",
    options headed "أ. ...", an answer "الإجابة: ب") written as the Latin letters
    of their places (``option_letters``), so that "ب" and "B" answer alike."""
    label = kwargs.get("label")
    script = reading.option_script
    if isinstance(label, str) and choices.read_label(label) is None:
        read = option_letters.latin_label(label, script)
        if read is None:
            return kwargs, reading
        kwargs = {**kwargs, "label": read[0]}
        script = read[1]
    if script is None:
        return kwargs, reading
    count = max(len(reading.options), _USUAL_COUNT)

    def latin(loc: Located | None) -> Located | None:
        if loc is None:
            return None
        return loc._replace(
            segment=option_letters.to_latin(loc.segment, script, count),
            tail=option_letters.to_latin(loc.tail, script, count),
        )

    latin_reading = Reading(
        cast("Located", latin(reading.loc)),
        latin(reading.fixed),
        reading.raw_question,
        reading.raw_final,
    )
    latin_reading.used |= reading.used
    return kwargs, latin_reading


_USUAL_COUNT = 4  # options an exam letters, when the question's cannot be read


def _choices(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "choices_matching"
    label = kwargs["label"]
    expected = choices.read_label(label) if isinstance(label, str) else None
    if expected is None:
        raise fail(
            name,
            f"label must be option letters such as 'B', 'A,C' or 'ب' (another script's"
            f" option letters), or the number of an option the question numbers,"
            f" got {json_shown(label)}",
        )
    letters: list[str] = []
    doubt = None
    single = len(expected) == 1
    if reading.fixed is not None:
        letters, doubt = _letters(reading.fixed, reading, single)
    read_in: Located | None = None  # the part of the answer read, when not all of it
    if not letters:
        letters, doubt = _letters(reading.loc, reading, single)
        if letters and reading.fixed is None and (body := _before_supposition(reading.loc)):
            committed, why = _letters(body, reading, single)
            if len(set(committed)) == 1 and not set(committed) <= set(letters):
                letters, doubt, read_in = committed, why, body
    read = frozenset(letters)
    extracted = "".join(sorted(read))
    if not read and _ends_in_review(reading):
        return Outcome(WRONG, "", note="ends inside its review of the options")
    if not read and (retry := remark_passed(reading)) is not None:
        # "... Between them lies the Indian Ocean. This matches the question.":
        # a closing remark that names no option is passed over.
        outcome = _choices(kwargs, retry)
        reading.used |= retry.used
        if outcome.extracted:
            # (unsure: a reader may find the option named in the last sentence's words)
            why = outcome.uncertain or "its last sentence names no option; the one before is read"
            return dataclasses.replace(outcome, uncertain=why)
    if not read:
        return Outcome(WRONG, "", note="no option letter found", uncertain=_names_none(reading))
    if len(read) == 1 and choices.kept_open(reading.loc.segment, read):
        return Outcome(WRONG, extracted, note="another option kept open")
    if doubt is None and len(read) == 1:
        doubt = _text_disagrees(reading, read, read_in)
    if read == expected:
        return Outcome(RIGHT, extracted, uncertain=doubt)
    if single and (copy := _same_text(reading, read | expected)) is not None:
        # "(B) 6 kmph" where E is "6 kmph" too: the question lists one answer
        # twice, and the letter names either copy.
        return Outcome(RIGHT, extracted, note=f"options {copy} have the same text")
    if len(expected) == 1 and len(read) > 1 and (settled := _settled_among(reading, read)):
        # "Answer: I'm between B and C. ... which settles it: C.": the paragraph
        # goes on to choose one of the options its first sentence weighed.
        read, extracted = settled, "".join(settled)
        if read == expected:
            return Outcome(RIGHT, extracted)
    if len(expected) == 1 and len(read) > 1:
        return Outcome(WRONG, extracted, note=f"names {len(read)} options")
    return Outcome(WRONG, extracted, uncertain=doubt)


def _same_text(reading: Reading, letters: frozenset[str]) -> str | None:
    """The letters, joined, when the question gives each of them the same text."""
    options = reading.options
    if not options or not letters <= options.keys():
        return None
    texts = {fold_phrase(options[x]) for x in letters}
    return "".join(sorted(letters)) if len(texts) == 1 and "" not in texts else None
