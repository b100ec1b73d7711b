"""The review app leaves when its terminal hangs up, instead of spinning on it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from app_fixtures import make_records, write_run

from rome_tui.app import terminal

ROME_TUI = Path(sys.executable).with_name("rome-tui")


def test_hung_up_follows_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    controller, pane = os.openpty()
    with open(pane, "rb", buffering=0) as stdin:
        monkeypatch.setattr(sys, "__stdin__", stdin)
        assert terminal.is_terminal() and not terminal.hung_up()
        os.close(controller)  # the terminal emulator goes away
        assert terminal.hung_up()


def test_no_terminal_is_not_a_hang_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "__stdin__", None)
    assert not terminal.is_terminal() and not terminal.hung_up()


def test_a_pipe_is_not_watched(monkeypatch: pytest.MonkeyPatch) -> None:
    reader, writer = os.pipe()
    os.close(writer)  # a pipe whose writer is done reports hang-up
    with open(reader, "rb", buffering=0) as stdin:
        monkeypatch.setattr(sys, "__stdin__", stdin)
        assert not terminal.is_terminal()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")
def test_review_exits_when_its_pane_closes(tmp_path: Path) -> None:
    write_run(tmp_path / "run", make_records(5))
    session = f"rome-hup-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "TERM": "xterm-256color", "ROME_TUI_CONFIG": str(tmp_path / "none.toml")}
    # SIGHUP ignored, as under a parent that catches it (make): only the closed
    # terminal tells the app to go.
    command = f"trap '' HUP; exec {ROME_TUI} review {tmp_path / 'run'} --annotator t"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command],
        check=True,
        env=env,
    )
    pid = int(
        subprocess.run(
            ["tmux", "display-message", "-p", "-t", session, "#{pane_pid}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    try:
        deadline = time.monotonic() + 20
        while (
            "q0000"
            not in subprocess.run(
                ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True
            ).stdout
        ):
            assert time.monotonic() < deadline, "the app never drew its table"
            time.sleep(0.2)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)
    deadline = time.monotonic() + 15
    while Path(f"/proc/{pid}").exists() and _state(pid) != "Z":
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            pytest.fail("the app outlived its terminal")
        time.sleep(0.2)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "gone"
