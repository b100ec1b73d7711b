"""``rome-tui review [RESULTS] [--annotator NAME]``: open the review app on a graded run."""

from __future__ import annotations

import argparse
import gc
import sys
from typing import TYPE_CHECKING, Any

from rome_tui.commands.image_option import add_images_option, images_dir
from rome_tui.commands.release_option import release_run_for
from rome_tui.console import warn
from scorers.errors import UsageError

if TYPE_CHECKING:
    from scorers.adjudicate.store import ResultsStore


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "review",
        help="open the review app on a graded run",
        description=(
            "Adjudicate a graded run in a terminal UI: filter and sort the items, read the "
            "reasoning beside the answer and the reference, override scores with a reason. "
            "Every override is journaled and fsynced before it is shown as saved, then "
            "updated_predictions.json and scores.json are rewritten in the background. "
            "Press ? in the app for the keys."
        ),
        epilog=(
            "RESULTS is a results directory or an updated_predictions.json (rome-tui's own, "
            "the reference grader's output, a harness _evaluated.json, or BAAI/ROME-Evaluated "
            "rows), or a Parquet release such as BAAI/ROME-Evaluated's, graded once into "
            "FILE.rome-tui/ beside it (or --out-dir). Without RESULTS the demo set shipped in the package is opened (a writable "
            "copy; see ROME_TUI_DEMO_DIR). The annotator is --annotator, else "
            "$ROME_TUI_ANNOTATOR, else `annotator` in ~/.config/rome-tui/config.toml, "
            "else the login name."
        ),
    )
    parser.add_argument(
        "results", metavar="RESULTS", nargs="?", default=None, help="results directory or file"
    )
    parser.add_argument("--annotator", metavar="NAME", help="name recorded with each override")
    parser.add_argument(
        "--filter",
        metavar="QUERY",
        default="",
        help="open with this filter in force, as typed after / in the app "
        "(e.g. 'flag:rule_judge_disagree', 'is:todo bucket:geo')",
    )
    parser.add_argument(
        "--out-dir",
        metavar="DIR",
        default=None,
        help="where a Parquet release is graded and its review kept (default: FILE.rome-tui "
        "beside it); the release file itself is never modified",
    )
    add_images_option(parser)
    parser.set_defaults(func=run)


def open_store(results: str | None, annotator: str | None) -> ResultsStore:
    """Open the run for the app, with the cyclic GC paused while it loads.

    Loading creates millions of objects that all live until the app exits; left
    on, the collector re-scans them on every few thousand allocations, which
    costs a large share of the load time of a 100,000-item run. Afterwards they
    are frozen out of collection for good.
    """
    from rome_tui.demo.shipped import prepare_demo
    from scorers.adjudicate.store import ResultsStore

    path = prepare_demo() if results is None else results
    gc.disable()
    try:
        store = ResultsStore.open(path, annotator=annotator)
    finally:
        gc.freeze()
        gc.enable()
    return store


def run(args: argparse.Namespace) -> int:
    from rome_tui.app.settings import load_image_renderer

    images = images_dir(args.images)
    renderer_mode = load_image_renderer()  # a wrong value is an error before loading
    if args.results is not None:
        from scorers.grade.release import is_release

        if is_release(args.results):
            args.results, graded = release_run_for("review", args.results, args.out_dir)
            for warning in graded:
                warn("review", warning)
        elif args.out_dir is not None:
            # Read as "write the review there", it would have gone into RESULTS all the same.
            raise UsageError(
                f"--out-dir is where a Parquet release is graded; {args.results} is a run, "
                "reviewed in place (its files and journal are written there): drop --out-dir, "
                "or review a copy of the run"
            )
    elif args.out_dir is not None:
        raise UsageError("--out-dir is where a Parquet release is graded: name the release")
    store = open_store(args.results, args.annotator)
    try:
        store.check_journal()  # else every override in the app would be refused
    except BaseException:
        store.close()
        raise
    for warning in store.warnings[:20]:
        warn("review", warning)
    if len(store.warnings) > 20:
        print(f"rome-tui review: ... and {len(store.warnings) - 20} more warnings", file=sys.stderr)

    from rome_tui.app.app import ReviewApp
    from rome_tui.app.images import ImageOptions, store_image_roots
    from rome_tui.app.renderers import choose_renderer
    from rome_tui.app.settings import keymap_warnings, load_keymap, load_review_settings

    if images is not None:
        store.settings.images = images  # kept in run.json with the next write
    elif args.results is None:
        from rome_tui.demo.shipped import shipped_demo_dir

        images = str(shipped_demo_dir())  # the demo's images stay in the package
    problem = _terminal_problem()
    if problem is not None:
        store.close()
        raise UsageError(problem)
    try:
        keymap = load_keymap()
        for warning in keymap_warnings(keymap):  # the app shows them too: stderr is hidden under it
            warn("review", warning)
        settings = load_review_settings()
        options = ImageOptions(choose_renderer(renderer_mode), store_image_roots(store, images))
        ReviewApp(store, keymap=keymap, images=options, settings=settings, query=args.filter).run()
    finally:
        store.close()
    if store.dirty:
        # The app quit before its last rewrite landed: the journal has every override,
        # and the next open replays it; say so rather than hide it.
        print(
            "rome-tui review: the result files lag the journal; they are brought up to date "
            "the next time the run is opened or written",
            file=sys.stderr,
        )
    return 0


def _terminal_problem() -> str | None:
    """Why the app cannot run here, if it cannot: it reads keys from a terminal and draws
    on one. Without this, ``review RUN > log`` wrote escape codes into the file and then
    waited for keys forever."""
    for name, stream in (("input", sys.stdin), ("output", sys.stdout)):
        try:
            interactive = stream is not None and stream.isatty()
        except (AttributeError, OSError, ValueError):
            interactive = False
        if not interactive:
            return (
                f"review is an interactive terminal app and its {name} is not a terminal; "
                "run it in one (override, undo, summary and export work without one)"
            )
    return None
