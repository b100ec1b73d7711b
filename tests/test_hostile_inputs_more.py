"""Hostile inputs beyond the committed corpus (tests/data/hostile/): text in the wrong
encoding, and a run whose files are directories or unreadable. Each runs the real CLI
(``rome_tui.cli.main``) and asserts exit 2, no traceback, and a message that names the
file (and the line or record where there is one)."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai_server import FakeOpenAIServer
from hardening_fixtures import Ran, run_cli
from judges_fixtures import serve_as_default

EXAMPLE = Path(__file__).parent / "data" / "grading" / "example"
QID = "question_diagrams_2"


def rejected(ran: Ran, *names: str) -> str:
    """The one error line, after checking exit 2, no traceback and every name in it."""
    assert not ran.traceback, ran.err
    assert ran.code == 2, (ran.code, ran.out, ran.err)
    line = ran.err.strip().splitlines()[0]
    for name in names:
        assert name in line, line
    return line


def grade(annotations: Path, predictions: Path, out: Path) -> Ran:
    return run_cli(
        ["grade", "--annotations", str(annotations), "--predictions", str(predictions)]
        + ["--out-dir", str(out)]
    )


@pytest.fixture
def run(tmp_path: Path) -> Path:
    """A freshly graded run of the example."""
    out = tmp_path / "run"
    ran = grade(EXAMPLE / "annotation.json", EXAMPLE / "predictions.json", out)
    assert ran.code == 0, ran.err
    return out


# ------------------------------------------------------------------ encodings


def _latin1(text: str) -> bytes:
    """The example's JSON with one Latin-1 'é' in a string value."""
    data = text.encode("utf-8")
    at = data.index(b'"question"')
    return data[:at] + b'"note": "caf\xe9", ' + data[at:]


ENCODINGS = {
    "utf16": (lambda text: text.encode("utf-16"), "UTF-16"),
    "utf16be_no_bom": (lambda text: text.encode("utf-16-be"), "UTF-16"),
    "latin1": (_latin1, "byte 0xE9"),
}


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
@pytest.mark.parametrize("role", ["annotations", "predictions"])
def test_grade_names_the_encoding(tmp_path: Path, role: str, encoding: str) -> None:
    encode, says = ENCODINGS[encoding]
    source = EXAMPLE / ("annotation.json" if role == "annotations" else "predictions.json")
    bad = tmp_path / f"{role}.json"
    bad.write_bytes(encode(source.read_text(encoding="utf-8")))
    a = bad if role == "annotations" else EXAMPLE / "annotation.json"
    p = bad if role == "predictions" else EXAMPLE / "predictions.json"
    line = rejected(grade(a, p, tmp_path / "out"), str(bad), "not UTF-8", says)
    # The line of the bad byte, not orjson's "line 1, column 1" for any such file.
    if encoding == "latin1":
        data = bad.read_bytes()
        assert f"{bad}:{data[: data.index(0xE9)].count(10) + 1}:" in line
    assert not (tmp_path / "out" / "updated_predictions.json").exists()


def _gzip(text: str) -> bytes:
    import gzip

    return gzip.compress(text.encode("utf-8"))


def _zip(text: str) -> bytes:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("predictions.json", text)
    return buffer.getvalue()


OTHER_FILES = {
    "gzip": (_gzip, "gzip-compressed"),
    "zip": (_zip, "zip archive"),
    "git_lfs": (
        lambda text: b"version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 9\n",
        "Git LFS pointer",
    ),
    "utf32": (lambda text: text.encode("utf-32"), "UTF-32"),
}


@pytest.mark.parametrize("kind", sorted(OTHER_FILES))
def test_a_file_that_is_not_json_text_says_what_it_is(tmp_path: Path, kind: str) -> None:
    """A gzip file read as 'not UTF-8: byte 0x8B ... (Latin-1?)', an LFS pointer as
    'unexpected character'."""
    make, says = OTHER_FILES[kind]
    bad = tmp_path / "predictions.json"
    bad.write_bytes(make((EXAMPLE / "predictions.json").read_text(encoding="utf-8")))
    rejected(grade(EXAMPLE / "annotation.json", bad, tmp_path / "out"), str(bad), says)


