"""A [keymap] key that another binding also has is never silent: two configured ids on
one key are a startup error; a key taken from a built-in binding is a warning that
names the config file, the key, both bindings and which one the key reaches."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_fixtures import make_records, open_run, write_run
from test_app_review import SIZE, current_qid, ready, review
from textual.widgets._footer import FooterKey

from rome_tui.app.app import ReviewApp
from rome_tui.app.bindings import REGISTRY
from rome_tui.app.settings import key_clashes, keymap_warnings, load_keymap
from rome_tui.app.widgets.footer import FittedFooter
from scorers.errors import InputError


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config.toml"
    monkeypatch.setenv("ROME_TUI_CONFIG", str(path))
    return path


def test_a_config_repeating_the_built_in_keys_is_no_clash(config: Path) -> None:
    # q quits, except in the full-screen image view, whose q closes it: on purpose.
    lines = [f'{spec.id} = "{spec.keys}"' for spec in REGISTRY]
    config.write_text("[keymap]\n" + "\n".join(lines) + "\n")
    keymap = load_keymap()
    assert len(keymap) == len(REGISTRY)
    assert key_clashes(keymap) == [] and keymap_warnings(keymap) == []


def test_two_configured_bindings_on_one_key_are_refused(config: Path) -> None:
    config.write_text('[keymap]\nnext-flagged = "z"\nundo = "ctrl+z,z"\n')
    with pytest.raises(InputError) as caught:
        load_keymap()
    message = str(caught.value)
    assert str(config) in message
    assert "next-flagged and undo" in message and "'z'" in message


def test_one_key_for_bindings_never_live_together_is_fine(config: Path) -> None:
    # The item table and the text panes never have focus at the same time.
    config.write_text('[keymap]\ncursor-down = "m"\nscroll-down = "m"\n')
    keymap = load_keymap()
    assert keymap == {"cursor-down": "m", "scroll-down": "m"}
    assert keymap_warnings(keymap) == []


def test_a_key_taken_from_a_built_in_is_named_with_both_bindings(config: Path) -> None:
    taken, shadowed = keymap_warnings({"next-flagged": "u", "sort": "j"})[:2]
    assert taken.startswith(f"{config}: [keymap] next-flagged = 'u'")
    assert "from undo (Undo" in taken and "ctrl+p" in taken  # undo had no other key
    assert "sort = 'j'" in shadowed and "runs cursor-down instead" in shadowed


def test_textual_s_own_keys_are_named_when_a_binding_cannot_have_them() -> None:
    (line,) = keymap_warnings({"next-flagged": "ctrl+p", "quit": "ctrl+q"})
    assert "next-flagged = 'ctrl+p'" in line and "command palette" in line


async def test_the_app_shows_the_warning_and_keys_go_where_it_says(
    tmp_path: Path, config: Path
) -> None:
    write_run(tmp_path / "run", make_records(12))
    keymap = {"next-flagged": "u", "sort": "j"}
    app = ReviewApp(open_run(tmp_path / "run"), keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        shown = [n.message for n in app._notifications]
        assert any("takes it from undo" in m for m in shown)
        assert any("runs cursor-down instead" in m for m in shown)
        rows = review(app).rows
        await pilot.press("u")  # the configured binding, not undo
        assert current_qid(app) == next(r.qid for r in rows[1:] if r.flags)
        before = current_qid(app)
        await pilot.press("j")  # the table's cursor-down, as the warning says
        assert current_qid(app) != before
        assert review(app).rows is rows or [r.qid for r in review(app).rows] == [
            r.qid for r in rows
        ]


def test_help_and_palette_show_the_keys_the_keymap_gives() -> None:
    from rich.console import Console

    from rome_tui.app.bindings import display_keys
    from rome_tui.app.screens.help import help_table

    spec = next(s for s in REGISTRY if s.id == "help")
    assert display_keys(spec) == "?"
    assert display_keys(spec, {"help": "f1,question_mark"}) == "f1 ?"
    console = Console(width=120, record=True)
    console.print(help_table({"next-flagged": "ctrl+n"}))
    line = next(t for t in console.export_text().splitlines() if "[next-flagged]" in t)
    assert line.split()[0] == "ctrl+n"


async def test_a_rebound_key_keeps_its_place_in_the_footer(tmp_path: Path) -> None:
    # Textual re-adds a rebound binding last, so with next-flagged on N the footer ran
    # "/ Filter 0 1 = Score ..." and an 80-column footer left Next out altogether.
    write_run(tmp_path / "run", make_records(12))
    app = ReviewApp(open_run(tmp_path / "run"), keymap={"next-flagged": "N"})
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        footer = app.review.query_one(FittedFooter)
        keys = [k.key for k in footer.query(FooterKey) if k.display]
        assert keys[:3] == ["slash", "N", "0"], keys
