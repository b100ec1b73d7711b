"""The journal file format, torn lines, and how reviewers' journals merge."""

from __future__ import annotations

import random
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from store_fixtures import by_id, journal_lines, make_run

from scorers.adjudicate.journal import Replay, parse_journal_bytes, validate_entry
from scorers.adjudicate.store import ResultsStore
from scorers.errors import InputError


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return make_run(tmp_path / "run")


def test_journal_line_format(run: Path) -> None:
    store = ResultsStore.open(run, annotator="Ana María")
    store.override("q1", 0.5, "half")
    store.undo()
    path = store.journal_path()
    assert path.parent == run / "journal" and path.suffix == ".jsonl"
    assert path.name.startswith("Ana_Mar") and path.name != "Ana_Mar_a.jsonl"  # unsafe name: hashed
    raw = path.read_bytes()
    assert raw.endswith(b"\n") and raw.count(b"\n") == 2
    first, second = (orjson.loads(line) for line in raw.splitlines())
    assert set(first) >= {
        "id",
        "op",
        "annotator",
        "time",
        "question_id",
        "old",
        "new",
        "reason",
        "content_hash",
    }
    assert (first["op"], first["annotator"], first["old"], first["new"]) == (
        "set",
        "Ana María",
        1,
        0.5,
    )
    assert second["op"] == "undo" and second["target"] == first["id"]
    assert (second["old"], second["new"]) == (0.5, 1)


def test_torn_last_line_is_ignored_with_a_warning_then_repaired(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    store.override("q2", 1, "kept")
    store.close()
    path = run / "journal" / "alice.jsonl"
    with open(path, "ab") as handle:  # a crash in the middle of the next append
        handle.write(b'{"v":1,"id":"abc","op":"set","annot')
    again = ResultsStore.open(run, annotator="alice")
    assert any("incomplete last line ignored" in w and "alice.jsonl:2" in w for w in again.warnings)
    assert again.records[1]["correct"] == 1.0
    # The next append drops the torn bytes first, so the file stays valid JSON Lines.
    again.override("q3", 1, "after the crash")
    lines = path.read_bytes().splitlines()
    assert [orjson.loads(line)["question_id"] for line in lines] == ["q2", "q3"]
    assert ResultsStore.open(run, annotator="bob").records[2]["correct"] == 1.0


def test_whole_last_line_without_newline_is_kept(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    store.override("q2", 1, "kept")
    store.close()
    path = run / "journal" / "alice.jsonl"
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    again = ResultsStore.open(run, annotator="alice")
    assert again.records[1]["correct"] == 1.0
    again.override("q3", 1, "next")
    assert [orjson.loads(x)["question_id"] for x in path.read_bytes().splitlines()] == ["q2", "q3"]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (b"not json", "invalid journal line"),
        (b"[1, 2]", "expected a JSON object"),
        (b'{"op": "delete"}', "`op` must be one of"),
        (
            b'{"id":"x","op":"set","annotator":"a","time":"t","question_id":"q1","old":0,"new":2,"reason":"r","content_hash":"h"}',
            "`new` must be a number in [0, 1]",
        ),
        (
            b'{"id":"x","op":"set","annotator":"a","time":"t","question_id":"q1","old":0,"new":1,"reason":"","content_hash":"h"}',
            "`reason` of a set must be a non-empty string",
        ),
    ],
)
def test_bad_line_in_the_middle_names_file_and_line(run: Path, line: bytes, problem: str) -> None:
    store = ResultsStore.open(run, annotator="alice")
    store.override("q2", 1, "first")
    store.close()
    path = run / "journal" / "alice.jsonl"
    good = path.read_bytes()
    path.write_bytes(good + line + b"\n" + good)
    with pytest.raises(InputError) as caught:
        ResultsStore.open(run, annotator="alice")
    assert caught.value.path == str(path) and caught.value.line == 2
    assert problem in str(caught.value)
    assert "mended" in str(caught.value) and "deleted" in str(caught.value)  # the way out


def test_two_concurrent_reviewers_same_item_different_scores_is_a_conflict(run: Path) -> None:
    alice = ResultsStore.open(run, annotator="alice")
    bob = ResultsStore.open(run, annotator="bob")  # opened before alice's override: unaware
    alice.override("q2", 1, "correct city")
    bob.override("q2", 0, "wrong city")
    bob.override("q3", 1, "only bob")
    alice.override("q4", 0, "only alice")
    merged = ResultsStore.open(run, annotator="carol")
    review = merged.records[1]["review"]
    assert review["human"]["annotator"] == "bob"  # the later one is shown...
    assert [(c["annotator"], c["score"]) for c in review["conflict"]] == [
        ("alice", 1.0)
    ]  # ...with the other
    assert "override_conflict" in {f["kind"] for f in review["flags"]}
    assert [h["annotator"] for h in review["history"]] == ["alice", "bob"]
    assert merged.records[2]["correct"] == 1.0 and merged.records[3]["correct"] == 0.0
    assert "conflict" not in merged.records[2]["review"]
    merged.write_back()
    assert by_id(run)["q2"]["review"]["conflict"][0]["annotator"] == "alice"


def test_same_score_from_two_reviewers_is_agreement(run: Path) -> None:
    alice = ResultsStore.open(run, annotator="alice")
    bob = ResultsStore.open(run, annotator="bob")
    alice.override("q2", 1, "yes")
    bob.override("q2", 1, "yes too")
    merged = ResultsStore.open(run, annotator="carol")
    assert "conflict" not in merged.records[1]["review"]
    assert merged.records[1]["correct"] == 1.0


