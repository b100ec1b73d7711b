"""rome_tui.app.images: decoding hostile files gives a one-line problem, in bounded memory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from image_fixtures import make_image_root, picture

from rome_tui.app.images import CACHE_SIDE, Decoded, ImageCache, zoomed

ROOT = Path(__file__).resolve().parent.parent


def test_hostile_files_give_one_line_problems(tmp_path: Path) -> None:
    make_image_root(tmp_path / "root")
    img = tmp_path / "root" / "img"
    cache = ImageCache()
    problems = {
        name: cache.load(img / name)
        for name in ("nowhere.png", "empty.png", "truncated.png", "huge.png", "notes.png")
    }
    assert problems["nowhere.png"] == "no such file"
    assert problems["empty.png"] == "empty file (0 bytes)"
    assert problems["huge.png"] == "too large to decode (400,000,000 pixels)"
    assert problems["notes.png"] == "not an image Pillow can read"
    truncated = problems["truncated.png"]
    assert isinstance(truncated, str) and truncated.startswith("corrupt image")
    for problem in problems.values():
        assert isinstance(problem, str) and "\n" not in problem
    assert len(cache) == 0


def test_big_images_are_downscaled_once_and_cached(tmp_path: Path) -> None:
    big = tmp_path / "big.png"
    picture((90, 90, 200), (3000, 1500)).save(big)
    cache = ImageCache()
    first = cache.load(big)
    assert isinstance(first, Decoded)
    assert (first.width, first.height) == (3000, 1500) and first.size_text == "3000×1500"
    assert max(first.image.size) == CACHE_SIDE and first.image.mode == "RGB"
    assert cache.load(big) is first  # a hit: not decoded again


def test_the_cache_is_bounded(tmp_path: Path) -> None:
    cache = ImageCache(max_bytes=120 * 80 * 3 * 2 * 2)  # two entries: image and preview each
    for i in range(5):
        picture((i * 40, 0, 0)).save(tmp_path / f"{i}.png")
        assert isinstance(cache.load(tmp_path / f"{i}.png"), Decoded)
    assert len(cache) == 2 and cache.size_bytes <= cache.max_bytes


def test_zoom_crops_around_a_clamped_centre() -> None:
    image = picture((0, 0, 0), (400, 200))
    whole, cx, cy = zoomed(image, 1.0, 0.9, 0.9)
    assert whole is image and (cx, cy) == (0.5, 0.5)
    part, cx, cy = zoomed(image, 2.0, 1.0, 0.0)  # pushed past the corner: clamped
    assert part.size == (200, 100) and (cx, cy) == (0.75, 0.25)


PROBE = """
import json, resource, sys
sys.path.insert(0, "tests")
from pathlib import Path
from rome_tui.app.images import ImageCache
root = Path(sys.argv[1]) / "img"
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
cache = ImageCache()
out = [cache.load(root / n) for n in ("huge.png", "truncated.png", "empty.png", "notes.png")]
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"problems": [o for o in out if isinstance(o, str)], "grew_kb": after - before}))
"""


def test_a_20000_square_image_costs_no_memory(tmp_path: Path) -> None:
    make_image_root(tmp_path / "root")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "root")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(result["problems"]) == 4
    # Decoding it would take 1.2 GB; refusing it from the header takes next to nothing.
    assert result["grew_kb"] < 50 * 1024, result