def test_jsonl_latin1_names_its_line(tmp_path: Path) -> None:
    records = json.loads((EXAMPLE / "predictions.json").read_text(encoding="utf-8"))
    lines = [json.dumps(r).encode() for r in records]
    lines[2] = lines[2].replace(b'"answer": "', b'"answer": "caf\xe9 ', 1)
    bad = tmp_path / "predictions.jsonl"
    bad.write_bytes(b"\n".join(lines) + b"\n")
    ran = grade(EXAMPLE / "annotation.json", bad, tmp_path / "out")
    rejected(ran, f"{bad}:3:", "not UTF-8", "0xE9")


@pytest.mark.parametrize("name", ["updated_predictions.json", "run.json"])
def test_run_file_in_utf16(run: Path, name: str) -> None:
    path = run / name
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    for argv in (["summary", str(run)], ["export", str(run)], _override(run)):
        rejected(run_cli(argv), str(path), "UTF-16")


# ------------------------------------------------------------------ a run's files


def _override(run: Path) -> list[str]:
    return ["override", str(run), QID, "1", "--reason", "checked", "--annotator", "ana"]


def _commands(run: Path) -> dict[str, list[str]]:
    return {
        "summary": ["summary", str(run)],
        "export": ["export", str(run)],
        "override": _override(run),
        "undo": ["undo", str(run), "--annotator", "ana"],
        "judge": ["judge", str(run), "--judge", "rome", "--dry-run"],
    }


@pytest.mark.parametrize("command", ["export", "override", "undo", "judge"])
@pytest.mark.parametrize("name", ["updated_predictions.json", "scores.json"])
def test_run_file_that_is_a_directory(run: Path, name: str, command: str) -> None:
    path = run / name
    path.unlink()
    path.mkdir()
    rejected(run_cli(_commands(run)[command]), str(path), "is a directory")
    # Nothing was acknowledged, so nothing went to the journal either.
    assert not (run / "journal").exists()


def test_judge_cache_that_is_a_directory(run: Path) -> None:
    (run / "judge_cache.jsonl").mkdir()
    ran = run_cli(_commands(run)["judge"])
    rejected(ran, str(run / "judge_cache.jsonl"), "is a directory")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    """The local fake OpenAI server (never the internet), with no key in the environment."""
    yield from serve_as_default(monkeypatch)


def test_judge_batch_state_that_is_a_directory(run: Path, server: FakeOpenAIServer) -> None:
    (run / "judge_batch.json").mkdir()
    ran = run_cli(["judge", str(run), "--judge", "rome", "--batch", "--model", "m"])
    rejected(ran, str(run / "judge_batch.json"), "is a directory")


# ------------------------------------------------------------------ annotator names


def test_annotator_name_too_long_for_a_file_name(run: Path) -> None:
    """A 300-character name was an OSError ('File name too long') and no override."""
    name = "a" * 300
    argv = ["override", str(run), QID, "1", "--reason", "checked", "--annotator", name]
    ran = run_cli(argv)
    assert ran.code == 0, ran.err
    (journal,) = (run / "journal").iterdir()
    assert len(journal.name) < 255
    assert json.loads(journal.read_text().splitlines()[-1])["annotator"] == name
    undone = run_cli(["undo", str(run), "--annotator", name])
    assert undone.code == 0, undone.err


# ------------------------------------------------------------------ export --output


@pytest.mark.parametrize(
    "output",
    [
        "updated_predictions.json",
        "scores.json",
        "run.json",
        "journal/ana.jsonl",
        "judge_cache.jsonl",
        "./run.json",
    ],
)
def test_export_never_overwrites_a_file_of_the_run(run: Path, output: str) -> None:
    """`export -o RUN/updated_predictions.json` replaced the run's results with Parquet
    (exit 0), and `-o RUN/journal/ana.jsonl` a reviewer's journal: work lost."""
    assert run_cli(_override(run)).code == 0  # a journal to protect
    target = run / output
    before = target.read_bytes() if target.exists() else None
    rejected(run_cli(["export", str(run), "-o", str(target)]), str(target), "refusing")
    assert (target.read_bytes() if target.exists() else None) == before


