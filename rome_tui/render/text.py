"""The summary as text files: JSON, CSV (one row per bucket), Markdown and LaTeX tables."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import orjson

from rome_tui.render.tablespec import TableSpec, all_tables, shown, shown_spec
from scorers.stats.summary import BucketSummary, ModelSummary, Summary

CSV_COLUMNS = [
    "model",
    "bucket",
    "subbucket",
    "n",
    "accuracy",
    "ci95_low",
    "ci95_high",
    "strict_accuracy",
    "strict_ci95_low",
    "strict_ci95_high",
    "runs",
    "runs_mean",
    "runs_std",
]


def to_json(summary: Summary) -> str:
    return (
        orjson.dumps(
            summary.to_dict(), option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
        ).decode()
        + "\n"
    )


def _csv_row(model: str, bucket: str, sub: str, b: BucketSummary) -> list[object]:
    def r(x: float | None) -> object:
        return "" if x is None else round(x, 4)

    loose, strict, runs = b.loose, b.strict, b.runs
    return [
        model,
        bucket,
        sub,
        loose.n,
        r(loose.accuracy),
        r(loose.ci95.low if loose.ci95 else None),
        r(loose.ci95.high if loose.ci95 else None),
        r(strict.accuracy if strict else None),
        r(strict.ci95.low if strict and strict.ci95 else None),
        r(strict.ci95.high if strict and strict.ci95 else None),
        runs.n_runs if runs else "",
        r(runs.mean if runs else None),
        r(runs.std if runs else None),
    ]


class _LineFeedRows(io.StringIO):
    """Rows ending in ``\n``, written by a writer whose terminator is ``\r\n``.

    The csv module quotes a field only for the characters of its own line
    terminator: with ``\n`` a carriage return in a name would be written bare
    and break every reader. Each ``write`` is one whole row.
    """

    def write(self, s: str) -> int:
        return super().write(s[:-2] + "\n" if s.endswith("\r\n") else s)


def _exact(name: str) -> str:
    return name


def to_csv(summary: Summary, *, exact_names: bool = False) -> str:
    """One row per model and bucket (and sub-bucket), then each model's ``overall`` row.

    Names are shown with their control characters made visible, as for a
    terminal; ``exact_names`` keeps them byte for byte (a file written with
    ``-o``, to be joined with other data by name).
    """
    name = _exact if exact_names else shown
    out = _LineFeedRows()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    models: Sequence[ModelSummary] = [summary.model(n) for n in summary.leaderboard]
    for m in models:
        model = name(m.model)
        for b in m.buckets:
            writer.writerow(_csv_row(model, name(b.name), "", b))
            for s in b.subbuckets:
                writer.writerow(_csv_row(model, name(b.name), name(s.name), s))
        writer.writerow(_csv_row(model, "overall", "", m.overall))
    return out.getvalue()


# --- Markdown -------------------------------------------------------------------------


def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").strip()


def markdown_table(spec: TableSpec) -> str:
    spec = shown_spec(spec)
    lines = [f"**{spec.title}**", ""]
    lines.append("| " + " | ".join(_md_cell(c) for c in spec.columns) + " |")
    lines.append("|" + "|".join("---:" if n else ":---" for n in spec.numeric) + "|")
    for row in spec.rows:
        lines.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
    if spec.note:
        lines += ["", f"*{spec.note}*"]
    return "\n".join(lines)


def to_markdown(summary: Summary) -> str:
    return "\n\n".join(markdown_table(spec) for spec in all_tables(summary)) + "\n"


# --- LaTeX ----------------------------------------------------------------------------

_LATEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "±": r"$\pm$",
    "κ": r"$\kappa$",
    "−": r"$-$",
    "–": "--",
    "<": r"$<$",
    ">": r"$>$",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_ESCAPES.get(ch, ch) for ch in text)


def _label_key(key: str) -> str:
    """A LaTeX label from a table key: letters, digits and dashes only."""
    return "".join(ch if ch.isalnum() else "-" for ch in key)


def latex_table(spec: TableSpec) -> str:
    """A booktabs ``table`` float; needs ``\\usepackage{booktabs}`` in the preamble."""
    spec = shown_spec(spec)
    align = "".join("r" if n else "l" for n in spec.numeric)
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
        f"\\caption{{{latex_escape(spec.title)}}}",
        f"\\label{{tab:rome-tui-{_label_key(spec.key)}}}",
        f"\\begin{{tabular}}{{{align}}}",
        r"\toprule",
        " & ".join(latex_escape(c) for c in spec.columns) + r" \\",
        r"\midrule",
    ]
    for i, row in enumerate(spec.rows):
        if i in spec.sections and i:
            lines.append(r"\midrule")
        lines.append(" & ".join(latex_escape(c) for c in row) + r" \\")
    lines.append(r"\bottomrule")
    lines.append(r"\end{tabular}")
    if spec.note:
        lines.append(f"\\par\\smallskip{{\\footnotesize {latex_escape(spec.note)}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines)


def to_latex(summary: Summary) -> str:
    header = "% rome-tui summary tables; \\usepackage{booktabs} in the preamble\n"
    return header + "\n\n".join(latex_table(spec) for spec in all_tables(summary)) + "\n"
