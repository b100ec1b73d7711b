"""Names from the results files (models, buckets, sources, flag kinds) printed safely.

Every text format and the Rich tables show control characters as visible
pictures (a name cannot clear, move or retitle the terminal), keep markup
literal and keep each format's own escaping; empty and repeated-id runs are
clear messages, not tracebacks or silent double counts.
"""

from __future__ import annotations

import csv
import io
import warnings
from pathlib import Path
from typing import Any

import orjson
import pytest
from rich.console import Console
from summary_fixtures import record, verdict

from rome_tui.cli import main
from rome_tui.render.tables import summary_renderable
from rome_tui.render.text import to_csv, to_latex, to_markdown
from scorers.errors import UsageError
from scorers.io.results import load_results
from scorers.stats.summary import summarise

CLEAR = "\x1b[2J"
TITLE = "\x1b]0;owned\x07"
NAME = f"m|x [bold]b[/] {CLEAR}{TITLE}\x00 $a_b$ 50%"
BUCKET = f"task{CLEAR}\r|"
SOURCE = f"judge:{CLEAR}x"
RAW = ("\x1b", "\x00", "\x07", "\r")


def hostile_records() -> list[dict[str, Any]]:
    rows = []
    for i in range(6):
        score = float(i % 2)
        judged = score if i else 1.0 - score
        rows.append(
            record(
                f"q{i}",
                score,
                task=BUCKET if i < 3 else "plain",
                verdicts=[verdict("rule:strict", score), verdict(SOURCE, judged)],
                flags=[(f"odd{CLEAR}kind", "heuristic")] if i == 0 else [],
                model=NAME,
                usage={"completion_tokens": 100 * (i + 1)},
            )
        )
    return rows


def hostile_summary() -> Any:
    return summarise([(NAME, hostile_records())], warnings=[f"about {NAME}"])


def assert_no_controls(text: str) -> None:
    leaked = [ch for ch in RAW if ch in text]
    assert not leaked, f"raw control characters in the output: {leaked}"


def test_rich_tables_titles_and_warnings_show_names_literally() -> None:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None, force_terminal=False).print(
        summary_renderable(hostile_summary())
    )
    text = out.getvalue()
    assert_no_controls(text)
    assert "[bold]b[/]" in text  # markup shown, not applied
    assert "\u241b[2J" in text  # ESC drawn as its control picture
    assert "warning: about m|x" in text
    # A model name in a table title (agreement per model) is not parsed as markup either.
    two = summarise(
        [(NAME, hostile_records()), ("other", hostile_records())],
    )
    out = io.StringIO()
    Console(file=out, width=250, color_system=None).print(summary_renderable(two))
    assert "verdict sources: m|x [bold]b[/] \u241b[2J" in out.getvalue()
    assert_no_controls(out.getvalue())


def test_markdown_escapes_pipes_and_shows_controls() -> None:
    text = to_markdown(hostile_summary())
    assert_no_controls(text)
    assert "m\\|x [bold]b[/] \u241b[2J" in text
    assert "task\u241b[2J\u240d\\|" in text  # the bucket: CR and ESC visible, pipe escaped
    for line in text.splitlines():
        if line.startswith("| "):
            # Every row of a table has its heading's cell count: no pipe split a cell.
            assert line.replace("\\|", "").count("|") >= 2


def test_latex_keeps_its_escaping_and_shows_controls() -> None:
    text = to_latex(hostile_summary())
    assert_no_controls(text)
    assert r"m|x [bold]b[/] " in text
    assert r"\$a\_b\$ 50\%" in text


def test_csv_on_a_terminal_shows_controls_and_in_a_file_keeps_names_exact() -> None:
    summary = hostile_summary()
    shown = list(csv.DictReader(io.StringIO(to_csv(summary))))
    assert_no_controls(to_csv(summary))
    assert {row["model"] for row in shown} == {
        NAME.replace(CLEAR, "\u241b[2J")
        .replace(TITLE, "\u241b]0;owned\u2407")
        .replace("\x00", "\u2400")
    }
    exact = list(csv.DictReader(io.StringIO(to_csv(summary, exact_names=True))))
    assert {row["model"] for row in exact} == {NAME}
    assert BUCKET in {row["bucket"] for row in exact}


def test_scatter_png_takes_dollar_signs_in_model_names_as_text(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from rome_tui.render.plot import write_scatter_png
    from rome_tui.render.scatter import scatter_points

    target = tmp_path / "s.png"
    write_scatter_png(scatter_points(hostile_summary()), target)  # "$a_b$" is not mathtext
    assert target.read_bytes().startswith(b"\x89PNG")


def test_scatter_png_draws_control_characters_in_glyphs_its_font_has(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from rome_tui.render.plot import _label, write_scatter_png
    from rome_tui.render.scatter import scatter_points

    assert _label("run\x07\x00 v2\x7f") == "run^G^@ v2^?"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph ... missing from font(s)" would be a UserWarning
        write_scatter_png(scatter_points(hostile_summary()), tmp_path / "s.png")


def test_summarise_without_records_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="no records"):
        summarise([])


def write_run(directory: Path, body: bytes) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "updated_predictions.json").write_bytes(body)
    (directory / "run.json").write_bytes(orjson.dumps({"mode": "strict", "tracker_type": "task"}))
    return directory


def test_an_empty_results_file_is_an_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_run(tmp_path / "run", b"[]")
    code = main(["summary", str(run), "--format", "json"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{run / 'updated_predictions.json'}: empty" in err
    assert "Traceback" not in err


def test_repeated_ids_are_found_per_model(tmp_path: Path) -> None:
    """One file of several models (a ROME-Evaluated export) has each question once per model."""
    a = [dict(record("q1", 1.0), model="a"), dict(record("q2", 0.0), model="a")]
    b = [dict(record("q1", 1.0), model="b"), {"question_id": None, "model": "b"}]
    clean = load_results(write_run(tmp_path / "clean", orjson.dumps(a + b)))
    assert not [w for w in clean.warnings if "more than once" in w]
    doubled = a + [dict(record("q1", 0.0), model="a")] + b
    loaded = load_results(write_run(tmp_path / "doubled", orjson.dumps(doubled)))
    said = [w for w in loaded.warnings if "more than once" in w]
    assert len(said) == 1 and "(first: q1)" in said[0]


@pytest.mark.parametrize("output", [False, True])
def test_repeated_ids_are_warned_and_said_to_be_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output: bool
) -> None:
    rows = [record("q1", 1.0), record("q2", 0.0), record("q1", 1.0), record("q3", 1.0)]
    run = write_run(tmp_path / "run", orjson.dumps(rows))
    target = tmp_path / "s.json"
    argv = ["summary", str(run), "--format", "json", "--bootstrap", "20"]
    code = main(argv + (["-o", str(target)] if output else []))
    captured = capsys.readouterr()
    assert code == 0
    summary = orjson.loads(target.read_bytes() if output else captured.out)
    assert summary["overall"]["n"] == 4  # both copies of q1, as scores.json counts them
    said = [w for w in summary["warnings"] if "more than once" in w]
    assert len(said) == 1
    assert "1 question_id(s)" in said[0] and "(first: q1)" in said[0]
    assert "counted" in said[0]
    # The warning reaches the terminal too, also when the summary goes to a file.
    assert "warning:" in captured.err and "more than once" in captured.err
