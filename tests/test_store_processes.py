"""Reviewers in separate processes, the command line, and the annotator name."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from store_fixtures import by_id, journal_lines, load_json, make_run

from scorers.adjudicate.annotator import resolve_annotator
from scorers.adjudicate.store import ResultsStore

ROOT = Path(__file__).resolve().parent.parent

REVIEWER = textwrap.dedent(
    """
    import pathlib, sys, time
    from scorers.errors import ConflictError
    from scorers.adjudicate.store import ResultsStore

    run, who, score, barrier = sys.argv[1], sys.argv[2], float(sys.argv[3]), pathlib.Path(sys.argv[4])
    store = ResultsStore.open(run, annotator=who)
    # Both have the run open before either overrides: neither knows the other's q2.
    (barrier / who).touch()
    while len(list(barrier.iterdir())) < 2:
        time.sleep(0.005)
    mine = [f"x{k}" for k in range(20) if (k % 2 == 0) == (who == "alice")]
    for n, qid in enumerate(["q2"] + mine):
        store.override(qid, score if qid == "q2" else n % 2, f"{who} on {qid}")
        for _ in range(20):
            try:
                store.write_back()
                break
            except ConflictError:
                store.reload()
        else:
            raise SystemExit("could not write back")
    print("done")
    """
)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("ROME_TUI_ANNOTATOR", None)
    return env


@pytest.mark.slow
def test_two_reviewers_in_two_processes_lose_nothing(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", n_extra=20)
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", REVIEWER, str(run), who, score, str(barrier)],
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for who, score in (("alice", "1"), ("bob", "0"))
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert out.strip() == "done"

    lines = journal_lines(run)
    assert len(lines) == 22  # q2 by each, plus ten items each
    assert sorted(p.name for p in (run / "journal").iterdir()) == ["alice.jsonl", "bob.jsonl"]
    # Both processes opened before seeing each other's q2 override -> a conflict...
    merged = ResultsStore.open(run, annotator="carol")
    review = merged.records[merged.index_of("q2")]["review"]
    scores = {review["human"]["score"]} | {c["score"] for c in review.get("conflict", [])}
    assert scores == {0.0, 1.0}, review
    assert "override_conflict" in {f["kind"] for f in review["flags"]}
    # ...and every other override is in force, in memory and in the last written files.
    disk = by_id(run)
    for k in range(20):
        i = merged.index_of(f"x{k}")
        who = "alice" if k % 2 == 0 else "bob"
        assert merged.records[i]["review"]["human"]["annotator"] == who
        assert disk[f"x{k}"]["review"].get("human", {}).get("annotator") == who, k
    assert disk["q2"]["review"].get("conflict"), "the last write-back saw both q2 overrides"


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rome_tui", *args],
        env=env or _env(),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def test_cli_override_and_undo(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run")
    done = _cli(
        "override", str(run), "q2", "0.75", "--reason", "mostly right", "--annotator", "alice"
    )
    assert done.returncode == 0, done.stderr
    assert "q2: 0 -> 0.75 by alice" in done.stdout
    assert by_id(run)["q2"]["correct"] == 0.75
    assert load_json(run / "scores.json")["geo"][:3] == [1.75, 2, 0.875]

    undone = _cli("undo", str(run), "--annotator", "alice")
    assert undone.returncode == 0, undone.stderr
    assert "undo q2: 0.75 -> 0" in undone.stdout
    assert by_id(run)["q2"]["correct"] == 0
    nothing = _cli("undo", str(run), "--annotator", "alice")
    assert nothing.returncode == 4 and "nothing to undo" in nothing.stderr
    redone = _cli("undo", str(run), "--redo", "--annotator", "alice")
    assert redone.returncode == 0 and by_id(run)["q2"]["correct"] == 0.75
    # Another annotator has nothing of their own to undo.
    assert _cli("undo", str(run), "--annotator", "bob").returncode == 4


@pytest.mark.parametrize(("typed", "score"), [("1/2", 0.5), ("75%", 0.75)])
def test_cli_override_reads_a_score_as_the_app_does(
    tmp_path: Path, typed: str, score: float
) -> None:
    # The app's dialog took 1/2 and 50%; the command said "must be a number".
    run = make_run(tmp_path / "run")
    done = _cli("override", str(run), "q2", typed, "--reason", "partly", "--annotator", "al")
    assert done.returncode == 0, done.stderr
    assert by_id(run)["q2"]["correct"] == score


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope", "1", "--reason", "x"], "no item with question_id 'nope'"),
        (["q1", "1.5", "--reason", "x"], "between 0 and 1"),
        (["q1", "high", "--reason", "x"], "between 0 and 1"),
        (["q1", "nan", "--reason", "x"], "between 0 and 1"),
        (["q1", "1", "--reason", "  "], "needs a reason"),
        (["q1", "1"], "required: --reason"),
    ],
)
def test_cli_override_errors(tmp_path: Path, args: list[str], message: str) -> None:
    run = make_run(tmp_path / "run")
    before = (run / "updated_predictions.json").read_bytes()
    done = _cli("override", str(run), *args, "--annotator", "alice")
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert (run / "updated_predictions.json").read_bytes() == before
    assert journal_lines(run) == []


def test_cli_missing_results_is_an_input_error(tmp_path: Path) -> None:
    done = _cli("override", str(tmp_path / "none"), "q1", "1", "--reason", "x")
    assert done.returncode == 2 and "no such file" in done.stderr


def test_annotator_resolution_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "cfg" / "rome-tui" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('# who I am\nannotator = "from-config"\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.delenv("ROME_TUI_CONFIG", raising=False)
    monkeypatch.setenv("ROME_TUI_ANNOTATOR", "from-env")
    assert resolve_annotator("from-option") == "from-option"
    assert resolve_annotator(None) == "from-env"
    monkeypatch.delenv("ROME_TUI_ANNOTATOR")
    assert resolve_annotator(None) == "from-config"
    config.write_text("other = 1\n")
    monkeypatch.setenv("USER", "login-name")
    monkeypatch.setenv("LOGNAME", "login-name")
    assert resolve_annotator(None) == "login-name"


def test_bad_config_is_an_input_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorers.errors import InputError

    config = tmp_path / "config.toml"
    config.write_text("annotator = \n")
    monkeypatch.setenv("ROME_TUI_CONFIG", str(config))
    monkeypatch.delenv("ROME_TUI_ANNOTATOR", raising=False)
    with pytest.raises(InputError, match="invalid TOML"):
        resolve_annotator(None)


def test_cli_write_back_merges_a_concurrent_change_then_gives_up_if_it_never_stops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rome_tui.commands.override import write_back_with_retry
    from scorers.errors import ConflictError

    run = make_run(tmp_path / "run")
    target = run / "updated_predictions.json"
    store = ResultsStore.open(run, annotator="alice")
    store.override("q1", 0, "mine")
    target.write_bytes(target.read_bytes().replace(b"Question q4?", b"Question Q4?"))
    write_back_with_retry(store, "override")
    assert "re-reading them and every journal" in capsys.readouterr().err
    disk = by_id(run)
    assert disk["q4"]["question"] == "Question Q4?" and disk["q1"]["correct"] == 0.0

    store.override("q2", 1, "again")
    plain_reload = store.reload

    def reload_while_someone_keeps_writing() -> None:
        plain_reload()
        target.write_bytes(target.read_bytes() + b"\n")

    store.reload = reload_while_someone_keeps_writing  # type: ignore[method-assign]
    target.write_bytes(target.read_bytes() + b" ")
    before = target.read_bytes()
    with pytest.raises(ConflictError, match="gave up after 3 attempts"):
        write_back_with_retry(store, "override")
    assert target.read_bytes() == before + b"\n\n"  # only their writes, none of ours
    assert journal_lines(run)[-1]["question_id"] == "q2"  # the override itself is safe
