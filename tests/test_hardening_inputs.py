"""Every file of the hostile corpus through grade, summary, override and review.

The manifest (tests/data/hostile/manifest.json) says what each file plays and
whether it must load (exit 0, with the named warning where something was
repaired or skipped) or be rejected (exit 2, one line naming the file, the
record or line, and the problem). Nothing may print a traceback or hang.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from hardening_fixtures import (
    CORPUS_DIR,
    OUTCOMES,
    ROLES,
    TERMINAL_ATTACKS,
    command_argv,
    companion_run,
    judge_outcome,
    known_open,
    last_lines,
    load_manifest,
    materialize,
    results_dir_of,
    run_cli,
    shown_path,
    write_base_inputs,
)

from scorers.errors import RomeTuiError
from scorers.io.results import load_results

MANIFEST = load_manifest()
BY_FILE = {entry["file"]: entry for entry in MANIFEST}
TIMEOUT = 60.0
VENV_BIN = Path(sys.executable).parent


def _cases(*roles: str, command: str, slow: bool = False) -> list[Any]:
    params = []
    for entry in MANIFEST:
        if entry["role"] not in roles:
            continue
        marks = [pytest.mark.slow] if slow or "generate" in entry else []
        marks += known_open(entry["file"], command)
        params.append(pytest.param(entry, id=entry["file"], marks=marks))
    return params


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile")


def test_corpus_is_complete_and_described() -> None:
    committed = {p.name for p in CORPUS_DIR.iterdir() if p.name != "manifest.json"}
    generated = {e["file"] for e in MANIFEST if "generate" in e}
    listed = {e["file"] for e in MANIFEST}
    assert len(MANIFEST) >= 40
    assert committed == listed - generated, "every committed file is in the manifest and back"
    for entry in MANIFEST:
        assert entry["role"] in ROLES and entry["expect"] in OUTCOMES, entry
        assert entry["plays"], entry
        assert not ("where" in entry and entry["expect"] == "loads"), entry
    assert {e["role"] for e in MANIFEST} == set(ROLES)
    assert {e["expect"] for e in MANIFEST} == set(OUTCOMES)


@pytest.mark.parametrize("entry", _cases("annotations", "predictions", command="grade"))
def test_grade(entry: dict[str, Any], work: Path) -> None:
    corpus_file = materialize(entry, work)
    argv = command_argv(entry, corpus_file, work)["grade"]
    ran = run_cli(argv, TIMEOUT)
    assert judge_outcome(entry, ran, shown_path(entry, corpus_file, work)) == []
    if entry["expect"] == "loads":
        out = work / f"graded_{corpus_file.stem}"
        for name in ("updated_predictions.json", "scores.json", "run.json"):
            orjson.loads((out / name).read_bytes())  # every file written parses
        assert orjson.loads(ran.out)["final_score"], "scores printed as JSON"
        if entry.get("flag"):
            records = orjson.loads((out / "updated_predictions.json").read_bytes())
            kinds = [{f["kind"] for f in r["review"]["flags"]} for r in records]
            assert all(entry["flag"] in k for k in kinds), kinds


def _check_override(run: Path, qid: str) -> None:
    records = orjson.loads((run / "updated_predictions.json").read_bytes())
    if isinstance(records, dict):
        records = [records]
    mine = [r for r in records if str(r.get("question_id")) == qid]
    assert mine, f"{qid} not in the written file"
    human = mine[0]["review"].get("human")
    assert human and human["score"] == 0.5 and human["reason"] == "hardening check", human
    journal = (run / "journal" / "hardening.jsonl").read_bytes().splitlines()
    assert any(orjson.loads(line)["question_id"] == qid for line in journal)
    orjson.loads((run / "scores.json").read_bytes())


RESULTS_ROLES = ("results", "journal", "run_settings")


@pytest.mark.parametrize("entry", _cases(*RESULTS_ROLES, command="summary"))
def test_summary(entry: dict[str, Any], work: Path) -> None:
    _results_command(entry, "summary", work)


@pytest.mark.parametrize("entry", _cases(*RESULTS_ROLES, command="override"))
def test_override(entry: dict[str, Any], work: Path) -> None:
    _results_command(entry, "override", work)


def _results_command(entry: dict[str, Any], command: str, work: Path) -> None:
    corpus_file = materialize(entry, work)
    scratch = work / command
    scratch.mkdir(exist_ok=True)
    argv = command_argv(entry, corpus_file, scratch)[command]
    ran = run_cli(argv, TIMEOUT)
    assert judge_outcome(entry, ran, shown_path(entry, corpus_file, scratch)) == []
    if command == "summary" and entry["expect"] == "loads":
        summary = orjson.loads(ran.out)
        # Every record of the run is counted, save those without a readable score
        # (``summary_n`` in the manifest says how many are left for such files).
        records = load_results(Path(argv[1])).records
        assert summary["overall"]["n"] == entry.get("summary_n", len(records)) > 0
    if command == "override" and entry["expect"] == "loads":
        _check_override(Path(argv[1]), entry["override_qid"])


def _graded_outputs() -> list[Any]:
    return [
        pytest.param(
            entry, id=entry["file"], marks=[pytest.mark.slow] if "generate" in entry else []
        )
        for entry in MANIFEST
        if entry["role"] in ("annotations", "predictions") and entry["expect"] == "loads"
    ]


@pytest.mark.parametrize("entry", _graded_outputs())
def test_graded_hostile_output_through_summary_and_override(
    entry: dict[str, Any], work: Path
) -> None:
    """What grade wrote from a hostile input is itself a valid run for the other commands."""
    corpus_file = materialize(entry, work)
    scratch = work / "chain"
    scratch.mkdir(exist_ok=True)
    argv = command_argv(entry, corpus_file, scratch)["grade"]
    assert run_cli(argv, TIMEOUT).code == 0
    run = Path(argv[argv.index("--out-dir") + 1])
    records = orjson.loads((run / "updated_predictions.json").read_bytes())
    qid = str(records[0]["question_id"])
    ran = run_cli(["summary", str(run), "--format", "json", "--bootstrap", "50"], TIMEOUT)
    assert ran.code == 0 and not ran.traceback, last_lines(ran.err)
    ran = run_cli(
        [
            "override",
            str(run),
            qid,
            "0.5",
            "--reason",
            "hardening check",
            "--annotator",
            "hardening",
        ],
        TIMEOUT,
    )
    assert ran.code == 0 and not ran.traceback, last_lines(ran.err)
    _check_override(run, qid)
    ran = run_cli(["undo", str(run), "--annotator", "hardening"], TIMEOUT)
    assert ran.code == 0 and not ran.traceback, last_lines(ran.err)
    after = orjson.loads((run / "updated_predictions.json").read_bytes())
    assert not [r for r in after if str(r["question_id"]) == qid][0]["review"].get("human")


# ---------------------------------------------------------------- review, headless


def _review_run(entry: dict[str, Any], corpus_file: Path, work: Path) -> Path:
    scratch = work / "review"
    scratch.mkdir(exist_ok=True)
    if entry["role"] == "results":
        return results_dir_of(corpus_file, scratch)
    if entry["role"] in ("journal", "run_settings"):
        return companion_run(entry, corpus_file, scratch)
    argv = command_argv(entry, corpus_file, scratch)["grade"]
    assert run_cli(argv, TIMEOUT).code == 0
    return Path(argv[argv.index("--out-dir") + 1])


# A few inputs stay in the quick run; the app takes about a second per input.
QUICK_REVIEW = {
    "r19_markup_everywhere.json",
    "p19_markup_everywhere.jsonl",
    "r20_judge_address.json",
    "r13_verdict_fields_wrong.json",
    "j05_markup_reason.jsonl",
    "r02_truncated.json",
    "p34_hostile_ids.json",
    "a24_markup_fields.json",
}
REVIEW_CASES = [
    pytest.param(
        entry,
        id=entry["file"],
        marks=known_open(entry["file"], "review")
        + ([] if entry["file"] in QUICK_REVIEW else [pytest.mark.slow]),
    )
    for entry in MANIFEST
    if entry["role"] in RESULTS_ROLES or entry["expect"] == "loads"
]


@pytest.mark.parametrize("entry", REVIEW_CASES)
async def test_review_headless(entry: dict[str, Any], work: Path) -> None:
    try:
        from rome_tui.app.app import ReviewApp
    except ImportError as exc:  # pragma: no cover - the app engineer's module
        pytest.skip(f"rome_tui.app.app.ReviewApp is missing: {exc}")
    from scorers.adjudicate.store import ResultsStore

    corpus_file = materialize(entry, work)
    run = _review_run(entry, corpus_file, work)
    expect = entry["expect"] if entry["role"] not in ("annotations", "predictions") else "loads"
    if expect == "rejected":
        with pytest.raises(RomeTuiError):
            ResultsStore.open(run, annotator="hardening").close()
        # Only now is the CLI safe to run in-process: it fails before starting the app.
        ran = run_cli(["review", str(run), "--annotator", "hardening"], TIMEOUT)
        scratch = work / "review"
        assert judge_outcome(entry, ran, shown_path(entry, corpus_file, scratch)) == []
        return
    store = ResultsStore.open(run, annotator="hardening")
    app = ReviewApp(store)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            shown = len(app.review.table.view)
            for keys in (
                ("down", "down", "up"),
                ("n", "e", "E"),
                ("tab", "end", "home", "tab"),
                ("t",),
                ("escape", "question_mark"),
                ("escape", "slash", "b", "o", "l", "d", "escape"),
                ("G", "g"),
            ):
                await pilot.press(*keys)
                await pilot.pause()
                screen = app.export_screenshot()
                leaked = [seq for seq in TERMINAL_ATTACKS if seq in screen]
                assert not leaked, f"after {keys}: raw terminal sequences on screen: {leaked}"
            await app.workers.wait_for_complete()
    finally:
        store.close()
    assert shown == len(store.records)


# ---------------------------------------------------------------- real subprocesses


SUBPROCESS_CASES = [
    "a27_deep_nesting.json",
    "p19_markup_everywhere.jsonl",
    "p29_huge_answer.json",
    "p31_deep_nesting.json",
    "r19_markup_everywhere.json",
    "r02_truncated.json",
    "r27_deep_nesting.json",
    "j02_bad_middle_line.jsonl",
]


@pytest.mark.slow
@pytest.mark.parametrize("name", SUBPROCESS_CASES)
def test_real_command_line(name: str, work: Path) -> None:
    """The installed ``rome-tui`` script: exit codes and stderr as a user sees them."""
    entry = BY_FILE[name]
    corpus_file = materialize(entry, work)
    scratch = work / "subprocess"
    scratch.mkdir(exist_ok=True)
    write_base_inputs(scratch)
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    for command, argv in command_argv(entry, corpus_file, scratch).items():
        proc = subprocess.run(
            [str(VENV_BIN / "rome-tui"), *argv],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            env=env,
        )
        from hardening_fixtures import Ran

        ran = Ran(proc.returncode, proc.stdout, proc.stderr)
        assert judge_outcome(entry, ran, shown_path(entry, corpus_file, scratch)) == [], command
        if entry["expect"] == "rejected":
            assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "latex", "json"])
def test_summary_formats_show_hostile_text_literally(fmt: str, work: Path) -> None:
    """Model and bucket names full of markup and escapes: printed as text, never as codes."""
    entry = BY_FILE["r19_markup_everywhere.json"]
    scratch = work / f"formats_{fmt}"
    scratch.mkdir(exist_ok=True)
    run = results_dir_of(materialize(entry, work), scratch)
    ran = run_cli(["summary", str(run), "--format", fmt, "--bootstrap", "50"], TIMEOUT)
    assert ran.code == 0 and not ran.traceback, last_lines(ran.err)
    leaked = [seq for seq in TERMINAL_ATTACKS if seq in ran.out]
    assert not leaked, f"raw terminal sequences printed: {leaked}"
    assert "PWNED" in ran.out
    if fmt in ("table", "markdown", "csv"):
        assert "[bold red]PWNED[/]" in ran.out, "markup was interpreted instead of shown"


@pytest.mark.parametrize("entry", _cases("results", command="judge"))
def test_judge_dry_run(entry: dict[str, Any], work: Path) -> None:
    """`rome-tui judge --dry-run` reads results like every other command (no request is sent)."""
    corpus_file = materialize(entry, work)
    scratch = work / "judge"
    scratch.mkdir(exist_ok=True)
    run = results_dir_of(corpus_file, scratch)
    ran = run_cli(["judge", str(run), "--judge", "rome", "--dry-run"], TIMEOUT)
    expect = dict(entry, warning=None)  # judge prints only the loader's warnings
    assert judge_outcome(expect, ran, shown_path(entry, corpus_file, scratch)) == []
    if entry["expect"] == "loads":
        assert "dry run: judge rome" in ran.out


def _pty_run(argv: list[str]) -> tuple[int, str]:
    """Run the installed script with stdout on a pseudo-terminal, as a user at a terminal."""
    import pty
    import select

    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "LINES": "40", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [str(VENV_BIN / "rome-tui"), *argv], stdout=follower, stderr=subprocess.PIPE, env=env
    )
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], TIMEOUT)
        if not ready:
            proc.kill()
            break
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    proc.wait(timeout=TIMEOUT)
    return proc.returncode, b"".join(chunks).decode("utf-8", "replace")


def test_grade_table_on_a_terminal_shows_hostile_bucket_names_literally(work: Path) -> None:
    scratch = work / "tty_grade"
    scratch.mkdir(exist_ok=True)
    _, base_p = write_base_inputs(scratch)
    annotations = CORPUS_DIR / "a24_markup_fields.json"
    code, out = _pty_run(
        [
            "grade",
            "--annotations",
            str(annotations),
            "--predictions",
            str(base_p),
            "--out-dir",
            str(scratch / "o"),
        ]
    )
    assert code == 0 and "PWNED" in out, out[-500:]
    leaked = [seq for seq in TERMINAL_ATTACKS if seq in out]
    assert not leaked, f"raw terminal sequences printed: {leaked}"


@pytest.mark.slow
def test_unclosed_boxes_do_not_hang_grade(work: Path) -> None:
    """One 1 MB answer of unclosed ``\\boxed{``: linear work, so far below the time limit.

    Run as a subprocess so that a hang is killed at the limit instead of burning a core.
    """
    scratch = work / "boxes"
    scratch.mkdir(exist_ok=True)
    base_a, _ = write_base_inputs(scratch)
    preds = scratch / "boxes.json"
    answer = "\\boxed{" * 140_000 + "1"
    preds.write_bytes(orjson.dumps([{"question_id": "q2", "answer": answer}]))
    argv = [
        "grade",
        "--annotations",
        str(base_a),
        "--predictions",
        str(preds),
        "--out-dir",
        str(scratch / "o"),
    ]
    try:
        proc = subprocess.run(
            [str(VENV_BIN / "rome-tui"), *argv], capture_output=True, text=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"grade still running after {TIMEOUT:.0f} s on a 1 MB answer")
    assert proc.returncode == 0, proc.stderr[-1000:]


@pytest.mark.parametrize("name", ["updated_predictions.json", "scores.json", "run.json"])
def test_grade_refuses_an_output_file_that_is_a_directory(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A directory where grade writes a file: exit 2 naming it, not an OSError traceback
    (the streamed and the whole-file path alike), and the directory is left alone."""
    a, p = write_base_inputs(tmp_path)
    out = tmp_path / "out"
    (out / name).mkdir(parents=True)
    from scorers.grade import run as grade_run

    for streamed in (True, False):
        if not streamed:
            monkeypatch.setattr(grade_run, "_streamed", lambda *args: None)
        argv = ["grade", "--annotations", str(a), "--predictions", str(p), "--out-dir", str(out)]
        ran = run_cli(argv)
        assert ran.code == 2, ran.err
        assert ran.err.strip().splitlines() == [
            f"rome-tui grade: error: {out / name}: is a directory, not a file grade can write"
        ]
        assert (out / name).is_dir()
    from scorers.errors import InputError
    from scorers.grade.run import grade_files
    from scorers.io.run_paths import ResultsPaths
    from scorers.io.run_settings import RunSettings

    with pytest.raises(InputError, match="is a directory"):  # the API, as the command
        grade_files(str(a), str(p), RunSettings(), paths=ResultsPaths.of(out))
