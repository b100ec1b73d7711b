"""Pacing for the judge client: per-minute token buckets and a concurrency cap that backs off.

Providers limit requests and tokens per minute and answer 429 beyond that.
Waiting for Retry-After after the fact costs a round trip per refused call;
a bucket that meters requests (``--rpm``) and estimated tokens (``--tpm``)
before they leave keeps a long run under the limit. The concurrency cap
halves on a 429 (no more than once per second, so one burst of refusals
counts once) and grows back by one after as many successes in a row as the
current cap: additive increase, multiplicative decrease, as TCP does.
"""

from __future__ import annotations

import asyncio
import time

# A bucket holds at most this many seconds of its rate, so an idle pause
# does not turn into a burst of a whole minute's budget at once.
BURST_SECONDS = 10.0


class TokenBucket:
    """``per_minute`` units a minute, refilled continuously; ``take`` waits for enough."""

    def __init__(self, per_minute: float) -> None:
        if per_minute <= 0:
            raise ValueError("a rate must be positive")
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, self.rate * BURST_SECONDS)
        self.level = self.capacity
        self._stamp = time.monotonic()
        self._lock = asyncio.Lock()  # first come, first served

    def _refill(self) -> None:
        now = time.monotonic()
        self.level = min(self.capacity, self.level + (now - self._stamp) * self.rate)
        self._stamp = now

    async def take(self, amount: float) -> float:
        """Wait until ``amount`` is available (capped at the capacity), take it; seconds waited."""
        amount = min(amount, self.capacity)
        waited = 0.0
        async with self._lock:
            while True:
                self._refill()
                if self.level >= amount:
                    self.level -= amount
                    return waited
                pause = (amount - self.level) / self.rate
                waited += pause
                await asyncio.sleep(pause)

    def adjust(self, delta: float) -> None:
        """Correct an estimate once the real figure is known (negative: it cost more)."""
        self._refill()
        self.level = min(self.capacity, self.level + delta)


class AdaptiveLimit:
    """At most ``limit`` holders at once; the limit halves on throttling and creeps back up."""

    def __init__(self, limit: int) -> None:
        self.ceiling = max(1, limit)
        self.limit = self.ceiling
        self._semaphore = asyncio.Semaphore(self.ceiling)
        self._withheld = 0  # permits taken out of circulation by a back-off
        self._streak = 0
        self._last_cut = -1e9
        self.cuts = 0

    async def __aenter__(self) -> None:
        await self._semaphore.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self._semaphore.release()

    def throttled(self) -> None:
        """A 429: halve the limit (once per second at most)."""
        now = time.monotonic()
        self._streak = 0
        if self.limit <= 1 or now - self._last_cut < 1.0:
            return
        self._last_cut = now
        self.cuts += 1
        target = max(1, self.limit // 2)
        for _ in range(self.limit - target):
            self.limit -= 1
            asyncio.ensure_future(self._withhold())

    async def _withhold(self) -> None:
        await self._semaphore.acquire()
        self._withheld += 1

    def succeeded(self) -> None:
        """A success: after ``limit`` of them in a row, one more request may be in flight."""
        if self.limit >= self.ceiling:
            return
        self._streak += 1
        if self._streak >= self.limit and self._withheld > 0:
            self._streak = 0
            self._withheld -= 1
            self.limit += 1
            self._semaphore.release()
