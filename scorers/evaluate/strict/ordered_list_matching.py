"""``ordered_list_matching``: the list the answer states, in the order the
question asks, else the order of the items' mentions."""

from __future__ import annotations

import re
from collections.abc import Mapping
from difflib import SequenceMatcher
from typing import Any

from scorers.errors import json_shown
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.strict import mentions, orders
from scorers.evaluate.strict.commit import conclusion, drop_excluded
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.kwargs import check_kwargs, fail
from scorers.evaluate.strict.list_blocks import last_block, numbered_heads
from scorers.evaluate.strict.question import from_other_end
from scorers.evaluate.strict.reading import Reading, remark_passed
from scorers.evaluate.strict.scores import EXTRACTED_CAP, RIGHT, WRONG

_LEAD_WORD = re.compile(r"\b(?:so|therefore|thus|hence)\b,?")
_ORDER_IS = re.compile(r"\b(?:order|sequence|ranking) (?:is|would be|should be)\b,?")


def _list_lead(segment: str) -> int:
    """Where a list after the last colon, "so"/"therefore"/"thus"/"hence" or
    "the order is" begins, else 0 (one linear scan)."""
    lead = segment.rfind(":") + 1
    for m in _LEAD_WORD.finditer(segment, lead):
        lead = m.end()
    if "order" in segment or "sequence" in segment or "ranking" in segment:
        for m in _ORDER_IS.finditer(segment, lead):
            lead = m.end()
    return lead


def _mentioned_order(
    reading: Reading, segment: str, expected: list[str], asked: tuple[str, str] | None
) -> mentions.Reading | None:
    """The order of the items' mentions in the stated answer, else in the last
    paragraph of an answer without a marker, from the end the question asks."""
    asked = asked or reading.asked_ends
    texts = [segment]
    loc = reading.fixed or reading.loc
    if loc.how == "whole":
        texts.append(drop_excluded(loc.segment.strip().rsplit("\n\n", 1)[-1]))
    for text in texts:
        said = mentions.read(text, expected, reading.options, asked)
        if said is not None:
            if asked is not None and from_other_end(text, asked):
                said = said._replace(order=said.order[::-1])
            return said
    return None


def ordered_list_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    outcome = _ordered_list(kwargs, reading)
    items = _order_items(kwargs)
    if (
        outcome.score == RIGHT
        or outcome.extracted.count(", ") + 1 == len(items)  # a list of its own, wrong
        or (retry := remark_passed(reading)) is None
    ):
        return outcome
    read, passed = reading.fixed or reading.loc, retry.fixed or retry.loc
    remark = f" {fold_phrase(read.segment[len(passed.segment) :])} "
    if any(f" {fold_phrase(str(x))} " in remark for x in items):
        return outcome  # it names an item: no remark
    # "Red, orange, green, blue. This matches the question.": the list before a
    # closing remark that names no item.
    other = _ordered_list(kwargs, retry)
    reading.used |= retry.used
    return other if other.score == RIGHT else outcome


def _order_items(kwargs: Mapping[str, Any]) -> list[Any]:
    order = kwargs.get("order")
    return order.split(",") if isinstance(order, str) else list(order or [])


