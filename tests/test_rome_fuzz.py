"""Property tests: the loaders and the rome extractors never crash or hang on arbitrary input."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorers.errors import EvaluatorError, InputError
from scorers.evaluate import rome
from scorers.evaluate.rome.evaluators import choice_letters
from scorers.evaluate.rome.extract import extract_answer
from scorers.io.loading import load_annotations, load_predictions

# Text biased towards what the extractors look for.
PIECES = st.sampled_from(
    [
        "Answer:",
        "Answer",
        "答案：",
        "答案",
        "\\boxed{",
        "}",
        "{",
        "</think>",
        "<think>",
        "A",
        "B",
        "I",
        "T",
        ",",
        ".",
        "-",
        "−",
        "1",
        "3.5",
        " ",
        "\n",
        "×10^",
        "Ｃ",
        "\u2032",
    ]
)
TEXT = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(PIECES, st.text(max_size=5)), max_size=60).map("".join),
)

KWARGS: list[tuple[str, dict[str, Any]]] = [
    ("choices_matching", {"label": "B"}),
    ("choices_matching", {"label": "AC"}),
    ("number_matching", {"value_to_match": 3}),
    ("number_matching", {"value_to_match": 2.5}),
    ("ordered_list_matching", {"order": ["A", "B", "C"]}),
    ("key_items_matching", {"key_items": [["a"], ["b c"]], "remove_space": True}),
    (
        "location_matching",
        {"location_fine_grained": ["paris"], "location_coarse_grained": ["france"]},
    ),
    ("interval_matching", {"interval": ["1:00", "2:00"], "units": []}),
    ("multi_interval_matching", {"intervals": [[1, 5]], "units": [["m"]]}),
]


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_extractors_total(text: str) -> None:
    extracted = extract_answer(text)
    assert isinstance(extracted, str)
    assert choice_letters(text).isupper() or choice_letters(text) == ""
    for evaluator, kwargs in KWARGS:
        outcome = rome.evaluate(evaluator, kwargs, text)
        assert outcome.score in (0, 1, 0.5, 1.0)


def test_extractors_linear_on_large_adversarial_input() -> None:
    text = ("Answer \\boxed{" * 20000) + "1" * 100000 + ("-" * 50000)
    start = time.perf_counter()
    for evaluator, kwargs in KWARGS:
        rome.evaluate(evaluator, kwargs, text)
    assert time.perf_counter() - start < 30  # generous: catches catastrophic backtracking only


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.one_of(st.binary(max_size=400), TEXT.map(lambda s: s.encode("utf-8"))))
def test_loaders_only_raise_input_errors(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(data)
    for load in (load_predictions, load_annotations):
        for mode in ("rome", "strict"):
            try:
                load(str(path), mode)
            except InputError as exc:
                assert str(exc).startswith(str(path))


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["question_id", "answer", "evaluator", "evaluator_kwargs", "usage", "x"]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(JSONISH)
def test_loaders_on_arbitrary_json(tmp_path: Path, value: object) -> None:
    import json

    path = tmp_path / "f.json"
    path.write_text(json.dumps(value))
    for load in (load_predictions, load_annotations):
        with contextlib.suppress(InputError):
            load(str(path), "strict")


@settings(max_examples=150, deadline=None)
@given(JSONISH, TEXT)
def test_rome_evaluate_raises_only_evaluator_errors(kwargs: object, text: str) -> None:
    for evaluator, _ in KWARGS:
        with contextlib.suppress(EvaluatorError):
            rome.evaluate(evaluator, kwargs if isinstance(kwargs, dict) else {"x": kwargs}, text)


@pytest.mark.parametrize("value", [{"label": ["A"]}, {"value_to_match": None}, {"order": [1]}])
def test_kwarg_type_errors_are_evaluator_errors(value: dict[str, object]) -> None:
    evaluator = {
        "label": "choices_matching",
        "value_to_match": "number_matching",
        "order": "ordered_list_matching",
    }[next(iter(value))]
    with pytest.raises(EvaluatorError):
        rome.evaluate(evaluator, value, "Answer: 1")
