"""Textual's footer, without a key cut in half at its right edge.

At 80 columns the footer's last key was drawn as a lone ``f`` (its description past
the edge), which reads as a stray character. Keys (or a group of keys and its label)
that do not fit whole are hidden after each layout; a resize shows them again.
"""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterLabel, KeyGroup

from rome_tui.app.bindings import FOOTER_ORDER, REGISTRY

# A footer key's place: FOOTER_ORDER's, by the action it runs (an app key repeated on a
# screen keeps its ``app.`` prefix there, so both spellings are ranked).
_RANK = {
    action: FOOTER_ORDER.index(spec.id)
    for spec in REGISTRY
    if spec.id in FOOTER_ORDER
    for action in (spec.action, spec.action.removeprefix("app."))
}


class FittedFooter(Footer):
    def __init__(self, *, ordered: bool = False) -> None:
        super().__init__()
        # The review screen's keys follow FOOTER_ORDER (bindings.screen_bindings);
        # other screens keep Textual's order.
        self.ordered = ordered

    async def recompose(self) -> None:
        await super().recompose()
        if self.ordered:
            self._keep_footer_order()
        self.call_after_refresh(self._hide_cut_keys)

    def _keep_footer_order(self) -> None:
        """Put the keys back in FOOTER_ORDER: a key rebound in the user's keymap comes
        last in Textual's footer (it is re-added to the bindings), so the most used key
        of all was the first one an 80-column footer left out."""
        units: list[list[Widget]] = []
        for child in self.children:
            if isinstance(child, FooterLabel) and units:  # a group's label follows it
                units[-1].append(child)
            elif not child.has_class("-command-palette"):
                units.append([child])
        ranked = sorted(units, key=self._rank)
        if ranked == units:
            return
        for unit in reversed(ranked):  # each unit to the front, the first one last
            for widget in reversed(unit):
                self.move_child(widget, before=0)

    @staticmethod
    def _rank(unit: list[Widget]) -> int:
        keys = [unit[0], *unit[0].children] if isinstance(unit[0], KeyGroup) else unit
        ranks = [_RANK.get(str(getattr(k, "action", "")), len(_RANK)) for k in keys]
        return min(ranks, default=len(_RANK))

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
