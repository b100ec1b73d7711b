"""The real `rome-tui review` in a real terminal (tmux): what a person would see and do."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import orjson
import pytest
from app_fixtures import hostile_record, make_records, write_run

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)"
    ),
]

ROME_TUI = Path(sys.executable).with_name("rome-tui")
HELP = "Next: Jump to the next flagged item"


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def wait_for(session: str, text: str, timeout: float = 20.0, gone: bool = False) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-t", session, "-p")
        if (text in screen) != gone:
            return screen
        time.sleep(0.2)
    raise AssertionError(
        f"{text!r} never {'went' if gone else 'appeared'}; the screen was:\n{screen}"
    )


def keys_reach_the_app(session: str) -> None:
    """Wait until typed keys are read: Textual drops keys typed in the instant after
    its first paint, and on a loaded machine that instant can last seconds. Help is
    the probe: a dropped "?" does nothing, so it is sent again until help opens. A
    resent "?" may still be on its way and close help again ("?" toggles it), so help
    counts as open only once it has stayed open for a second."""
    for _ in range(15):
        tmux("send-keys", "-t", session, "-l", "?")
        try:
            wait_for(session, HELP, timeout=2.0)
        except AssertionError:
            continue
        time.sleep(1.0)
        if HELP in tmux("capture-pane", "-t", session, "-p"):
            break
    else:
        raise AssertionError("the app never read a key")
    close_with_escape(session)


def close_with_escape(session: str, shown: str = "Anywhere") -> None:
    """An ESC read together with the next keys is the start of an escape sequence
    (Alt+key, or a sequence that swallows the keys after it), so the next key waits
    until the ESC has been read on its own, well past Textual's ESCDELAY (0.1 s)."""
    tmux("send-keys", "-t", session, "Escape")
    wait_for(session, shown, gone=True)
    time.sleep(0.5)


def test_review_in_tmux(tmp_path: Path) -> None:
    records = make_records(30)
    records.insert(1, hostile_record())
    write_run(tmp_path / "run", records)
    session = f"rome-e2e-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "TERM": "xterm-256color", "ROME_TUI_CONFIG": str(tmp_path / "none.toml")}
    command = f"{ROME_TUI} review {tmp_path / 'run'} --annotator e2e; echo EXITED-$?; sleep 60"
    # 200 columns: the override below lands on the hostile record (the cursor returns to
    # where the reviewer was before filtering), whose long id in the save note would push
    # the status line to its shorter wording at 150.
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "200", "-y", "42", command],
        check=True,
        env=env,
    )
    try:
        screen = wait_for(session, "shown 31/31")
        # The table, the detail panes and the footer, as a person sees them.
        assert "run · e2e" in screen
        assert "q0000" in screen and "gemini-2.5-pro" in screen
        assert "Reasoning" in screen and "Final answer (raw)" in screen
        assert "n Next" in screen and "? Help" in screen and "q Quit" in screen
        # Markup in an id is shown literally, and escape sequences did not clear the screen.
        assert "[bold]q-markup[/bold]␛[2J" in screen
        keys_reach_the_app(session)

        tmux("send-keys", "-t", session, "-l", "/")
        tmux("send-keys", "-t", session, "-l", "bucket:geo")
        tmux("send-keys", "-t", session, "Enter")
        screen = wait_for(session, "shown 7/31")
        assert "q0002" in screen and "q0001 " not in screen

        tmux("send-keys", "-t", session, "x", "n", "1")
        wait_for(session, "Reason (required)")
        tmux("send-keys", "-t", session, "-l", "checked the chart by hand")
        tmux("send-keys", "-t", session, "Enter")
        screen = wait_for(session, "files written")
        assert "reviewed 1 / flagged" in screen

        tmux("send-keys", "-t", session, "-l", "?")
        wait_for(session, HELP)
        close_with_escape(session)
        tmux("send-keys", "-t", session, "q")
        wait_for(session, "EXITED-0")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)

    saved = [
        r
        for r in orjson.loads((tmp_path / "run" / "updated_predictions.json").read_bytes())
        if r["review"].get("human")
    ]
    assert len(saved) == 1
    assert saved[0]["review"]["human"]["annotator"] == "e2e"
    assert saved[0]["review"]["human"]["reason"] == "checked the chart by hand"
    assert saved[0]["correct"] == 1