@pytest.mark.parametrize(("output", "says"), [(".", "is a directory"), ("nowhere/x", "no such")])
def test_export_output_that_cannot_be_written(run: Path, output: str, says: str) -> None:
    """Both were tracebacks (IsADirectoryError from the rename, FileNotFoundError from pyarrow)."""
    target = run / output
    rejected(run_cli(["export", str(run), "-o", str(target)]), str(target), says)


def _fail_with(errno_name: str) -> Callable[..., Any]:
    def fail(*_args: Any, **_kwargs: Any) -> Any:
        code = getattr(errno, errno_name)
        raise OSError(code, os.strerror(code))

    return fail


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_export_into_a_read_only_folder(
    run: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`export --format parquet` into a read-only folder was an OSError traceback from
    pyarrow (jsonl already said 'cannot write'); both now go through the atomic writer."""
    monkeypatch.setattr("tempfile.mkstemp", _fail_with("EROFS"))
    target = run / f"adjudicated.{fmt}"
    line = rejected(run_cli(["export", str(run), "--format", fmt]), str(target), "cannot write")
    assert "read-only" in line.lower(), line


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_export_onto_a_full_disk(run: Path, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk while writing was an OSError traceback; now one line, the old file
    kept and no temp file left behind."""
    target = run / f"adjudicated.{fmt}"
    assert run_cli(["export", str(run), "--format", fmt]).code == 0
    before = target.read_bytes()
    monkeypatch.setattr("os.fsync", _fail_with("ENOSPC"))
    line = rejected(run_cli(["export", str(run), "--format", fmt]), str(target), "cannot write")
    assert "no space left" in line.lower() and "unchanged" in line, line
    assert target.read_bytes() == before
    assert not [p for p in run.iterdir() if p.name.endswith(".tmp")]


def test_grade_onto_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`grade` on a full disk (ENOSPC from the write or its fsync) was a traceback."""
    monkeypatch.setattr("os.fsync", _fail_with("ENOSPC"))
    out = tmp_path / "run"
    ran = grade(EXAMPLE / "annotation.json", EXAMPLE / "predictions.json", out)
    rejected(ran, str(out / "updated_predictions.json"), "No space left")
    assert not (out / "updated_predictions.json").exists()


@pytest.mark.parametrize("command", ["review", "summary", "override", "judge"])
def test_a_file_of_the_run_named_where_the_run_is_expected(run: Path, command: str) -> None:
    """`summary RUN/scores.json` said "record 0: expected a JSON object, got list", and
    `review RUN/run.json` the same of a str: nothing a user could act on."""
    extra = {"override": [QID, "1", "--reason", "r"], "judge": ["--judge", "rome", "--dry-run"]}
    assert run_cli(_override(run)).code == 0  # a journal to name
    for name in ("scores.json", "run.json", "journal/ana.jsonl"):
        target = run / name
        ran = run_cli([command, str(target), *extra.get(command, [])])
        line = rejected(ran, str(target), "not the run's results", f"directory, {run}")
        assert "record 0" not in line


def test_a_folder_of_runs_names_them(tmp_path: Path) -> None:
    """`review runs` (the parent of runs/a and runs/b) said runs/updated_predictions.json
    does not exist; it now names the runs inside."""
    for name in ("b", "a"):
        ran = grade(EXAMPLE / "annotation.json", EXAMPLE / "predictions.json", tmp_path / name)
        assert ran.code == 0, ran.err
    line = rejected(run_cli(["summary", str(tmp_path)]), str(tmp_path), "a folder of runs")
    assert f"({tmp_path / 'a'}, {tmp_path / 'b'})" in line


def test_an_annotations_file_opened_as_results_says_so() -> None:
    """The hint was to grade the annotations file as predictions."""
    source = str(EXAMPLE / "annotation.json")
    ran = run_cli(["review", source])
    rejected(ran, source, "an annotations file")
    assert f"--annotations {source} --predictions PREDICTIONS.json" in ran.err


def test_export_format_follows_the_output_name(run: Path, tmp_path: Path) -> None:
    """`export -o x.jsonl` wrote Parquet under that name (the default format)."""
    target = tmp_path / "x.jsonl"
    assert run_cli(["export", str(run), "-o", str(target)]).code == 0
    assert target.read_bytes()[:1] == b"{"
    other = tmp_path / "x.parquet"
    line = rejected(
        run_cli(["export", str(run), "--format", "jsonl", "-o", str(other)]), str(other)
    )
    assert "names a parquet file but --format is jsonl" in line and not other.exists()


def test_export_refuses_an_output_name_of_another_format(run: Path, tmp_path: Path) -> None:
    """`export -o x.csv` wrote Parquet under a CSV name; --format still writes any name."""
    target = tmp_path / "x.csv"
    line = rejected(run_cli(["export", str(run), "-o", str(target)]), str(target), ".csv")
    assert "--format" in line and not target.exists()
    assert run_cli(["export", str(run), "--format", "jsonl", "-o", str(target)]).code == 0
    assert target.read_bytes()[:1] == b"{"


def test_annotations_and_predictions_given_the_wrong_way_round(tmp_path: Path) -> None:
    """It said only "prediction has no 'answer'" of the annotations file."""
    swapped = grade(EXAMPLE / "predictions.json", EXAMPLE / "annotation.json", tmp_path / "o")
    line = rejected(swapped, str(EXAMPLE / "annotation.json"), QID, "an annotations file?")
    assert "wrong way round" in line


def test_a_failed_grade_leaves_no_empty_out_dir(tmp_path: Path) -> None:
    """A bad predictions file left --out-dir created, holding only the lock: a folder that
    looked like a run. One the user made beforehand stays."""
    bad = tmp_path / "p.jsonl"
    bad.write_text('{"question_id": "q1", "answer": "A"}\n{oops\n')
    out = tmp_path / "new" / "run"
    rejected(grade(EXAMPLE / "annotation.json", bad, out), f"{bad}:2")
    assert not out.exists()
    mine = tmp_path / "mine"
    mine.mkdir()
    rejected(grade(EXAMPLE / "annotation.json", bad, mine), f"{bad}:2")
    assert mine.is_dir()


def test_review_out_dir_of_a_run_is_refused(run: Path, tmp_path: Path) -> None:
    """`review RUN --out-dir X` opened RUN and wrote the review there, X unused: read as
    "write the review elsewhere", the run it meant to spare was written."""
    elsewhere = tmp_path / "elsewhere"
    line = rejected(run_cli(["review", str(run), "--out-dir", str(elsewhere)]), str(run))
    assert "reviewed in place" in line and not elsewhere.exists()


# ------------------------------------------------------------------ outputs and options


def test_grade_out_dir_under_a_file(tmp_path: Path) -> None:
    """A file where a parent of --out-dir should be was a NotADirectoryError traceback."""
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "afile" / "run"
    ran = grade(EXAMPLE / "annotation.json", EXAMPLE / "predictions.json", out)
    rejected(ran, str(out), "cannot create")


@pytest.mark.parametrize(
    ("name", "says"), [(".", "is a directory"), ("nowhere/c.jsonl", "no such")]
)
def test_judge_batch_export_that_cannot_be_written(
    run: Path, tmp_path: Path, name: str, says: str
) -> None:
    """--batch-export onto a directory was an IsADirectoryError traceback after building
    every call; the atomic writer now says so before writing."""
    target = tmp_path / name
    ran = run_cli(["judge", str(run), "--judge", "rome", "--batch-export", str(target)])
    line = rejected(ran, str(target))
    assert says in line.lower(), line


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--dry-run", "--price-in", "nan", "--price-out", "1"], "--price-in"),
        (["--dry-run", "--price-in", "1", "--price-out", "inf"], "--price-out"),
        (["--dry-run", "--timeout", "nan"], "--timeout"),
        (["--dry-run", "--rpm", "nan"], "--rpm"),
        (["--dry-run", "--tpm", "inf"], "--tpm"),
        (["--batch", "--poll", "nan", "--model", "m"], "--poll"),
        (["--model", "m", "--timeout", "inf"], "--timeout"),
    ],
)
def test_judge_options_nan_and_infinity(
    run: Path, server: FakeOpenAIServer, options: list[str], named: str
) -> None:
    """argparse's float() takes 'nan' and 'inf'; they passed `value <= 0` checks (the dry
    run printed a cost of ~$nan)."""
    ran = run_cli(["judge", str(run), "--judge", "rome", *options])
    rejected(ran, named)
    assert server.count() == 0


def test_no_match_shows_both_sides_ids(tmp_path: Path) -> None:
    """Ids written as numbers on one side and strings on the other matched nothing, and
    the error said only 'no prediction matches an annotation'."""
    records = json.loads((EXAMPLE / "predictions.json").read_text(encoding="utf-8"))
    for number, record in enumerate(records, 1):
        record["question_id"] = number
    bad = tmp_path / "predictions.json"
    bad.write_text(json.dumps(records))
    ran = grade(EXAMPLE / "annotation.json", bad, tmp_path / "out")
    rejected(ran, str(bad), "no prediction matches", "1, 2, 3", QID)


# ------------------------------------------------------------------ review startup


@pytest.mark.parametrize("where", ["journal file is a directory", "journal directory is a file"])
def test_review_refuses_a_journal_it_cannot_write(run: Path, where: str) -> None:
    """The app opened, and every override was then refused with 'cannot write the journal'."""
    journal = run / "journal"
    if where == "journal file is a directory":
        (journal / "ana.jsonl").mkdir(parents=True)
    else:
        journal.write_text("not a directory")
    ran = run_cli(["review", str(run), "--annotator", "ana"])
    rejected(ran, str(journal / "ana.jsonl"), "cannot write the journal")


@pytest.mark.parametrize("name", ["updated_predictions.json", "scores.json", "run.json"])
def test_review_startup_with_a_directory_for_a_run_file(run: Path, name: str) -> None:
    (run / name).unlink()
    (run / name).mkdir()
    rejected(run_cli(["review", str(run), "--annotator", "ana"]), str(run / name), "directory")


@pytest.mark.parametrize("role", ["annotations", "predictions"])
def test_object_keyed_by_id_whose_record_says_another_id(tmp_path: Path, role: str) -> None:
    """Annotations used the key and predictions the record's own question_id, silently."""
    source = EXAMPLE / ("annotation.json" if role == "annotations" else "predictions.json")
    records = json.loads(source.read_text(encoding="utf-8"))
    keyed = {r["question_id"]: r for r in records}
    keyed[QID] = dict(keyed[QID], question_id="question_elsewhere")
    bad = tmp_path / f"{role}.json"
    bad.write_text(json.dumps(keyed))
    a = bad if role == "annotations" else EXAMPLE / "annotation.json"
    p = bad if role == "predictions" else EXAMPLE / "predictions.json"
    ran = grade(a, p, tmp_path / "out")
    assert not ran.traceback, ran.err
    assert f"{bad}: 1 of its {role} have a question_id other than their key" in ran.err
    assert f"{QID} holds 'question_elsewhere'" in ran.err


