"""Textual's footer, without a key cut in half at its right edge.

At 80 columns the footer's last key was drawn as a lone ``f`` (its description past
the edge), which reads as a stray character. Keys (or a group of keys and its label)
that do not fit whole are hidden after each layout; a resize shows them again.
"""

from __future__ import annotations

from textual.widgets import Footer


class FittedFooter(Footer):
    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self._hide_cut_keys)

    def on_resize(self) -> None:
        # Hidden keys take no room, so a wider footer starts again from every key.
        for child in self.children:
            child.display = True
        self.call_after_refresh(self._hide_cut_keys)

    def _hide_cut_keys(self) -> None:
        shown = [c for c in self.children if c.display and not c.has_class("-command-palette")]
        if shown and not any(c.region.width for c in shown):
            # Recomposed while a dialog covers this screen: its keys have no place yet.
            self.call_after_refresh(self._hide_cut_keys)
            return
        right = self.region.right
        for child in self.children:
            if child.has_class("-command-palette"):
                right = min(right, child.region.x)  # docked right: the keys end before it
        cut = False
        for child in self.children:
            if child.has_class("-command-palette") or not child.display:
                continue
            # Once one key is cut, everything after it is too (a label without its keys).
            cut = cut or child.region.right > right
            if cut:
                child.display = False
