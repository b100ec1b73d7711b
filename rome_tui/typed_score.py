"""A score as a reviewer types it, read the same by the app's dialog and `rome-tui override`."""

from __future__ import annotations


def parse_score(text: str) -> float | None:
    """A score in [0, 1] from what was typed ("1", "0.5", "1/2", "50%"); None if invalid."""
    text = text.strip()
    try:
        if text.endswith("%"):
            value = float(text[:-1]) / 100
        elif "/" in text:
            top, bottom = text.split("/", 1)
            value = float(top) / float(bottom)
        else:
            value = float(text)
    except (ValueError, ZeroDivisionError):
        return None
    return value if 0 <= value <= 1 else None