def test_an_evaluator_error_in_a_release_names_the_model(tmp_path: Path) -> None:
    """A release holds each question once per model: 'record q1' did not say whose."""
    from release_fixture import release_rows, write_release

    rows = release_rows()
    bad = next(r for r in rows if r["model"] == "model-b")
    bad["evaluator"] = "no_such_evaluator"
    release = tmp_path / "release.parquet"
    write_release(str(release), rows)
    ran = run_cli(["summary", str(release)])
    rejected(ran, str(release), f"record {bad['question_id']} (model model-b)", "no_such_evaluator")


@pytest.mark.parametrize("command", ["grade", "summary", "export", "override", "review"])
def test_a_pipe_as_input_is_refused_not_read_as_empty(tmp_path: Path, command: str) -> None:
    """`--predictions <(zcat preds.json.gz)` said 'no prediction to grade' (the first look
    at the pipe, is it Parquet?, ate what the parse then missed); a FIFO as a run blocked
    every command on its checksum. Nothing writes to this FIFO: any open would hang."""
    import os

    fifo = tmp_path / "input.fifo"
    os.mkfifo(fifo)
    argv = {
        "grade": ["grade", "--annotations", str(EXAMPLE / "annotation.json")]
        + ["--predictions", str(fifo), "--out-dir", str(tmp_path / "out")],
        "summary": ["summary", str(fifo)],
        "export": ["export", str(fifo)],
        "override": ["override", str(fifo), QID, "1", "--reason", "x", "--annotator", "a"],
        "review": ["review", str(fifo), "--annotator", "a"],
    }[command]
    rejected(run_cli(argv, timeout=20), str(fifo), "not a regular file")


