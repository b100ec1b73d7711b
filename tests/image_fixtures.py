"""Images on disk for the image tests: a few honest pictures and every kind of hostile file."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

HOSTILE = {
    "missing": "img/nowhere.png",
    "empty": "img/empty.png",
    "truncated": "img/truncated.png",
    "huge": "img/huge.png",
    "not-an-image": "img/notes.png",
    "escape-dotdot": "../secret.png",
    "escape-absolute": "/etc/passwd",
    "escape-symlink": "img/link.png",
}


def picture(colour: tuple[int, int, int], size: tuple[int, int] = (120, 80)) -> Image.Image:
    """A picture a test can recognise: a coloured field with a white bar across it."""
    image = Image.new("RGB", size, colour)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, size[1] // 2 - 6, size[0], size[1] // 2 + 6), fill=(255, 255, 255))
    return image


def png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG that claims width x height pixels (a 20,000 x 20,000 one is 1.2 GB decoded)
    but holds a few rows: what a decoder must refuse from the header alone."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = zlib.compress(b"\x00" + b"\x80" * (width * 3) * 1)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )


def make_image_root(root: Path) -> dict[str, Path]:
    """Good and hostile images under ``root`` (and a secret just outside it)."""
    (root / "img").mkdir(parents=True, exist_ok=True)
    picture((200, 40, 40)).save(root / "img" / "red.png")
    picture((40, 160, 60)).save(root / "img" / "green.png")
    picture((40, 60, 200), (90, 120)).save(root / "img" / "blue.png")
    (root / "img" / "empty.png").write_bytes(b"")
    whole = root / "img" / "whole.png"
    picture((10, 10, 10), (400, 300)).save(whole)
    (root / "img" / "truncated.png").write_bytes(whole.read_bytes()[:300])
    png_header_only(root / "img" / "huge.png", 20_000, 20_000)
    (root / "img" / "notes.png").write_text("not a picture at all\n")
    outside = root.parent / "secret.png"
    picture((0, 0, 0)).save(outside)
    link = root / "img" / "link.png"
    if not link.exists():
        link.symlink_to(outside)
    return {"outside": outside}


def with_images(records: list[dict[str, Any]], paths: list[Any]) -> list[dict[str, Any]]:
    """The first len(paths) records get those img_path values (a str or a list each)."""
    for record, path in zip(records, paths, strict=False):
        record["img_path"] = path
        record["question"] = "<image 1> " + str(record.get("question", ""))
    return records


def fixed_cell_size(monkeypatch: Any) -> None:
    """Character cells of 10 x 20 pixels, as textual-image assumes off a terminal.

    textual-image asks a real terminal for its cell size once and keeps the answer;
    run from an interactive shell, pytest's process has one, and pictures would be
    sized for it: snapshots must not depend on who runs them.
    """
    from textual_image._terminal import CellSize, get_cell_size

    monkeypatch.setattr(get_cell_size, "_result", CellSize(10, 20), raising=False)
