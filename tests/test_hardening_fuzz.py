"""Property tests across module boundaries: hostile input never escapes as a crash.

Each property: the function returns, or raises one of the documented error
classes (InputError for files, EvaluatorError for kwargs that do not fit);
every example finishes within a deadline; and the same input gives the same
output twice.
"""

from __future__ import annotations

import json
import math
from datetime import timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorers.adjudicate.journal import Replay, parse_journal_bytes, validate_entry
from scorers.errors import EvaluatorError, InputError
from scorers.evaluate.evaluators import ALL_EVALUATORS, MODES, RULE_EVALUATORS, evaluate
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.rome.extract import extract_answer as rome_extract
from scorers.evaluate.strict.final import locate
from scorers.io.loading import load_annotations, load_predictions
from scorers.io.parse import parse_file
from scorers.records import content_hash, final_answer, response_texts

DEADLINE = timedelta(seconds=3)  # generous on a shared 2-core machine; catches hangs, not slowness
FUZZ = settings(
    max_examples=150,
    deadline=DEADLINE,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# Pieces answers are made of, so examples hit the extractors' branches, not only noise.
FRAGMENTS = [
    "Final Answer:",
    "**Final Answer:** ",
    "FINAL ANSWER: ",
    "answer: ",
    "The answer is ",
    "### Final Answer\n",
    "答案：",
    "故选",
    "\\boxed{",
    "}",
    "{",
    "\\frac{9}{4}",
    "<think>",
    "</think>",
    "A",
    "B",
    "C",
    "(b)",
    "Option ",
    "Ｃ",
    ", ",
    " and ",
    " or ",
    "->",
    "→",
    "1,234",
    "3.0 × 10^8",
    "12 km",
    "45%",
    "-",
    "0.5",
    ".5",
    "1:30",
    "[bold]",
    "[/]",
    "\x1b[31m",
    "\n",
    "\n\n",
    " ",
    "$",
    "`",
    "not ",
    "Paris",
    "Zürich",
]
TEXT = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=5), max_size=30).map("".join),
)