@pytest.mark.parametrize("option", ["--by", "--subtype"])
def test_summary_by_a_field_no_record_has(run: Path, option: str) -> None:
    """A misspelt field (`--by datset`) summarised every item in one unnamed bucket, exit 0."""
    ran = run_cli(["summary", str(run), option, "datset"])
    rejected(ran, f"{option} datset", "no record has this field", "question_id")


def test_a_wrong_kind_of_value_is_named_as_json_names_it(run: Path, tmp_path: Path) -> None:
    """It said "record 1: expected a JSON object, got NoneType", Python's name for null."""
    results = run / "updated_predictions.json"
    records = json.loads(results.read_text(encoding="utf-8"))
    results.write_text(json.dumps([records[0], None, "text", [1]]), encoding="utf-8")
    line = rejected(run_cli(["summary", str(run)]), str(results), "record 1")
    assert line.endswith("expected a JSON object, got null"), line
    bad = tmp_path / "p.json"
    bad.write_text('"hello"', encoding="utf-8")
    line = rejected(grade(EXAMPLE / "annotation.json", bad, tmp_path / "o"), str(bad))
    assert line.endswith("expected a list of predictions, got a string"), line


def test_an_evaluator_names_a_wrong_kind_of_kwargs_as_json_does() -> None:
    """The evaluators said "got list" and "got NoneType" where the loaders say "got an array"."""
    from scorers.errors import EvaluatorError
    from scorers.evaluate import strict
    from scorers.evaluate.mathmatch import math_matching
    from scorers.judges.parsing import parse_vrc_steps

    with pytest.raises(EvaluatorError, match="got an array$"):
        strict.evaluate("number_matching", ["5"], "5", None)  # type: ignore[arg-type]
    with pytest.raises(EvaluatorError, match="got null$"):
        math_matching(None, answer="5")  # type: ignore[arg-type]
    assert parse_vrc_steps("[1, 2]").error == "expected an object, got an array"


