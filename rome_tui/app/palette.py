"""Command palette entries that filter by what the run contains (flag kinds, buckets, models)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider

from rome_tui.app.items import Row


@runtime_checkable
class FilterTarget(Protocol):
    """What the filter commands need of their screen (the review screen offers them).

    A protocol rather than the screen's class, so the screen can list this
    provider in its ``COMMANDS`` without an import cycle.
    """

    rows: Sequence[Row]

    def set_filter(self, text: str) -> None: ...


class FilterCommands(Provider):
    def _target(self) -> FilterTarget | None:
        screen = self.screen
        return screen if isinstance(screen, FilterTarget) else None

    def _choices(self) -> Iterator[tuple[str, str]]:
        target = self._target()
        if target is None:
            return
        rows = target.rows
        yield "Filter: flagged, not yet reviewed", "is:todo"
        yield "Filter: reviewed", "is:reviewed"
        yield "Filter: unreviewed", "is:unreviewed"
        yield "Filter: overridden", "is:overridden"
        yield "Filter: partial credit", "score:partial"
        yield "Filter: score 0", "score:0"
        yield "Filter: score 1", "score:1"
        kinds: dict[str, None] = {}
        buckets: dict[str, None] = {}
        models: dict[str, None] = {}
        evaluators: dict[str, None] = {}
        for row in rows:
            kinds.update(dict.fromkeys(row.flags))
            buckets[row.bucket] = None
            models[row.model] = None
            evaluators[row.evaluator] = None
        for kind in sorted(kinds):
            yield f"Filter: flag {kind}", f"flag:{kind}"
        for name, values in (("bucket", buckets), ("model", models), ("eval", evaluators)):
            for value in sorted(v for v in values if v)[:200]:
                if " " not in value:
                    yield f"Filter: {name} {value}", f"{name}:{value}"

    async def discover(self) -> Hits:
        for label, query in self._choices():
            yield DiscoveryHit(label, lambda q=query: self._apply(q), help=query)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for label, value in self._choices():
            score = matcher.match(label)
            if score > 0:
                yield Hit(
                    score, matcher.highlight(label), lambda q=value: self._apply(q), help=value
                )

    def _apply(self, query: str) -> None:
        target = self._target()
        if target is not None:
            target.set_filter(query)