def test_override_that_saw_the_other_supersedes_it(run: Path) -> None:
    alice = ResultsStore.open(run, annotator="alice")
    alice.override("q2", 1, "yes")
    bob = ResultsStore.open(run, annotator="bob")  # sees alice's override, replaces it deliberately
    bob.override("q2", 0, "no: misread")
    merged = ResultsStore.open(run, annotator="carol")
    assert "conflict" not in merged.records[1]["review"]
    assert merged.records[1]["correct"] == 0.0
    bob.undo()  # bob withdraws; alice's override comes back into force
    again = ResultsStore.open(run, annotator="carol")
    assert again.records[1]["correct"] == 1.0


def test_conflict_resolved_by_a_reviewer_who_sees_it(run: Path) -> None:
    alice = ResultsStore.open(run, annotator="alice")
    bob = ResultsStore.open(run, annotator="bob")
    alice.override("q2", 1, "yes")
    bob.override("q2", 0, "no")
    carol = ResultsStore.open(run, annotator="carol")
    assert carol.conflicts(1)
    carol.override("q2", 1, "adjudicated: yes")
    final = ResultsStore.open(run, annotator="dave")
    assert not final.conflicts(1) and final.records[1]["correct"] == 1.0


def test_unknown_question_in_journal_is_a_warning(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    store.override("q1", 0, "x")
    store.close()
    path = run / "journal" / "alice.jsonl"
    line = orjson.loads(path.read_bytes())
    line.update(id="other", question_id="gone")
    path.write_bytes(path.read_bytes() + orjson.dumps(line) + b"\n")
    again = ResultsStore.open(run, annotator="alice")
    assert any("1 question_id(s)" in w and "first: gone" in w for w in again.warnings)
    assert again.records[0]["correct"] == 0.0


def test_history_survives_a_lost_journal(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    store.override("q2", 1, "x")
    store.write_back()
    store.close()
    for path in (run / "journal").iterdir():
        path.unlink()
    again = ResultsStore.open(run, annotator="alice")
    assert again.records[1]["correct"] == 1.0 and again.can_undo()
    again.undo()
    again.write_back()
    assert by_id(run)["q2"]["correct"] == 0
    assert [line["op"] for line in journal_lines(run)] == ["undo"]


# -- replay is independent of how reviewers' lines interleave (git merges, clocks)


def _script(seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    lines: list[dict[str, object]] = []
    seen: dict[str, list[str]] = {}
    for k in range(30):
        who = rng.choice(["a", "b", "c"])
        op = rng.choice(["set", "set", "undo", "redo"])
        q = rng.choice(["q1", "q2"])
        line: dict[str, object] = {
            "id": f"{who}{k}",
            "op": op,
            "annotator": who,
            "time": f"2026-01-01T00:00:{rng.randrange(60):02d}.000000Z",
            "question_id": q,
            "old": None,
            "new": rng.choice([0, 0.5, 1]) if op == "set" else None,
            "content_hash": "h",
        }
        if op == "set":
            line["reason"] = "r"
            line["supersedes"] = rng.sample(seen.get(q, []), k=min(1, len(seen.get(q, []))))
            seen.setdefault(q, []).append(str(line["id"]))
        assert validate_entry(line) is None
        lines.append(line)
    return lines


def _state(lines: list[dict[str, object]]) -> list[tuple[object, ...]]:
    replay = Replay()
    replay.extend(dict(line) for line in lines)
    out = []
    for q in ("q1", "q2"):
        r = replay.resolve(q, "h")
        out.append(
            (
                r.human and r.human["id"],
                r.stale,
                sorted(e["id"] for e in r.conflict),
                [e["id"] for e in r.history],
            )
        )
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), order=st.randoms(use_true_random=False))
def test_replay_does_not_depend_on_interleaving(seed: int, order: random.Random) -> None:
    lines = _script(seed)
    expected = _state(lines)
    queues = {who: [x for x in lines if x["annotator"] == who] for who in "abc"}
    shuffled = []
    while any(queues.values()):
        who = order.choice([w for w, q in queues.items() if q])
        shuffled.append(queues[who].pop(0))
    assert _state(shuffled) == expected


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=400))
def test_parser_never_crashes_on_garbage(data: bytes) -> None:
    try:
        read = parse_journal_bytes(data, "j.jsonl")
    except InputError as exc:
        assert exc.path == "j.jsonl" and exc.line is not None
    else:
        assert all(validate_entry(e) is None for e in read.entries)
        assert read.good_size <= len(data)


def test_parser_every_truncation_of_a_valid_journal() -> None:
    lines = b"".join(orjson.dumps(x) + b"\n" for x in _script(7)[:5])
    full = parse_journal_bytes(lines, "j").entries
    for cut in range(len(lines) + 1):
        read = parse_journal_bytes(lines[:cut], "j")
        assert read.entries == full[: len(read.entries)]
        assert len(read.entries) >= lines[:cut].count(b"\n")  # every whole line is kept
    assert len(full) == 5


def test_same_annotator_in_two_processes_shares_one_undo_stack(run: Path) -> None:
    # The app open and `rome-tui override` run by the same person: one journal file.
    app = ResultsStore.open(run, annotator="alice")
    cli = ResultsStore.open(run, annotator="alice")
    app.override("q1", 0, "from the app")
    cli.override("q2", 1, "from the command line")  # picks up the app's line first
    assert cli.records[0]["correct"] == 0.0
    lines = journal_lines(run)
    assert [(x["question_id"], x["annotator"]) for x in lines] == [("q1", "alice"), ("q2", "alice")]
    # The app learns of the command-line override at its next change, then undoes it first.
    undone = app.undo()
    assert undone is not None and undone["question_id"] == "q2"
    assert app.records[1]["correct"] == 0 and app.records[0]["correct"] == 0.0
    final = ResultsStore.open(run, annotator="bob")
    assert [r["correct"] for r in final.records] == [0.0, 0, 0, 1]
