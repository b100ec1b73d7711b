"""`rome-tui summary` end to end: every output format parsed and checked against the records."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from summary_fixtures import record, synthetic_run, verdict

from rome_tui.cli import main


def write_run(directory: Path, records: list[dict[str, Any]], **settings: Any) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "updated_predictions.json").write_bytes(orjson.dumps(records))
    run = {"mode": "strict", "tracker_type": "task", **settings}
    (directory / "run.json").write_bytes(orjson.dumps(run))
    return directory


def small_run() -> list[dict[str, Any]]:
    """10 items: academic 3/4 right, diagrams 2/6; rules, a judge, two overrides, flags, usage."""
    rows = []
    for i in range(10):
        task = "academic" if i < 4 else "diagrams"
        right = i in (0, 1, 2, 4, 5)
        score = 1.0 if right else 0.0
        judge = score if i not in (3, 6) else 1.0 - score
        rows.append(
            record(
                f"q{i}",
                score,
                task=task,
                verdicts=[
                    verdict("rule:rome", score),
                    verdict("rule:strict", score),
                    verdict("judge:rome", judge),
                ],
                human=score if i in (3, 6) else None,
                flags=[("hedged_reasoning_certain_answer", "heuristic")] if i < 2 else [],
                reason="<think>it might be 3</think>",
                usage={
                    "completion_tokens": 100 * (i + 1),
                    "completion_tokens_details": {"reasoning_tokens": 50 * (i + 1)},
                },
            )
        )
    return rows


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["summary", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_has_overall_buckets_agreement_and_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_run(tmp_path / "alpha", small_run())
    code, out, _ = run_cli(capsys, str(run), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["overall"]["accuracy"] == pytest.approx(50.0)
    assert data["overall"]["n"] == 10
    low, high = data["overall"]["ci95"]
    assert 0 <= low < 50 < high <= 100
    assert data["buckets"]["academic"]["accuracy"] == pytest.approx(75.0)
    assert data["buckets"]["academic"]["n"] == 4
    assert data["buckets"]["diagrams"]["accuracy"] == pytest.approx(100 / 3, abs=1e-3)
    assert len(data["buckets"]["diagrams"]["ci95"]) == 2
    pair = data["agreement"]["rule:strict vs judge:rome"]
    assert set(pair) >= {"n", "agreement", "kappa", "kappa_ci95", "confusion"}
    # Strict and judge differ on q3 (strict 0, judge 1) and q6 (0, 1): 8 of 10 agree.
    assert pair["n"] == 10 and pair["agreement"] == pytest.approx(80.0)
    assert pair["confusion"] == [[3, 2], [0, 5]]
    assert data["error_rates"]["judge:rome"] == {
        "n": 2,
        "errors": 2,
        "rate": 100.0,
        "ci95": [100.0, 100.0],
        "false_positive": 2,
        "false_negative": 0,
    }
    assert data["flags"]["hedged_reasoning_certain_answer"]["rate"] == pytest.approx(20.0)
    assert data["flags"]["claims_web_search"]["rate"] == 0.0
    assert data["tokens"]["completion"]["mean"] == pytest.approx(550.0)
    assert data["models"][0]["model"] == "alpha"
    assert data["leaderboard"][0]["rank"] == 1
    assert "0.5" in data["settings"]["binarise"]


def test_csv_has_one_row_per_bucket(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path / "alpha", small_run())
    code, out, _ = run_cli(capsys, str(run), "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["model"], r["bucket"]) for r in rows] == [
        ("alpha", "academic"),
        ("alpha", "diagrams"),
        ("alpha", "overall"),
    ]
    assert float(rows[0]["accuracy"]) == pytest.approx(75.0)
    assert int(rows[1]["n"]) == 6
    assert float(rows[1]["ci95_low"]) <= float(rows[1]["accuracy"]) <= float(rows[1]["ci95_high"])
    assert rows[2]["strict_accuracy"] == ""  # no correct_strict in this run


def markdown_tables(text: str) -> dict[str, list[list[str]]]:
    """Title -> rows (header first) of every pipe table after a **bold** title line."""
    tables: dict[str, list[list[str]]] = {}
    title = None
    for line in text.splitlines():
        if line.startswith("**") and line.endswith("**"):
            title = line.strip("*")
            tables[title] = []
        elif line.startswith("|") and title is not None:
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            if not all(re.fullmatch(r":?-+:?", c) for c in line.strip("|").split("|")):
                tables[title].append(cells)
    return tables


def test_markdown_tables_carry_the_json_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = write_run(tmp_path / "alpha", small_run())
    b_rows = small_run()
    for r in b_rows[:3]:
        r["correct"] = 0.0
        r["model"] = "beta"
    for r in b_rows[3:]:
        r["model"] = "beta"
    b = write_run(tmp_path / "beta_dir", b_rows)
    _, out_json, _ = run_cli(capsys, str(a), str(b), "--format", "json")
    data = json.loads(out_json)
    code, out, _ = run_cli(capsys, str(a), str(b), "--format", "markdown")
    assert code == 0
    tables = markdown_tables(out)
    board = tables["Accuracy"]
    header = board[0]
    assert header[:5] == ["#", "Model", "n", "Accuracy (%)", "95% CI"]
    assert all(len(row) == len(header) for row in board)
    assert [row[1] for row in board[1:]] == ["alpha", "beta"]
    for row, entry in zip(board[1:], data["leaderboard"], strict=True):
        assert float(row[3]) == pytest.approx(entry["accuracy"], abs=0.05)
        low, high = (float(x) for x in row[4].strip("[]").split(", "))
        assert (low, high) == pytest.approx(entry["ci95"], abs=0.05)
    pairs = tables["Adjacent pairs: paired bootstrap on shared questions"]
    assert pairs[1][:3] == ["alpha", "beta", "10"]
    assert float(pairs[1][3]) == pytest.approx(data["comparisons"][0]["difference"], abs=0.05)
    # alpha has q0, q1, q2, q4, q5 right (5/10); beta lost q0..q2 (2/10).
    assert float(pairs[1][3]) == pytest.approx(30.0, abs=0.05)
    buckets = tables["Accuracy by task"]
    assert buckets[0] == ["task", "alpha", "beta"]
    assert buckets[-1][0] == "overall"
    assert "Agreement between verdict sources: all models" in tables
    assert "Agreement between verdict sources: beta" in tables
    assert "Behaviour flags (% of items)" in tables
    # Each run has two overrides (q3, q6) that confirm the rule's score.
    assert [row[:3] for row in tables["Human overrides"][1:]] == [
        ["alpha", "2", "0"],
        ["beta", "2", "0"],
    ]


def test_latex_tables_are_well_formed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = small_run()
    for r in rows:
        r["model"] = "gpt_4.1 & co"  # characters LaTeX must escape
    run = write_run(tmp_path / "alpha", rows)
    code, out, _ = run_cli(capsys, str(run), "--format", "latex")
    assert code == 0
    assert out.count(r"\begin{table}") == out.count(r"\end{table}") >= 4
    assert r"gpt\_4.1 \& co" in out
    for block in re.findall(r"\\begin\{tabular\}\{([lr]+)\}(.*?)\\end\{tabular\}", out, re.S):
        columns, body = block
        assert r"\toprule" in body and r"\midrule" in body and r"\bottomrule" in body
        for line in body.splitlines():
            if line.endswith(r"\\"):
                # Every row has one cell per declared column (no unescaped &).
                assert len(re.split(r"(?<!\\)&", line)) == len(columns), line
    leaderboard = re.search(r"gpt\\_4.1 \\& co & 10 & ([\d.]+) & \[([\d.]+), ([\d.]+)\]", out)
    assert leaderboard is not None and float(leaderboard.group(1)) == 50.0


def test_table_format_and_the_terminal_scatter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = write_run(tmp_path / "alpha", synthetic_run(200, "alpha", 0.7, seed=1, tokens=6000))
    b = write_run(tmp_path / "beta", synthetic_run(200, "beta", 0.4, seed=2, tokens=2000))
    code, out, _ = run_cli(capsys, str(a), str(b))
    assert code == 0
    assert "Accuracy by task" in out and "Agreement between verdict sources" in out
    assert "Accuracy vs tokens per response" in out
    assert re.search(r"A alpha: [\d.]+% at [\d,]+ tokens", out)
    assert re.search(r"B beta: [\d.]+% at [\d,]+ tokens", out)


def test_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write_run(tmp_path / "alpha", synthetic_run(100, "alpha", 0.7, seed=1))
    png = tmp_path / "scatter.png"
    code, _, _ = run_cli(capsys, str(a), "--format", "json", "--plot", str(png))
    assert code == 0
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_plot_without_token_usage_prints_the_tables_and_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_run(tmp_path / "alpha", [record("q1", 1.0)])
    code, out, err = run_cli(capsys, str(run), "--plot", str(tmp_path / "x.png"))
    assert code == 0 and "Accuracy by" in out
    assert "no plot written" in err and "token usage" in err
    assert not (tmp_path / "x.png").exists()


def test_model_field_splits_one_file_and_by_subtype_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        record("1", 1.0, model="m1", image_type="Natural", image_subtype="Animal"),
        record("2", 0.0, model="m1", image_type="Artificial", image_subtype="Chart"),
        record("1", 1.0, model="m2", image_type="Natural", image_subtype="Animal"),
        record("2", 1.0, model="m2", image_type="Artificial", image_subtype="Chart"),
    ]
    run = write_run(tmp_path / "hf", rows)
    code, out, _ = run_cli(
        capsys, str(run), "--by", "image_type", "--subtype", "image_subtype", "--format", "json"
    )
    assert code == 0
    data = json.loads(out)
    assert [e["model"] for e in data["leaderboard"]] == ["m2", "m1"]
    m1 = data["models"][0]
    assert m1["buckets"]["Natural"]["subbuckets"]["Animal"]["accuracy"] == 100.0
    assert data["comparisons"][0]["n"] == 2 and data["comparisons"][0][
        "difference"
    ] == pytest.approx(50.0)
    assert data["settings"]["by"] == "image_type"


def test_same_seed_same_output_and_output_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_run(tmp_path / "alpha", synthetic_run(300, "alpha", 0.6, seed=4))
    target = tmp_path / "out.json"
    assert run_cli(capsys, str(run), "--format", "json", "--seed", "9", "-o", str(target))[0] == 0
    _, again, _ = run_cli(capsys, str(run), "--format", "json", "--seed", "9")
    assert json.loads(target.read_text()) == json.loads(again)


def test_bad_input_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, str(tmp_path / "missing"))
    assert code == 2 and "missing" in err and "Traceback" not in err
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "updated_predictions.json").write_text('[{"question_id": 1,')
    code, _, err = run_cli(capsys, str(broken))
    assert code == 2 and "updated_predictions.json" in err
    run = write_run(tmp_path / "alpha", [record("q1", 1.0)])
    code, _, err = run_cli(capsys, str(run), "--bootstrap", "0")
    assert code == 2 and "--bootstrap" in err


def test_overrides_in_the_journal_count_before_write_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scorers.adjudicate.journal import journal_file
    from scorers.adjudicate.store import ResultsStore

    run = write_run(tmp_path / "alpha", small_run())
    with ResultsStore.open(run, annotator="ann") as store:
        store.override("q9", 1.0, "the reference is wrong")  # fsynced to the journal only
    on_disk = orjson.loads((run / "updated_predictions.json").read_bytes())
    assert on_disk[9]["correct"] == 0.0  # not written back
    code, out, _ = run_cli(capsys, str(run), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["overall"]["accuracy"] == pytest.approx(60.0)  # 6 of 10 with the override
    assert data["overrides"]["overridden"] == 3 and data["overrides"]["changed"] == 1
    # The summary read the journal and wrote nothing: only the reviewer's journal is there.
    assert sorted(p.name for p in (run / "journal").iterdir()) == [
        journal_file(run / "journal", "ann").name
    ]


def test_table_written_to_a_file_is_plain_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_run(tmp_path / "alpha", small_run())
    target = tmp_path / "summary.txt"
    code, out, _ = run_cli(capsys, str(run), "-o", str(target))
    assert code == 0 and out == ""
    text = target.read_text()
    assert "Accuracy by task" in text and "\x1b[" not in text
    assert re.search(r"│ 1 │ alpha\s+│\s+10 │\s+50\.0 │", text)


@pytest.mark.parametrize("command", ["summary", "review"])
@pytest.mark.parametrize("as_directory", [False, True])
def test_an_ungraded_file_is_refused_with_the_grade_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, as_directory: bool
) -> None:
    predictions = [{"question_id": f"q{i}", "answer": "A", "task": "t"} for i in range(3)]
    if as_directory:
        target = tmp_path / "run" / "updated_predictions.json"
        target.parent.mkdir()
    else:
        target = tmp_path / "predictions.json"
    target.write_bytes(orjson.dumps(predictions))
    given = target.parent if as_directory else target
    code = main([command, str(given)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{target}: not graded" in err
    assert f"rome-tui grade --annotations ANNOTATIONS.json --predictions {target}" in err


def test_a_file_graded_elsewhere_is_not_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    graded = [{"question_id": "q1", "answer": "A", "task": "t", "correct": 1}]
    (tmp_path / "x_evaluated.json").write_bytes(orjson.dumps(graded))
    code, out, _ = run_cli(capsys, str(tmp_path / "x_evaluated.json"), "--format", "json")
    assert code == 0 and json.loads(out)


def test_table_warnings_reach_stderr_when_stdout_is_no_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `summary run > table.txt` put the warnings in the file alone.
    graded = [{"question_id": "q1", "answer": "A", "task": "t", "correct": 1}]
    (tmp_path / "x_evaluated.json").write_bytes(orjson.dumps(graded))
    code, out, err = run_cli(capsys, str(tmp_path / "x_evaluated.json"))
    assert code == 0 and "graded elsewhere" in out
    assert "rome-tui summary: warning:" in err and "graded elsewhere" in err


@pytest.mark.parametrize(
    ("name", "starts"),
    [("s.json", "{"), ("s.md", "**Accuracy**"), ("s.csv", "model,"), ("s.txt", "Accuracy")],
)
def test_the_output_name_chooses_the_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, starts: str
) -> None:
    # `-o s.json` wrote the terminal table into a file named .json.
    run = write_run(tmp_path / "alpha", small_run())
    target = tmp_path / name
    assert run_cli(capsys, str(run), "--bootstrap", "20", "-o", str(target))[0] == 0
    assert target.read_text().startswith(starts)


def test_a_format_the_output_name_contradicts_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_run(tmp_path / "alpha", small_run())
    target = tmp_path / "s.json"
    code, _, err = run_cli(capsys, str(run), "--format", "csv", "-o", str(target))
    assert code == 2 and "names a json file but --format is csv" in err
    assert not target.exists()


def test_an_output_name_of_no_format_it_writes_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`-o s.xlsx` wrote the terminal table under a spreadsheet's name; --format still
    writes any name."""
    run = write_run(tmp_path / "alpha", small_run())
    target = tmp_path / "s.xlsx"
    code, _, err = run_cli(capsys, str(run), "-o", str(target))
    assert code == 2 and f"--output {target}: .xlsx is not a format" in err
    assert "--format" in err and not target.exists()
    assert (
        run_cli(capsys, str(run), "--bootstrap", "20", "--format", "csv", "-o", str(target))[0] == 0
    )
    assert target.read_text().startswith("model,")


def test_the_same_run_named_twice_is_read_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It became two models, "alpha" and "alpha (PATH)", with identical answers.
    run = write_run(tmp_path / "alpha", small_run())
    code, out, err = run_cli(
        capsys, str(run), str(run / "updated_predictions.json"), "--format", "json"
    )
    assert code == 0 and "the same run named twice; read once" in err
    assert [m["model"] for m in json.loads(out)["models"]] == ["alpha"]


def test_out_dir_without_a_release_is_said_to_be_unused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_run(tmp_path / "alpha", small_run())
    code, _, err = run_cli(capsys, str(run), "--out-dir", str(tmp_path / "x"), "--format", "json")
    assert code == 0 and "no RESULTS is one, so it is not used" in err
