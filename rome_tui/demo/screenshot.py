"""The README's screenshot: ``python -m rome_tui.demo.screenshot docs/review.svg``.

Opens a scratch copy of the demo set headless at a fixed size, moves to a
flagged item with a picture, and saves Textual's SVG export of the screen.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from pathlib import Path


async def capture(out: Path, size: tuple[int, int], item: str) -> None:
    from rome_tui.app.app import ReviewApp
    from rome_tui.app.images import ImageOptions, store_image_roots
    from rome_tui.demo.shipped import prepare_demo, shipped_demo_dir
    from scorers.adjudicate.store import ResultsStore

    store = ResultsStore.open(prepare_demo(), annotator="alice")
    options = ImageOptions("halfcell", store_image_roots(store, str(shipped_demo_dir())))
    app = ReviewApp(store, images=options)
    app.review.location = "~/.local/share/rome-tui/demo"  # where `make demo` opens it
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        position = app.review.table.position_of(store.index_of(item))
        if position is not None:
            app.review.table.cursor = position
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.save_screenshot(filename=out.name, path=str(out.parent))
    store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the SVG file to write")
    parser.add_argument("--width", type=int, default=150)
    parser.add_argument("--height", type=int, default=42)
    parser.add_argument("--item", default="claude-sonnet-4-thinking/question_recognition_35")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rome-tui-shot-") as scratch:
        # A scratch copy named "demo", never the reviewer's own demo copy.
        os.environ["ROME_TUI_DEMO_DIR"] = os.path.join(scratch, "demo")
        asyncio.run(capture(args.out.resolve(), (args.width, args.height), args.item))
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
