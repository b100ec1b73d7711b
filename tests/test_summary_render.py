"""Rich renderables of the summary: the terminal scatter and the tables, without Textual."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from rich.console import Console
from summary_fixtures import record

from rome_tui.render.scatter import AccuracyTokensScatter, ScatterPoint, nice_ticks
from rome_tui.render.tables import summary_renderable
from scorers.stats.summary import summarise


def render(renderable: object, width: int = 70) -> list[str]:
    sink = io.StringIO()
    Console(file=sink, width=width, color_system=None).print(renderable)
    return sink.getvalue().splitlines()


def test_scatter_places_models_by_accuracy_and_tokens() -> None:
    points = [
        ScatterPoint("slow-strong", 9000.0, 80.0, 76.0, 84.0),
        ScatterPoint("fast-weak", 1000.0, 40.0, 35.0, 45.0),
    ]
    lines = render(AccuracyTokensScatter(points, height=12), width=70)
    grid = [line for line in lines if "┤" in line or "│" in line[:8]]
    row_a = next(i for i, line in enumerate(grid) if "A" in line[7:])
    row_b = next(i for i, line in enumerate(grid) if "B" in line[7:])
    assert row_a < row_b  # higher accuracy is higher up
    assert grid[row_a].index("A") > grid[row_b].index("B")  # more tokens further right
    assert any("A slow-strong: 80.0% at 9,000 tokens" in line for line in lines)
    assert any("[35.0, 45.0]" in line for line in lines)
    assert max(len(line) for line in lines) <= 70


def test_scatter_with_one_point_and_with_none() -> None:
    lines = render(AccuracyTokensScatter([ScatterPoint("only", 500.0, 50.0)]))
    assert any("A only: 50.0% at 500 tokens" in line for line in lines)
    assert any("no model" in line for line in render(AccuracyTokensScatter([])))


def test_nice_ticks() -> None:
    assert nice_ticks(0, 100, 5) == [0, 25, 50, 75, 100]
    assert nice_ticks(1234, 5678, 4) == [2000, 4000]
    assert nice_ticks(3, 3) == [3]


def test_model_names_are_shown_literally_never_as_markup() -> None:
    rows = [
        record("q1", 1.0, model="[bold red]evil[/]"),
        record("q2", 0.0, model="[bold red]evil[/]"),
    ]
    lines = render(summary_renderable(summarise([("[bold red]evil[/]", rows)])), width=120)
    assert any("[bold red]evil[/]" in line for line in lines)


def test_render_package_does_not_import_textual() -> None:
    code = "import sys, rome_tui.render.tables, rome_tui.render.text, rome_tui.render.plot; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("width", [60, 80, 100, 160])
def test_tables_fit_the_terminal_without_losing_columns(width: int) -> None:
    from summary_fixtures import synthetic_run

    names = ["claude-sonnet-4-thinking", "qwen3-235b-a22b-thinking", "gemini-2.5-pro", "o4-mini"]
    groups = [
        (n, synthetic_run(120, n, 0.3 + 0.1 * i, seed=i, runs=2)) for i, n in enumerate(names)
    ]
    lines = render(summary_renderable(summarise(groups)), width=width)
    assert max(len(line) for line in lines) <= width
    text = "\n".join(lines)
    # The last column of the widest tables is still there (headings may be shortened).
    assert "Reas" in text and "tok" in text
    assert "00/01/" in text  # folded on narrow screens
    assert "Abst" in text and "trace" in text


@pytest.mark.parametrize("width", [60, 72, 80])
def test_numbers_are_never_folded_at_80_columns_or_in_the_apps_summary(width: int) -> None:
    # With a cell's padding, a 72-cell table folded n = 240 into "24" over "0" and an
    # interval into "[62.5" / "," / "84.2]"; the app's summary is 72 cells at 80x24. At 60
    # the agreement table with partial credit (nine columns) folded every number: it now
    # leaves out its last columns and names them.
    import re

    from summary_fixtures import synthetic_run

    from rome_tui.render.tablespec import all_tables

    names = ["claude-sonnet-4-thinking", "qwen3-235b-a22b-thinking", "gemini-2.5-pro", "o4-mini"]
    groups = [
        (n, synthetic_run(240, n, 0.3 + 0.1 * i, seed=i, runs=2)) for i, n in enumerate(names)
    ]
    for _, records in groups:
        for rec in records[::9]:  # partial credit: the agreement table's two more columns
            rec["review"]["verdicts"][0]["score"] = 0.5
    summary = summarise(groups)
    lines = render(summary_renderable(summary), width=width)
    assert max(len(line) for line in lines) <= width
    words = {w for line in lines for w in line.split()}
    text = " ".join(" ".join(lines).split())
    hidden = {
        name.strip()
        for said in re.findall(r"Not shown at this width: ([^.]*)\.", text)
        for name in said.split(",")
    }
    assert width > 60 or hidden == {"Partial", "Weighted κ"}
    for spec in all_tables(summary):
        for row in spec.rows:
            for cell, numeric, name in zip(row, spec.numeric, spec.columns, strict=True):
                if numeric and name not in hidden and re.fullmatch(r"-?[\d.,]+%?", cell):
                    assert cell in words, (spec.key, cell)


def test_every_interval_over_fewer_than_five_items_says_n_below_5() -> None:
    """The leaderboard, the paired test, κ and the error rates follow the bucket tables: with
    1-4 items no interval (nor p) is printed, and each caption says why."""
    from rome_tui.render.tablespec import all_tables

    a = [record(f"q{i}", 1.0, human=h) for i, h in enumerate([0.0, 1.0, 1.0])]
    b = [record(f"q{i}", 0.0) for i in range(3)]
    specs = {s.key: s for s in all_tables(summarise([("a", a), ("b", b)]))}
    assert [row[4] for row in specs["leaderboard"].rows] == ["n<5", "n<5"]
    assert specs["comparisons"].rows[0][4:] == ["n<5", "–"]
    assert "no interval or p" in specs["comparisons"].note
    assert "share of resampled differences" in specs["comparisons"].note
    human = next(r for r in specs["agreement:a"].rows if r[1] == "human")
    assert human[5] == "n<5" and "no interval" in specs["agreement:a"].note
    assert all(row[5] == "n<5" for row in specs["error_rates"].rows)
    assert "in place of every override" in specs["overrides"].note
    # Five items or more: the intervals are back.
    many = [record(f"q{i}", float(i % 2)) for i in range(6)]
    board = {s.key: s for s in all_tables(summarise([("m", many)]))}["leaderboard"]
    assert board.rows[0][4].startswith("[") and "n<5" not in board.note
