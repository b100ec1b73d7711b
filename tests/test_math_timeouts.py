"""The per-item time limit around math-verify: any thread, no hang, reported."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from scorers.evaluate.mathmatch import math_matching, mvpool, set_time_limit, time_limit

# sympy needs many seconds for this difference (well over any limit used here);
# the imaginary unit keeps it away from the sampled fast path.
SLOW_REF = r"i+\frac{(x+y+z)^{40}}{(x-y)^{20}}"
SLOW_PRED = r"i+\frac{(x+y+z)^{41}}{(x-y)^{21}}"


@pytest.fixture
def short_limit() -> Iterator[float]:
    before = time_limit()
    mvpool.pool().equal("1", "1", 60)  # start a worker outside the timed part
    set_time_limit(0.5)
    yield 0.5
    set_time_limit(before)


def test_slow_item_times_out_and_is_reported(short_limit: float) -> None:
    start = time.monotonic()
    out = math_matching(rf"\boxed{{{SLOW_PRED}}}", answer=SLOW_REF)
    elapsed = time.monotonic() - start
    assert elapsed < short_limit + 2.0
    assert (out.score, out.strict) == (0.0, 0.0)
    assert out.note is not None and "timed out" in out.note
    assert out.parts is not None and out.parts[0]["how"] == "math-verify timed out"


@pytest.mark.slow
def test_grading_continues_after_a_timeout(short_limit: float) -> None:
    math_matching(rf"\boxed{{{SLOW_PRED}+1}}", answer=SLOW_REF)
    set_time_limit(60)  # the next call may have to start a fresh worker
    out = math_matching(r"\boxed{4i+3}", answer="3+4i")
    assert out.strict == 1.0
    assert out.note is None


def test_time_limit_must_be_positive() -> None:
    with pytest.raises(ValueError):
        set_time_limit(0)


@pytest.mark.slow
def test_math_verify_from_many_threads() -> None:
    """math-verify's own signal-based timeout fails outside the main thread; ours does not."""
    # Complex numbers are not sampled, so each of these goes to math-verify.
    cases = [(rf"{k}+{k + 1}i", rf"{k + 1}i+{k}", 1.0) for k in range(2, 6)]
    cases += [(rf"{k}+{k + 1}i", rf"{k}i+{k + 1}", 0.0) for k in range(2, 6)]
    results: dict[int, float | None] = {}
    errors: list[BaseException] = []

    def run(i: int, ref: str, pred: str) -> None:
        try:
            results[i] = math_matching(rf"\boxed{{{pred}}}", answer=ref).strict
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, r, p)) for i, (r, p, _) in enumerate(cases)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    assert results == {i: expected for i, (_, _, expected) in enumerate(cases)}


def test_thread_fallback_when_processes_are_unavailable() -> None:
    pool = mvpool.MathVerifyPool()
    pool._processes_ok = False  # as inside a daemonic worker process
    assert pool.equal("3+4i", "4i+3", 60) is True
    start = time.monotonic()
    # About two seconds of sympy work: the abandoned thread finishes soon after.
    assert pool.equal(r"\sin(x)^{200}+\cos(x)^{200}", r"\cos(2x)", 0.2) is None
    assert time.monotonic() - start < 2.0
    assert pool.timeouts == 1
