"""Images in a real terminal (tmux): grade a run, review it with --images, see the picture."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import orjson
import pytest
from image_fixtures import make_image_root
from test_e2e_tmux import close_with_escape, keys_reach_the_app, tmux, wait_for

from rome_tui.demo.questions import all_questions

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)"
    ),
]

ROME_TUI = Path(sys.executable).with_name("rome-tui")
# One good picture first, then every kind of file the app must survive.
PATHS = [
    "img/red.png",
    "img/nowhere.png",
    "img/empty.png",
    "img/truncated.png",
    "img/huge.png",
    "../secret.png",
]


def write_inputs(directory: Path) -> tuple[Path, Path]:
    questions = [q for q in all_questions() if q.task == "recognition"][: len(PATHS)]
    annotations, predictions = [], []
    for question, path in zip(questions, PATHS, strict=True):
        record = question.annotation()
        record["img_path"] = path
        annotations.append(record)
        answer = question.right[0]
        predictions.append(
            {"question_id": question.qid, "answer": f"Counting them.\nFinal Answer: {answer}"}
        )
    (directory / "annotations.json").write_bytes(orjson.dumps(annotations))
    (directory / "predictions.json").write_bytes(orjson.dumps(predictions))
    return directory / "annotations.json", directory / "predictions.json"


def test_graded_run_shows_its_images_in_tmux(tmp_path: Path) -> None:
    make_image_root(tmp_path / "root")
    annotations, predictions = write_inputs(tmp_path)
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "ROME_TUI_CONFIG": str(tmp_path / "none.toml"),
    }
    env.pop("ROME_TUI_IMAGES", None)  # auto: half-cells under tmux
    graded = subprocess.run(
        [str(ROME_TUI), "grade", "--annotations", str(annotations), "--predictions",
         str(predictions), "--out-dir", str(tmp_path / "run"), "--json"],
        capture_output=True, text=True, env=env, check=False, timeout=120,
    )  # fmt: skip
    assert graded.returncode == 0, graded.stderr
    session = f"rome-img-{uuid.uuid4().hex[:8]}"
    command = (
        f"{ROME_TUI} review {tmp_path / 'run'} --images {tmp_path / 'root'} --annotator e2e; "
        "echo EXITED-$?; sleep 60"
    )
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "160", "-y", "44", command],
        check=True,
        env=env,
    )
    try:
        screen = wait_for(session, "red.png · 120×80")
        # The half-cell picture: rows of upper-half blocks in the image pane, in colour.
        assert "Image · <image 1>" in screen
        assert sum(line.count("▀") for line in screen.splitlines()) > 200
        coloured = tmux("capture-pane", "-t", session, "-p", "-e")
        assert "▀" in coloured and "\x1b[" in coloured
        keys_reach_the_app(session)
        # The placeholder (wrapped in the narrow pane) names the file and the problem.
        for name, problem in (
            ("nowhere.png", "no such file"),
            ("empty.png", "empty file (0 bytes)"),
            ("truncated.png", "corrupt image"),
            ("huge.png", "too large to decode"),
            ("secret.png", "refused: the path leaves"),
        ):
            tmux("send-keys", "-t", session, "j")
            screen = wait_for(session, problem)
            assert name in screen and "Traceback" not in screen
        tmux("send-keys", "-t", session, "g")
        wait_for(session, "red.png · 120×80")
        tmux("send-keys", "-t", session, "v")
        screen = wait_for(session, "zoom 1×")
        tmux("send-keys", "-t", session, "+")
        wait_for(session, "zoom 1.5×")
        close_with_escape(session, shown="zoom 1.5×")
        tmux("send-keys", "-t", session, "q")
        screen = wait_for(session, "EXITED-0")
        assert "Traceback" not in screen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)
    # --images is kept with the run.
    settings = orjson.loads((tmp_path / "run" / "run.json").read_bytes())
    assert settings["annotations"] == str(annotations)
