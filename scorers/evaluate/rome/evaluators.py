"""The reference grader's five rule evaluators, behaviour for behaviour (spec §5).

Each takes the already extracted answer and the annotation's kwargs and returns
``(score, extracted)``: the score typed as the reference types it (int 0/1, or
the configured values for locations) and the text the reference leaves in
``answer``. Inputs that make the reference crash raise ``BadKwarg`` naming the
kwarg, which ``scorers.evaluate.rome.evaluate`` turns into an EvaluatorError.
"""

from __future__ import annotations

import re
from typing import Any

from scorers.errors import json_type


class BadKwarg(Exception):
    def __init__(self, kwarg: str, problem: str) -> None:
        super().__init__(problem)
        self.kwarg = kwarg
        self.problem = problem


# --- key_items_matching ------------------------------------------------------


def key_items_matching(answer: str, key_items: Any, remove_space: Any = False) -> tuple[int, str]:
    def proc(value: Any, kwarg: str) -> str:
        if not isinstance(value, str):
            raise BadKwarg(kwarg, f"variant {value!r} is not a string")
        if remove_space:
            value = value.replace(" ", "")
        return value.lower()

    def any_variant(variants: Any) -> bool:
        if not isinstance(variants, list):
            raise BadKwarg("key_items", "mixes groups (lists) and plain strings")
        return any(proc(v, "key_items") in text for v in variants)

    text = answer.replace(" ", "").lower() if remove_space else answer.lower()
    if not isinstance(key_items, (list, str, dict)) or not key_items:
        raise BadKwarg("key_items", "must be a non-empty list")
    if isinstance(key_items, dict):
        raise BadKwarg("key_items", "must be a list, not an object")
    first = key_items[0]
    if isinstance(first, list):
        if isinstance(key_items, str):  # unreachable: a str's items are str
            raise BadKwarg("key_items", "must be a list")
        return int(all(any_variant(group) for group in key_items)), answer
    if isinstance(first, str):
        return int(any_variant(key_items)), answer
    raise BadKwarg("key_items", f"items must be lists or strings, not {json_type(first)}")


# --- choices_matching --------------------------------------------------------

_CHOICE_KEYWORDS: tuple[str, ...] = (
    "boxed",
    "Answer:",
    "Answer is",
    "answer is",
    "option is",
    "Correct option",
    "correct option",
    "Answer",
    "answer",
    "故选",
    "选择",
    "正确选项为",
    "答案选",
    "答案为",
    "答案是",
    "因此",
    "答案",
)
_UPPER = re.compile(r"[A-Z]")


def choice_letters(answer: str) -> str:
    """The reference's ``process_multiple_choice``: the capital letters it reads."""
    # "The" and "If" go first, then the characters I, N, S, T and "/" (the
    # reference meant the token "[INST]" but wrote a character class), each
    # deleted by a replace: str.translate costs several times more per character.
    # (Its later removal of "<Img>" can never match once "I" is gone.)
    text = answer.replace("The", "").replace("If", "")
    text = text.replace("I", "").replace("N", "").replace("S", "").replace("T", "").replace("/", "")
    text = text.strip()
    if len(text) >= 2 and text[1] == "." and "A" <= text[0] <= "Z":
        return text[0]
    for keyword in _CHOICE_KEYWORDS:
        at = text.rfind(keyword)
        if at != -1:
            text = text[at + len(keyword) :]
            break
    # The reference then deletes punctuation, digits, lowercase, CJK and
    # whitespace before collecting [A-Z]; none of those is a capital, so
    # collecting the capitals directly gives the same letters.
    return "".join(_UPPER.findall(text))


def choices_matching(answer: str, label: Any) -> tuple[int, str]:
    if not isinstance(label, str):
        raise BadKwarg("label", f"must be a string, not {json_type(label)}")
    pred = choice_letters(answer)
    label = label.upper()
    if len(label) > 1:
        label = "".join(sorted(label))
        pred = "".join(sorted(set(pred)))
    elif len(pred) > 1:
        pred = pred[0]
    return int(label == pred), pred


# --- ordered_list_matching ---------------------------------------------------


def ordered_list_matching(answer: str, order: Any) -> tuple[int, str]:
    if isinstance(order, list):
        if not all(isinstance(item, str) for item in order):
            raise BadKwarg("order", "items must be strings")
        order = ",".join(order)
    if not isinstance(order, str):
        raise BadKwarg("order", f"must be a list or a string, not {json_type(order)}")
    pattern = order.lower().replace(" ", "")
    remaining = iter(answer.lower())
    # Greedy subsequence test, commas included (spec §5.3).
    return int(all(char in remaining for char in pattern)), answer


# --- number_matching ---------------------------------------------------------

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def number_matching(answer: str, value_to_match: Any) -> tuple[int, str]:
    if not isinstance(value_to_match, (int, float)):
        raise BadKwarg("value_to_match", f"must be a number, not {json_type(value_to_match)}")
    last = None
    for last in _NUMBER.finditer(answer):  # noqa: B007 - the last match is wanted
        pass
    if last is None:
        return 0, answer
    pred = float(last.group())
    # The tolerance follows the JSON type: 10 % for floats, 1e-3 for ints.
    band = abs(value_to_match) * 0.1 if isinstance(value_to_match, float) else 1e-3
    return int(abs(pred - value_to_match) < band), answer


# --- location_matching -------------------------------------------------------


def _lowered(values: Any, kwarg: str) -> list[str]:
    if not isinstance(values, (list, str)):
        raise BadKwarg(kwarg, f"must be a list of strings, not {json_type(values)}")
    out = []
    for value in values:  # a string iterates its characters, as in the reference
        if not isinstance(value, str):
            raise BadKwarg(kwarg, f"item {value!r} is not a string")
        out.append(value.lower())
    return out


def location_matching(
    answer: str,
    location_fine_grained: Any,
    location_coarse_grained: Any = (),
    fine_grained_score: Any = 1.0,
    coarse_grained_score: Any = 0.5,
) -> tuple[float, str]:
    for name, value in (
        ("fine_grained_score", fine_grained_score),
        ("coarse_grained_score", coarse_grained_score),
    ):
        if not isinstance(value, (int, float)):
            raise BadKwarg(name, f"must be a number, not {json_type(value)}")
    text = answer.lower()
    fine = _lowered(location_fine_grained, "location_fine_grained")
    if isinstance(location_coarse_grained, tuple):
        location_coarse_grained = list(location_coarse_grained)
    coarse = _lowered(location_coarse_grained, "location_coarse_grained")
    if any(candidate in text for candidate in fine):
        return fine_grained_score, answer
    if any(candidate in text for candidate in coarse):
        return coarse_grained_score, answer
    return 0, answer
