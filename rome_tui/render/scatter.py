"""LRM-Eval's accuracy-versus-tokens scatter, one point per model, drawn in the terminal.

:class:`AccuracyTokensScatter` is a plain Rich renderable (no Textual), so
the CLI prints it and the review app can put it in a ``Static``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from rome_tui.render.tablespec import shown
from scorers.stats.summary import Summary

PALETTE = ("cyan", "magenta", "green", "yellow", "blue", "red", "bright_cyan", "bright_magenta")


@dataclass(frozen=True)
class ScatterPoint:
    model: str
    tokens: float  # mean completion tokens per response
    accuracy: float  # percent
    low: float | None = None  # 95% interval of the accuracy
    high: float | None = None


def scatter_points(summary: Summary) -> list[ScatterPoint]:
    """A point for every model with both an accuracy and token usage, best first.

    Completion tokens (reasoning included, as the providers count them) are
    the x axis, as in LRM-Eval; total tokens are the fallback when a provider
    reports no completion count.
    """
    points = []
    for name in summary.leaderboard:
        m = summary.model(name)
        acc = m.overall.loose.accuracy
        if acc is None or m.tokens is None:
            continue
        tokens = m.tokens.completion.mean
        if tokens is None:
            tokens = m.tokens.total.mean
        if tokens is None:
            continue
        ci95 = m.overall.loose.ci95
        points.append(
            ScatterPoint(name, tokens, acc, ci95.low if ci95 else None, ci95.high if ci95 else None)
        )
    return points


def marker(i: int) -> str:
    return chr(ord("A") + i) if i < 26 else "*"


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high] (1, 2, 2.5 or 5 times a power of ten apart)."""
    if high <= low:
        return [low]
    raw = (high - low) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9) * step
    ticks = []
    value = first
    while value <= high + 1e-9 * step:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _short(value: float) -> str:
    if abs(value) >= 10_000:
        return f"{value / 1000:.0f}k"
    if abs(value) >= 1000:
        return f"{value / 1000:.1f}k"
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


class AccuracyTokensScatter:
    """Accuracy (y) against mean completion tokens (x); letters mark the models."""

    def __init__(
        self,
        points: Sequence[ScatterPoint],
        *,
        height: int = 14,
        max_width: int = 96,
        title: str = "Accuracy vs tokens per response",
    ) -> None:
        self.points = list(points)
        self.height = max(5, height)
        self.max_width = max_width
        self.title = title

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text(shown(self.title), style="bold")
        if not self.points:
            yield Text("no model has both an accuracy and token usage to plot", style="dim")
            return
        yield from self._lines(min(options.max_width, self.max_width))

    def _ranges(self) -> tuple[float, float, float, float]:
        xs = [p.tokens for p in self.points]
        ys = [p.accuracy for p in self.points]
        ys += [p.low for p in self.points if p.low is not None]
        ys += [p.high for p in self.points if p.high is not None]
        x0, x1 = min(xs), max(xs)
        pad = (x1 - x0) * 0.08 or max(1.0, x0 * 0.1)
        x0, x1 = max(0.0, x0 - pad), x1 + pad
        y0, y1 = min(ys), max(ys)
        pad = (y1 - y0) * 0.1 or 5.0
        return x0, x1, max(0.0, y0 - pad), min(100.0, y1 + pad)

    def _lines(self, width: int) -> Iterator[Text]:
        x0, x1, y0, y1 = self._ranges()
        label_w = 6
        plot_w = max(10, width - label_w - 2)
        h = self.height
        grid: list[list[tuple[str, str]]] = [[(" ", "")] * plot_w for _ in range(h)]

        def col(x: float) -> int:
            return min(plot_w - 1, max(0, round((x - x0) / (x1 - x0) * (plot_w - 1))))

        def row(y: float) -> int:
            return min(h - 1, max(0, round((y1 - y) / (y1 - y0) * (h - 1))))

        yticks = {row(t): t for t in nice_ticks(y0, y1, max(3, h // 3))}
        for i, p in enumerate(self.points):
            style = PALETTE[i % len(PALETTE)]
            c = col(p.tokens)
            if p.low is not None and p.high is not None:
                for r in range(row(p.high), row(p.low) + 1):
                    if grid[r][c][0] == " ":
                        grid[r][c] = ("│", f"dim {style}")
            grid[row(p.accuracy)][c] = (marker(i), f"bold {style}")
        for r in range(h):
            line = Text()
            label = f"{_short(yticks[r]):>{label_w - 1}} ┤" if r in yticks else " " * label_w + "│"
            line.append(label if r in yticks else " " * label_w + "│", style="dim")
            for ch, style in grid[r]:
                line.append(ch, style=style or None)
            yield line
        yield Text(" " * label_w + "└" + "─" * plot_w, style="dim")
        axis = [" "] * (plot_w + label_w + 1)
        for t in nice_ticks(x0, x1, max(3, plot_w // 14)):
            text = _short(t)
            start = label_w + 1 + col(t) - len(text) // 2
            if start < 0 or start + len(text) > len(axis):
                continue
            if any(ch != " " for ch in axis[max(0, start - 1) : start + len(text) + 1]):
                continue
            axis[start : start + len(text)] = list(text)
        yield Text("".join(axis).rstrip(), style="dim")
        yield Text(
            " " * label_w + " accuracy (%) ↑   completion tokens per response (mean) →", style="dim"
        )
        for i, p in enumerate(self.points):
            legend = Text("  ")
            legend.append(marker(i), style=f"bold {PALETTE[i % len(PALETTE)]}")
            legend.append(f" {shown(p.model)}: {p.accuracy:.1f}% at {p.tokens:,.0f} tokens")
            if p.low is not None and p.high is not None:
                legend.append(f"  [{p.low:.1f}, {p.high:.1f}]", style="dim")
            yield legend