JSON_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
)
JSON = st.recursive(
    JSON_SCALAR,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

KWARG_NAMES = {
    "key_items_matching": ["key_items", "remove_space"],
    "choices_matching": ["label"],
    "ordered_list_matching": ["order"],
    "number_matching": ["value_to_match"],
    "location_matching": [
        "location_fine_grained",
        "location_coarse_grained",
        "fine_grained_score",
        "coarse_grained_score",
    ],
    "interval_matching": ["interval", "units"],
    "multi_interval_matching": ["intervals", "units"],
    "math_matching": ["answer", "question_type"],
}


@st.composite
def kwargs_for(draw: st.DrawFn, evaluator: str) -> Any:
    """Right names with values of any JSON type, sometimes a stray name, sometimes not a dict."""
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return draw(JSON)  # anything at all: a list, a string, null ...
    names = KWARG_NAMES.get(evaluator, ["label"])
    chosen = draw(st.lists(st.sampled_from(names), unique=True, min_size=1))
    kwargs = {name: draw(JSON) for name in chosen}
    if shape == 1:
        kwargs[draw(st.text(max_size=8))] = draw(JSON)
    return kwargs


def _same(a: Outcome, b: Outcome) -> bool:
    # NaN never equals itself; an evaluator returning NaN is caught by the range check instead.
    return a == b or (a.score != a.score and b.score != b.score)


def _grade_twice(evaluator: str, kwargs: Any, response: str, mode: Any) -> Outcome | None:
    results: list[Outcome | str] = []
    for _ in range(2):
        try:
            results.append(evaluate(evaluator, kwargs, response, mode))
        except EvaluatorError as exc:
            results.append(f"EvaluatorError: {exc}")
    first, second = results
    if isinstance(first, str) or isinstance(second, str):
        assert first == second, "the same input must fail the same way"
        return None
    assert _same(first, second), (first, second)
    return first


@FUZZ
@given(data=st.data(), evaluator=st.sampled_from(RULE_EVALUATORS), mode=st.sampled_from(MODES))
def test_rule_evaluators_total_and_deterministic(
    data: st.DataObject, evaluator: str, mode: Any
) -> None:
    kwargs = data.draw(kwargs_for(evaluator), label="kwargs")
    response = data.draw(TEXT, label="response")
    outcome = _grade_twice(evaluator, kwargs, response, mode)
    if outcome is not None:
        assert isinstance(outcome.score, (int, float)) and not isinstance(outcome.score, bool)
        assert 0 <= outcome.score <= 1, outcome
        assert isinstance(outcome.extracted, str)


@settings(
    max_examples=60,
    deadline=timedelta(seconds=20),  # math-verify runs in a worker with its own time limit
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data(), mode=st.sampled_from(MODES))
def test_math_matching_total_and_deterministic(data: st.DataObject, mode: Any) -> None:
    kwargs = data.draw(kwargs_for("math_matching"), label="kwargs")
    if not isinstance(kwargs, dict):
        kwargs = {"answer": kwargs}  # non-object kwargs are tested on their own below
    response = data.draw(TEXT, label="response")
    outcome = _grade_twice("math_matching", kwargs, response, mode)
    if outcome is not None:
        assert 0 <= outcome.score <= 1, outcome
        assert outcome.strict is None or 0 <= outcome.strict <= 1, outcome


@pytest.mark.parametrize("kwargs", [None, ["1/2"], "1/2", 3])
def test_math_kwargs_that_are_not_an_object_are_evaluator_errors(kwargs: Any) -> None:
    with pytest.raises(EvaluatorError):
        evaluate("math_matching", kwargs, "\\boxed{1/2}", "strict")


@FUZZ
@given(evaluator=st.text(max_size=30), kwargs=JSON, response=TEXT, mode=st.sampled_from(MODES))
def test_unknown_evaluators_are_evaluator_errors(
    evaluator: str, kwargs: Any, response: str, mode: Any
) -> None:
    if evaluator in ALL_EVALUATORS:
        return
    try:
        evaluate(evaluator, kwargs, response, mode)
    except EvaluatorError:
        return
    raise AssertionError(f"unknown evaluator {evaluator!r} was accepted")


@FUZZ
@given(TEXT)
def test_extractors_total_and_deterministic(text: str) -> None:
    assert rome_extract(text) == rome_extract(text)
    assert isinstance(rome_extract(text), str)
    assert final_answer(text) == final_answer(text)
    assert locate(text) == locate(text)


# ---------------------------------------------------------------- records


RECORD = st.fixed_dictionaries(
    {},
    optional={
        "question_id": JSON,
        "answer": JSON,
        "raw_answer": JSON,
        "reason": JSON,
        "reasoning_content": JSON,
        "reasoning": JSON,
        "reference": JSON,
        "evaluator": JSON,
        "evaluator_kwargs": JSON | TEXT.map(lambda t: "{" + t),
    },
)


@FUZZ
@given(RECORD)
def test_response_texts_and_content_hash_total(record: dict[str, Any]) -> None:
    texts = response_texts(record)
    assert isinstance(texts.reasoning, str) and isinstance(texts.answer, str)
    assert response_texts(record) == texts
    digest = content_hash(record)
    assert len(digest) == 16 and content_hash(dict(record)) == digest


@FUZZ
@given(RECORD, st.integers(0, 3))
def test_response_texts_of_every_run(record: dict[str, Any], run: int) -> None:
    texts = response_texts(record, run)
    assert isinstance(texts.answer, str)


# ---------------------------------------------------------------- loaders


def _load_outcome(path: Path, kind: str) -> Any:
    try:
        if kind == "annotations":
            return ("ok", json.dumps(load_annotations(str(path)), sort_keys=True, default=repr))
        if kind == "predictions":
            return ("ok", json.dumps(load_predictions(str(path)), sort_keys=True, default=repr))
        return ("ok", json.dumps(parse_file(str(path)).value, sort_keys=True, default=repr))
    except InputError as exc:
        assert str(path) in str(exc), exc  # every message names the file
        return ("error", str(exc))


FILE_BYTES = st.one_of(
    st.binary(max_size=300),
    JSON.map(lambda v: orjson.dumps(v)),
    st.lists(JSON, max_size=5).map(lambda vs: b"\n".join(orjson.dumps(v) for v in vs)),
    st.lists(
        st.dictionaries(
            st.sampled_from(["question_id", "answer", "evaluator", "evaluator_kwargs", "usage"]),
            JSON,
        ),
        max_size=4,
    ).map(lambda vs: json.dumps(vs, indent=2, ensure_ascii=False).encode()),
    st.tuples(st.sampled_from([b"", b"\xef\xbb\xbf", b"\n", b" \r\n"]), JSON).map(
        lambda t: t[0] + orjson.dumps(t[1])
    ),
)


@FUZZ
@given(data=FILE_BYTES, kind=st.sampled_from(["annotations", "predictions", "parse"]))
def test_loaders_total_and_deterministic(tmp_path: Path, data: bytes, kind: str) -> None:
    path = tmp_path / "input.json"
    path.write_bytes(data)
    first = _load_outcome(path, kind)
    assert _load_outcome(path, kind) == first


# ---------------------------------------------------------------- journal


ENTRY = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["e1", "e2", "e3", "e4"]),  # replaced by unique ids where needed
        "op": st.sampled_from(["set", "undo", "redo"]),
        "annotator": st.sampled_from(["ann", "bob"]),
        "time": st.sampled_from(["2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z"]),
        "question_id": st.sampled_from(["q1", "q2"]),
        "new": st.sampled_from([0, 1, 0.5]),
        "reason": st.just("why"),
        "content_hash": st.sampled_from(["h1", "h2"]),
    },
    optional={
        "old": st.sampled_from([None, 0, 1]),
        "supersedes": st.lists(st.sampled_from(["e0", "e1", "e2"]), max_size=2),
    },
)
JOURNAL_BYTES = st.one_of(
    st.binary(max_size=300),
    st.lists(ENTRY | JSON, max_size=6).map(
        lambda es: b"".join(orjson.dumps(e) + b"\n" for e in es)
    ),
    st.tuples(st.lists(ENTRY, max_size=5), st.integers(0, 40)).map(
        lambda t: b"".join(orjson.dumps(e) + b"\n" for e in t[0])[: -t[1] or None]
    ),
)


