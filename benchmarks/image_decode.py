"""Item images in the review app: decoding, the cache, and refusing an enormous file.

Every figure is printed beside the floor measured in the same run: plain Pillow
opening and fully decoding the same 4000 x 3000 camera-sized JPEG (what a
viewer with no downscaling would pay on every visit).

    .venv/bin/python benchmarks/image_decode.py

Targets: the first visit <= 1x the floor (JPEG draft decoding at reduced scale
pays for the downscale and the pane's preview), a revisit (cache hit) <= 0.01x,
a zoom or pan step of the full-screen view (on the UI thread) <= 0.1x, its
whole-image view <= 0.5x with Sixel (1280 x 960 pixels) and <= 0.1x with
half-cells; refusing
a 20,000 x 20,000 PNG costs under 1 MB of memory.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from PIL import Image, ImageDraw  # noqa: E402

from rome_tui.app.images import ImageCache, fit, zoomed  # noqa: E402
from rome_tui.app.screens.image import source_for, view_pixels  # noqa: E402


def photo(path: Path) -> None:
    """A 4000 x 3000 JPEG with enough detail that decoding is real work."""
    rng = random.Random(7)
    image = Image.new("RGB", (4000, 3000), (120, 140, 160))
    draw = ImageDraw.Draw(image)
    for _ in range(4000):
        x, y = rng.randrange(4000), rng.randrange(3000)
        r = rng.randrange(4, 60)
        colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    image.save(path, quality=90)


def median_ms(run, repeat: int = 5) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def plain_pillow(path: Path) -> None:
    with Image.open(path) as opened:
        opened.load()


REFUSE = """
import json, resource, sys
sys.path.insert(0, "tests")
from pathlib import Path
from image_fixtures import png_header_only
from rome_tui.app.images import ImageCache
path = Path(sys.argv[1])
png_header_only(path, 20_000, 20_000)
cache = ImageCache()
cache.load(Path(sys.argv[1] + ".missing"))  # imports and first-call costs paid here
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
problem = cache.load(path)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"problem": problem, "grew_kb": after - before}))
"""


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="rome-img-bench-") as tmp:
        path = Path(tmp) / "photo.jpg"
        photo(path)
        floor = median_ms(lambda: plain_pillow(path))

        def first_visit() -> None:
            ImageCache().load(path)

        first = median_ms(first_visit)
        cache = ImageCache()
        decoded = cache.load(path)
        assert not isinstance(decoded, str)
        hit = median_ms(lambda: cache.load(path), repeat=50)
        # A 200 x 50 terminal drawing with Sixel (the most pixels a view asks for),
        # and with half-cells (the fewest).
        view = view_pixels("sixel", 200, 48)
        zoom = median_ms(
            lambda: fit(zoomed(source_for(decoded, 2.0, *view), 2.0, 0.3, 0.6)[0], *view)
        )
        whole = median_ms(lambda: fit(source_for(decoded, 1.0, *view), *view))
        cells = view_pixels("halfcell", 200, 48)
        whole_cells = median_ms(lambda: fit(source_for(decoded, 1.0, *cells), *cells))
        done = subprocess.run(
            [sys.executable, "-c", REFUSE, str(Path(tmp) / "huge.png")],
            cwd=Path(__file__).resolve().parents[1],
            capture_output=True,
            text=True,
            check=True,
        )
        refused = json.loads(done.stdout.strip().splitlines()[-1])
    size = path.stat().st_size if path.exists() else 0
    print(f"4000x3000 JPEG ({size or 'deleted'}), cached copy {decoded.image.size}")
    rows = [
        ("plain Pillow open + load (floor)", floor, "-"),
        ("first visit: check, decode, downscale", first, "<= 1x"),
        ("revisit (cache hit)", hit, "<= 0.01x"),
        (f"full screen, whole image (sixel, {view[0]}x{view[1]})", whole, "<= 0.5x"),
        ("full screen, one zoom or pan step (sixel)", zoom, "<= 0.1x"),
        (f"full screen, whole image (half-cells, {cells[0]}x{cells[1]})", whole_cells, "<= 0.1x"),
    ]
    for name, ms, target in rows:
        print(f"{name:42s} {ms:8.1f} ms  {ms / floor:6.3f}x floor   target {target}")
    print(
        f"refuse 20000x20000 PNG: {refused['problem']!r}, peak memory grew "
        f"{refused['grew_kb']} KB   target < 1024 KB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