def test_a_nan_kwarg_is_named_as_null_in_both_modes(tmp_path: Path) -> None:
    """NaN in an annotation's kwargs is read as null; the evaluators then said "got None"
    (strict, Python's repr) and "not NoneType" (rome), and the grader "not int"."""
    from scorers.errors import EvaluatorError
    from scorers.evaluate import rome, strict
    from scorers.grade.grader import Grader
    from scorers.io.run_settings import RunSettings

    kwargs = {"value_to_match": None}
    with pytest.raises(EvaluatorError, match="value_to_match must be a number, got null$"):
        strict.evaluate("number_matching", kwargs, "5", None)
    with pytest.raises(EvaluatorError, match="'value_to_match': must be a number, not null$"):
        rome.evaluate("number_matching", kwargs, "5")
    with pytest.raises(EvaluatorError, match="remove_space must be true or false, got 'no'$"):
        strict.evaluate("key_items_matching", {"key_items": ["a"], "remove_space": "no"}, "a", None)
    with pytest.raises(EvaluatorError, match=r"must be \[low, high\], got \[1,null,3\]$"):
        strict.evaluate("interval_matching", {"interval": [1, None, 3]}, "2", None)
    with pytest.raises(EvaluatorError, match="evaluator must be a name, not a number$"):
        Grader(RunSettings()).grade_record(
            {"question_id": "q", "answer": "5"}, {"question_id": "q", "evaluator": 5}
        )
    # From the file: the NaN the loader read as null is named as null.
    annotations = tmp_path / "a.json"
    annotations.write_text(
        '[{"question_id": "q1", "evaluator": "number_matching",'
        ' "evaluator_kwargs": {"value_to_match": NaN}}]',
        encoding="utf-8",
    )
    predictions = tmp_path / "p.json"
    predictions.write_text('[{"question_id": "q1", "answer": "5"}]', encoding="utf-8")
    for mode in ("rome", "strict"):
        ran = run_cli(
            ["grade", "--annotations", str(annotations), "--predictions", str(predictions)]
            + ["--out-dir", str(tmp_path / mode), "--mode", mode]
        )
        line = rejected(ran, str(annotations), "record q1")
        assert line.endswith("must be a number, got null") or line.endswith(
            "must be a number, not null"
        ), line
