"""What a record's ``review`` means: the one owner of its rules.

Pure functions over the record dict (no I/O, no judges imported).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scorers.flags.flagging import FlagContext

if TYPE_CHECKING:
    from scorers.io.results import RunSettings


def flag_context(settings: RunSettings) -> FlagContext:
    """The flag context of a run graded with ``settings``."""
    return FlagContext(
        tools_available=frozenset(settings.tools_available), primary_rule=settings.primary_rule
    )
