"""The top-level command: what `rome-tui` says before any sub-command runs."""

from __future__ import annotations

from importlib.metadata import version

from hardening_fixtures import run_cli


def test_version_is_printed() -> None:
    """`rome-tui --version`, what a bug report asks for, was "unrecognized arguments"."""
    ran = run_cli(["--version"])
    assert ran.code == 0 and ran.out.strip() == f"rome-tui {version('rome-tui')}", ran


def test_no_command_prints_the_commands_and_exits_2() -> None:
    ran = run_cli([])
    assert ran.code == 2 and "COMMAND" in ran.out and "review" in ran.out
