"""The accuracy-versus-tokens scatter as a PNG (matplotlib, Agg backend, no display needed)."""

from __future__ import annotations

import io
import os
from collections.abc import Sequence

from rome_tui.render.scatter import ScatterPoint
from rome_tui.render.tablespec import shown
from scorers.errors import UsageError
from scorers.io.jsonio import atomic_write_bytes

# shown() draws a control character as its Unicode picture (U+2400-U+2421), which the
# plot's font (DejaVu Sans) lacks; in the PNG it becomes caret notation instead ("^[").
_CARET = {0x2400 + code: f"^{chr(code + 0x40)}" for code in range(0x20)} | {0x2421: "^?"}


def _label(model: str) -> str:
    return shown(model).translate(_CARET)


def scatter_png(
    points: Sequence[ScatterPoint],
    *,
    title: str = "Accuracy vs tokens per response (bars: 95% CI)",
) -> bytes:
    """PNG bytes: one point per model with its 95% interval as a vertical bar."""
    import matplotlib

    matplotlib.use("Agg")  # before pyplot: no display on servers and in CI
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=150)
    try:
        cmap = plt.get_cmap("tab10")
        for i, p in enumerate(points):
            colour = cmap(i % 10)
            if p.low is not None and p.high is not None:
                ax.errorbar(
                    [p.tokens],
                    [p.accuracy],
                    yerr=[[p.accuracy - p.low], [p.high - p.accuracy]],
                    fmt="none",
                    ecolor=colour,
                    alpha=0.6,
                    capsize=3,
                    linewidth=1,
                )
            ax.scatter(
                [p.tokens],
                [p.accuracy],
                s=46,
                color=colour,
                zorder=3,
                edgecolors="white",
                linewidths=0.6,
            )
            ax.annotate(
                _label(p.model),
                (p.tokens, p.accuracy),
                textcoords="offset points",
                xytext=(6, 5),
                fontsize=8,
                color="#222222",
                parse_math=False,  # a "$" in a model name is text, not mathtext
            )
        ax.set_xlabel("Completion tokens per response (mean)")
        ax.set_ylabel("Accuracy (%)")
        ax.set_title(title, fontsize=11)
        ax.grid(True, linewidth=0.4, alpha=0.5)
        ax.margins(x=0.15, y=0.12)
        ax.spines[["top", "right"]].set_visible(False)
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png")
    finally:
        plt.close(fig)
    return buffer.getvalue()


def write_scatter_png(points: Sequence[ScatterPoint], path: str | os.PathLike[str]) -> None:
    if not points:
        raise UsageError(f"--plot {path}: no model has both an accuracy and token usage to plot")
    atomic_write_bytes(path, scatter_png(points))