@FUZZ
@given(JOURNAL_BYTES)
def test_journal_reader_total_and_deterministic(data: bytes) -> None:
    def read() -> Any:
        try:
            got = parse_journal_bytes(data, "j.jsonl")
        except InputError as exc:
            assert "j.jsonl" in str(exc)
            return ("error", str(exc))
        assert got.good_size <= len(data)
        assert all(validate_entry(e) is None for e in got.entries)
        return ("ok", got.entries, got.warnings, got.good_size)

    assert read() == read()


def _resolved(entries: list[dict[str, Any]]) -> Any:
    replay = Replay()
    replay.extend([dict(e) for e in entries])
    out = {}
    for qid in sorted(replay.by_question):
        got = replay.resolve(qid, "h1")
        out[qid] = (
            got.human["id"] if got.human else None,
            got.stale,
            sorted(e["id"] for e in got.conflict),
        )
    return out


@FUZZ
@given(st.lists(ENTRY, max_size=10), st.randoms(use_true_random=False))
def test_journal_replay_ignores_how_reviewers_interleave(
    entries: list[dict[str, Any]], rng: Any
) -> None:
    """The journal's promise: each reviewer's own order matters, the merge order does not."""
    lines = [{**e, "id": f"e{i}"} for i, e in enumerate(entries)]
    lines = [e for e in lines if validate_entry(e) is None]
    for e in lines:
        e["supersedes"] = [s for s in e.get("supersedes", []) if s != e["id"]]
    per = {name: [e for e in lines if e["annotator"] == name] for name in ("ann", "bob")}
    merged: list[dict[str, Any]] = []
    queues = {k: list(v) for k, v in per.items()}
    while any(queues.values()):
        name = rng.choice([k for k, v in queues.items() if v])
        merged.append(queues[name].pop(0))
    by_file = per["ann"] + per["bob"]
    assert _resolved(merged) == _resolved(by_file)
    assert _resolved(merged) == _resolved(merged)