def _ordered_list(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "ordered_list_matching"
    check_kwargs(name, kwargs)
    order = kwargs["order"]
    if isinstance(order, str):
        parts = [p.strip() for p in order.replace("，", ",").replace("،", ",").split(",")]
        if len(parts) == 1 and parts[0].isalpha() and parts[0].isupper() and len(parts[0]) > 1:
            parts = list(parts[0])
        items = parts
    elif isinstance(order, list) and all(type(x) in (str, int) for x in order):
        items = [x.strip() if type(x) is str else str(x) for x in order]
    else:
        raise fail(
            name, f"order must be a list of strings or a string, got {json_shown(order, 60)}"
        )
    if not items or not all(items):
        raise fail(name, "order is empty or has an empty item")
    expected = orders.read_order(items)
    asked: tuple[str, str] | None = None
    got: list[str] = []
    turned = False  # the list was read from the end its direction words say
    for loc in (reading.fixed, reading.loc):
        if loc is None:
            continue
        whole = orders.untable(loc.segment)
        segment = drop_excluded(conclusion(whole) if loc.how == "whole" else whole)
        got = orders.read_list(segment, expected, lambda: reading.options, None)
        if got != expected:  # the question's ends, read only when they may matter
            asked = reading.asked_ends
            if asked is not None:
                got = orders.read_list(segment, expected, lambda: reading.options, asked)
        if len(got) != len(expected) and (lead := _list_lead(segment)) > 0:
            # "I swapped the last two: A, C, B", "Mercury is closer, so Mercury,
            # Venus, Earth": the list follows the last colon or "so".
            after = orders.read_list(segment[lead:], expected, lambda: reading.options, asked)
            if len(after) == len(expected):
                got = after
        if len(got) > 1:
            asked = asked or reading.asked_ends
            if asked is not None and from_other_end(segment, asked):
                got = got[::-1]  # listed from the other end than the question asks
                turned = True
        if loc.how == "whole" and (
            len(got) != len(expected) or (got != expected and set(got) != set(expected))
        ):
            # No marker, a list on its own lines ("1) mouse\n2) cat"): the
            # concluding sentence is its last line; read the block of lines
            # when the sentence alone does not name the items.
            block = last_block(whole)
            # "1. **Application Layer** ... 4. **Link Layer**": an answer laid out
            # as a numbered list, each item explained below its head.
            heads = numbered_heads(whole, expected) if len(got) != len(expected) else ""
            for lined in (block, heads):
                if not lined:
                    continue
                lines = orders.read_list(
                    drop_excluded(lined), expected, lambda: reading.options, asked
                )
                if len(lines) == len(expected) and (
                    len(got) != len(expected) or set(lines) == set(expected)
                ):
                    got = lines
                    break
        if len(got) > 1:
            break
    if got != expected and (copied := _copied_sentences(reading, expected)) is not None:
        got = copied
    if got != expected and (
        orders.sloppy(got, expected, reading.options)
        or (
            (read := reading.fixed or reading.loc).how == "whole"
            and len(got) < len(expected)
            and "\n" not in read.segment.strip()
        )
    ):
        # (an answer of a few sentences read at its last, which names too few
        # items: "X came first and Y last. Of the two in the middle, ...")
        # Not read as a list of the items: read the order of their mentions.
        said = _mentioned_order(reading, segment, expected, asked)
        if said is not None:
            extracted = ", ".join(said.order)[:EXTRACTED_CAP]
            score = RIGHT if said.order == expected else WRONG
            return Outcome(
                score, extracted, note="read from the items' mentions", uncertain=said.doubt
            )
    extracted = ", ".join(got)[:EXTRACTED_CAP]
    if got == expected:
        return Outcome(RIGHT, extracted)
    uncertain = None
    labelled = bool(reading.options) and set(expected) <= set(reading.options)
    if labelled and segment:
        related = orders.relation(segment, reading.options)
        if related is not None:
            # "the horse is bigger than the cat": an order told by comparisons
            # between items is for a reader to assemble.
            uncertain = f"orders items by comparing them ('{related[:60]}')"
    if (
        uncertain is None
        and not turned
        and len(got) > 1
        and got[::-1] == expected
        and _DIRECTION.search(segment)
    ):
        # "1776, 1492, 1215, 1066 — newest to oldest, so reverse it": read
        # from its other end the list is right, and the answer speaks of its direction.
        uncertain = "right read from its other end, and it speaks of its direction"
    if uncertain is None and (item := orders.unmapped(got, expected, reading.options)):
        uncertain = f"'{item[:40]}' names no option of the question, or several"
    elif uncertain is None and orders.unread(segment, got, expected, reading.options):
        uncertain = "names every item of the order but not as a list"
    if len(got) != len(expected):
        note = f"{len(got)} items, expected {len(expected)}"
        return Outcome(WRONG, extracted, note=note, uncertain=uncertain)
    return Outcome(WRONG, extracted, uncertain=uncertain)


# Words an answer says the direction of its list with: the ends of a scale, a
# "first", a chain of "<" or ">", or turning the list around.
_DIRECTION = re.compile(
    r"[<>]|\b(?:revers\w*|backwards?|opposite|other way|ascending|descending|increasing|after"
    r"|before|behind|ahead|follow\w*|preced\w*"
    r"|decreasing|[a-z]+est (?:to|first|last)\b|to (?:the )?[a-z]+est)\b",
    re.IGNORECASE,
)


_SENTENCE_ITEM = 4  # words: an item this long is a sentence, copied rather than named
_COPIED = 0.9  # difflib's ratio of a copy with a letter or a word changed, as a typo fixed
_PARTS = re.compile(r"[ \t]*\|[ \t]*|[ \t]*\n+[ \t]*")
_NUMBERING = re.compile(r"^(?:\d{1,2}[.)][ \t]*|[-*•][ \t]+)")


def _copied_sentences(reading: Reading, expected: list[str]) -> list[str] | None:
    """An order of sentences given back as copies with small edits ("They told
    him to fax" for the key's "They told him so fax", a doubled article
    dropped): each part of the answer, between bars or on its own line, is the
    one expected sentence it copies, when every part copies a different one.
    A sentence left out or added, or a part copying none, is no such list."""
    if not all(len(item.split()) >= _SENTENCE_ITEM for item in expected):
        return None
    loc = reading.fixed or reading.loc
    parts = [_NUMBERING.sub("", p).strip(" .") for p in _PARTS.split(loc.segment.strip())]
    parts = [fold_phrase(p) for p in parts if p]
    if len(parts) != len(expected):
        return None
    got: list[str] = []
    for part in parts:
        ratios = [SequenceMatcher(None, part, item, autojunk=False).ratio() for item in expected]
        best = max(range(len(expected)), key=ratios.__getitem__)
        if ratios[best] < _COPIED or expected[best] in got:
            return None
        got.append(expected[best])
    return got
