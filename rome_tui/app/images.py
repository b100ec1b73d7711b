"""Decoding an item's image for the app: checked, downscaled once, cached (LRU, bounded).

Runs in the image pane's worker thread, never on the UI thread. What can go
wrong with a data set's image (missing, empty, truncated, not an image, a
decompression bomb) comes back as a one-line problem, never an exception.
The file checks and path containment are ``scorers.images``'; this module only
turns a checked path into pixels.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageOps

from scorers.images import ImageRoots, file_problem

if TYPE_CHECKING:
    from rome_tui.app.backend import ReviewStore

# Pixels decoded at most: a 20,000 x 20,000 image is refused from its header,
# before a byte of it is decoded. 8000 x 8000 covers any camera photo.
MAX_PIXELS = 64_000_000
# The side kept in memory: enough to zoom 4x into a full-screen view.
CACHE_SIDE = 2048
# The cache holds at most this many bytes of pixels (a 2048 x 1536 RGB image is 9 MB).
CACHE_BYTES = 96 * 1024 * 1024
# The copy the detail pane draws: enough for a pane on a large Sixel or Kitty
# terminal; half-cells need far fewer.
PREVIEW_SIDE = 800


@dataclass(frozen=True)
class Decoded:
    path: Path
    image: Image.Image  # RGB, longest side at most CACHE_SIDE
    width: int  # of the original file
    height: int
    preview: Image.Image  # the same, longest side at most PREVIEW_SIDE

    @property
    def size_text(self) -> str:
        return f"{self.width}×{self.height}"


class ImageCache:
    """Decoded images by (path, mtime, size), least recently used dropped first."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[tuple[str, int, int], Decoded] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def _cost(decoded: Decoded) -> int:
        big, small = decoded.image, decoded.preview
        return (big.width * big.height + small.width * small.height) * 3

    @property
    def size_bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._items)

    def load(self, path: Path) -> Decoded | str:
        """The decoded image, or a one-line problem (the file's, or the decoder's)."""
        problem = file_problem(path)
        if problem is not None:
            return problem
        try:
            info = os.stat(path)
        except OSError as exc:
            return f"cannot read: {exc.strerror or exc}"
        key = (os.path.realpath(path), info.st_mtime_ns, info.st_size)
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                return hit
        decoded = decode(path)
        if isinstance(decoded, str):
            return decoded
        with self._lock:
            if key not in self._items:
                self._items[key] = decoded
                self._bytes += self._cost(decoded)
            while self._bytes > self.max_bytes and len(self._items) > 1:
                _, dropped = self._items.popitem(last=False)
                self._bytes -= self._cost(dropped)
        return decoded


def decode(path: Path) -> Decoded | str:
    """Decode ``path`` into an RGB image no larger than CACHE_SIDE; a problem string on failure."""
    try:
        with warnings.catch_warnings():
            # Pillow only warns below twice its own limit: make that an error too.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as opened:
                width, height = opened.size
                if width <= 0 or height <= 0:
                    return "not a drawable image (no pixels)"
                if width * height > MAX_PIXELS:
                    return f"too large to decode ({width}×{height} pixels)"
                # A JPEG decodes straight at 1/2, 1/4... of its size while it stays
                # above half the kept side; the rest is reduced by whole factors first.
                opened.draft("RGB", (CACHE_SIDE // 2, CACHE_SIDE // 2))
                opened.thumbnail(
                    (CACHE_SIDE, CACHE_SIDE), Image.Resampling.BICUBIC, reducing_gap=2.0
                )
                image = ImageOps.exif_transpose(opened) or opened
                if image.mode in ("RGBA", "LA", "PA") or (
                    image.mode == "P" and "transparency" in image.info
                ):
                    # Transparent pixels over a neutral grey, not black.
                    rgba = image.convert("RGBA")
                    background = Image.new("RGBA", rgba.size, (128, 128, 128, 255))
                    image = Image.alpha_composite(background, rgba)
                image = image.convert("RGB")
                return Decoded(path, image, width, height, fit(image, PREVIEW_SIDE, PREVIEW_SIDE))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        # Pillow refuses these itself, from the header, before decoding a byte.
        pixels = re.search(r"\((\d+) pixels\)", str(exc))
        return (
            f"too large to decode ({int(pixels.group(1)):,} pixels)"
            if pixels
            else "too large to decode"
        )
    except Image.UnidentifiedImageError:
        return "not an image Pillow can read"
    except MemoryError:
        return "too large to decode (out of memory)"
    except (OSError, SyntaxError, ValueError, EOFError, TypeError, IndexError) as exc:
        return f"corrupt image: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"


def fit(image: Image.Image, max_width: int, max_height: int) -> Image.Image:
    """A copy no larger than max_width x max_height pixels (the aspect ratio kept)."""
    copy = image.copy()
    # Bilinear after whole-factor reduction: fast enough to run on every zoom step.
    copy.thumbnail(
        (max(1, max_width), max(1, max_height)), Image.Resampling.BILINEAR, reducing_gap=1.0
    )
    return copy


def zoomed(
    image: Image.Image, zoom: float, cx: float, cy: float
) -> tuple[Image.Image, float, float]:
    """The part of ``image`` seen at ``zoom`` around (cx, cy) in 0..1; the centre clamped."""
    if zoom <= 1.0:
        return image, 0.5, 0.5
    w, h = image.size
    vw, vh = w / zoom, h / zoom
    half_x, half_y = vw / 2 / w, vh / 2 / h
    cx = min(max(cx, half_x), 1 - half_x)
    cy = min(max(cy, half_y), 1 - half_y)
    left, top = round(cx * w - vw / 2), round(cy * h - vh / 2)
    box = (left, top, max(left + 1, round(left + vw)), max(top + 1, round(top + vh)))
    return image.crop(box), cx, cy


@dataclass
class ImageOptions:
    """How the app finds and draws images: one per app, shared by its screens."""

    renderer: str  # "tgp", "sixel", "halfcell" or "none" (rome_tui.app.renderers)
    roots: ImageRoots
    cache: ImageCache = field(default_factory=ImageCache)
    pane_shown: bool = True  # the detail view's image pane (i toggles it)


def open_externally(path: Path) -> str | None:
    """Open ``path`` in the system's image viewer without waiting; a problem, or None."""
    if sys.platform == "win32":  # pragma: no cover - not a supported platform for the app
        try:
            os.startfile(path)  # type: ignore[attr-defined]
        except OSError as exc:
            return str(exc)
        return None
    opener = "open" if sys.platform == "darwin" else "xdg-open"
    found = shutil.which(opener)
    if found is None:
        return f"no {opener} on this system"
    try:
        process = subprocess.Popen(
            [found, str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # the viewer outlives neither keys nor signals of the app
        )
    except OSError as exc:
        return f"{opener}: {exc.strerror or exc}"
    # Reaped in the background so that no zombie is left; the app never waits on it.
    threading.Thread(target=process.wait, name="image-viewer", daemon=True).start()
    return None


def store_image_roots(store: ReviewStore, images: str | None = None) -> ImageRoots:
    """Image roots of an open run: ``images`` (--images), else run.json's, else the annotations'."""
    settings = store.settings
    return ImageRoots.of(images or settings.images, settings.annotations)