def test_floats_in_kwargs_survive_both_modes() -> None:
    """Extreme floats that JSON allows (no NaN/inf) are graded or refused, never crash."""
    for value in (1e308, -1e308, 5e-324, 0.0, -0.0, 2**63, 2**64 - 1):
        for mode in MODES:
            for response in ("Final Answer: 1e308", "Final Answer: 0", "inf", "nan"):
                outcome = _grade_twice("number_matching", {"value_to_match": value}, response, mode)
                if outcome is not None:
                    assert not math.isnan(outcome.score)


# ---------------------------------------------------------------- graded runs

REVIEW = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {},
        optional={
            "verdicts": st.one_of(
                JSON,
                st.lists(
                    st.fixed_dictionaries(
                        {
                            "source": st.sampled_from(
                                ["rule:rome", "rule:strict", "judge:rome", "x"]
                            )
                            | JSON
                        },
                        optional={"score": JSON | st.sampled_from([0, 1, 0.5]), "error": JSON},
                    ),
                    max_size=3,
                ),
            ),
            "flags": JSON,
            "history": JSON,
            "human": JSON,
            "primary": JSON,
            "content_hash": JSON,
        },
    ),
)
GRADED = st.fixed_dictionaries(
    {"question_id": st.sampled_from(["q1", "q2", "q3"]) | JSON},
    optional={
        "answer": JSON,
        "raw_answer": JSON,
        "correct": JSON | st.sampled_from([0, 1, 0.5]),
        "correct_strict": JSON,
        "task": JSON | st.sampled_from(["a", "b"]),
        "model": JSON,
        "usage": JSON,
        "evaluator_kwargs": JSON,
        "review": REVIEW,
    },
)


@settings(
    max_examples=100,
    deadline=DEADLINE,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(records=st.lists(GRADED, min_size=1, max_size=5))
def test_graded_runs_load_summarise_and_open_or_fail_cleanly(
    tmp_path_factory: Any, records: list[dict[str, Any]]
) -> None:
    """load_results, scores, summary and the store on any graded records: a result or a RomeTuiError."""
    from scorers.adjudicate.store import ResultsStore
    from scorers.errors import RomeTuiError
    from scorers.io.results import load_results
    from scorers.io.scores import scores_of
    from scorers.stats.summary import SummaryOptions, summarise

    run = tmp_path_factory.mktemp("run")
    (run / "updated_predictions.json").write_bytes(orjson.dumps(records))

    def outcome() -> Any:
        try:
            loaded = load_results(run)
            scores = scores_of(loaded.records, loaded.settings)
            summary = summarise([("m", loaded.records)], SummaryOptions(n_resamples=20))
            with ResultsStore.open(run, annotator="fuzz") as store:
                baseline = [repr(store.baseline_score(i)) for i in range(len(store))]
            return ("ok", repr(scores), repr(summary)[:2000], baseline)
        except RomeTuiError as exc:
            return ("error", str(exc))

    assert outcome() == outcome()


@pytest.mark.slow
def test_math_matching_survives_deep_nesting_in_answers() -> None:
    """Deeply nested groups, signs and commands in an answer are not a number, not a crash."""
    from scorers.evaluate.mathmatch import set_time_limit, time_limit

    before = time_limit()
    set_time_limit(0.5)  # math-verify gives up on these after its limit; no need to wait 5 s
    try:
        for answer in (
            "(" * 100_000 + "1",
            "-" * 100_000 + "1",
            "\\frac" * 50_000 + "1",
            "\\sin" * 50_000 + "1",
            "{" * 100_000 + "1" + "}" * 100_000,
        ):
            outcome = evaluate("math_matching", {"answer": "\\frac{1}{2}"}, answer, "strict")
            assert outcome.score == 0, outcome
    finally:
        set_time_limit(before)
    # Nesting a person would write still evaluates.
    ok = evaluate("math_matching", {"answer": "\\frac{1}{2}"}, "\\boxed{((((1))))/((2))}", "strict")
    assert ok.score == 1, ok
