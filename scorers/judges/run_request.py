"""What a judge run is asked (:class:`JudgeRunRequest`) and what it reports back.

``rome-tui judge`` builds the request from its options; a notebook builds it by
hand. The results (:class:`JudgeRunResult`, :class:`JudgePlan` for a dry run)
carry counts and warnings only: drawing them is the caller's.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from scorers.errors import UsageError
from scorers.io.run_paths import ResultsPaths
from scorers.judges.base import ChatRequest, Judge
from scorers.judges.client import ClientStats
from scorers.judges.cost import Estimate
from scorers.records import FLAG_KINDS


@dataclass(frozen=True)
class JudgeRunRequest:
    """What to judge and how; the defaults are ``rome-tui judge``'s."""

    results: str | os.PathLike[str]  # a results directory or its updated_predictions.json
    judge: str  # a name in scorers.judges.registry.JUDGE_MODULES
    model: str | None = None  # default: $OPENAI_MODEL, else the judge's protocol model
    models: Sequence[str] = ()  # a judge panel: several models (overrides ``model``)
    base_url: str | None = None  # default: $OPENAI_BASE_URL, else OpenAI
    concurrency: int = 8
    timeout: float = 60.0
    max_retries: int = 5
    rpm: float | None = None  # requests per minute (a token bucket), per model
    tpm: float | None = None  # estimated tokens per minute, per model
    where: Sequence[str] = ()  # FIELD=VALUE conditions, ANDed
    flagged: Sequence[str] | None = None  # only items with these flag kinds ([] = any heuristic)
    low_confidence: bool = False  # ... and only where the flag's confidence is "low"
    retry_errors: bool = False  # only items whose earlier verdict of this judge is an error
    parse: str = "robust"  # rome judge: "robust" or the reference's exact "rome" parser
    fence: bool = False  # wrap model text in nonce tags (off: the published prompts verbatim)
    vrc_answer_mode: str = "final"
    rubric: str = "default"
    use_cache: bool = True
    price_in: float | None = None  # dollars per million input tokens (dry run)
    price_out: float | None = None  # dollars per million output tokens (dry run)
    images: str | None = None  # --images DIR: kept in run.json for the review app (not sent)

    def checked(self) -> JudgeRunRequest:
        """Itself, or a UsageError naming the option that cannot work."""
        if self.concurrency < 1:
            raise UsageError("--concurrency must be at least 1")
        # `not (x > 0)` and isfinite: argparse's float() takes 'nan' and 'inf', which
        # pass every comparison written the other way round.
        if not (self.timeout > 0 and math.isfinite(self.timeout)):
            raise UsageError(f"--timeout must be a positive number of seconds, got {self.timeout}")
        if self.max_retries < 0:
            raise UsageError("--max-retries must be 0 or more")
        if self.parse == "rome" and self.judge != "rome":
            raise UsageError("--parse rome applies to --judge rome only")
        for name, value in (("--rpm", self.rpm), ("--tpm", self.tpm)):
            if value is not None and not (value > 0 and math.isfinite(value)):
                raise UsageError(f"{name} must be positive, got {value}")
        for name, value in (("--price-in", self.price_in), ("--price-out", self.price_out)):
            if value is not None and not (value >= 0 and math.isfinite(value)):
                raise UsageError(
                    f"{name} must be 0 or more (dollars per million tokens), got {value}"
                )
        if len(set(self.models)) != len(self.models):
            raise UsageError("--models lists a model twice")
        if any(not m.strip() or "," in m for m in self.models):
            raise UsageError("--models takes model names separated by commas, e.g. A,B,C")
        unknown = [k for k in self.flagged or () if k not in FLAG_KINDS]
        if unknown:
            raise UsageError(
                f"--flagged: unknown flag kind {unknown[0]!r}; kinds: {', '.join(FLAG_KINDS)}"
            )
        return self

    def model_names(self, judge: Judge) -> list[str]:
        if self.models:
            return list(self.models)
        return [self.model or os.environ.get("OPENAI_MODEL") or judge.default_model]

    def endpoint(self) -> str:
        return self.base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"

    def missing_api_key(self) -> bool:
        """Whether the calls would go to OpenAI without OPENAI_API_KEY (a local server needs
        none): every route that sends calls refuses this before the first one."""
        return not os.environ.get("OPENAI_API_KEY") and "api.openai.com" in self.endpoint()


class Progress(Protocol):
    def advance(self, error: bool) -> None: ...


# (calls to judge, label, the clients' live counters) -> a progress display
ProgressFactory = Callable[[int, str, ClientStats], AbstractContextManager[Progress]]


@dataclass
class JudgeRunResult:
    """What a judge run did; ``records`` are the ones judged (already saved)."""

    judge: str
    model: str  # the model, or "A,B,C" for a panel
    paths: ResultsPaths
    selected: int
    judged: int = 0  # records given a verdict (the panel's, for a panel)
    errors: int = 0  # verdicts written with an error (every member of a panel counts)
    verdicts: int = 0  # verdicts written (members and panel)
    pending: int = 0  # records with a call not answered yet (batch import: export again)
    interrupted: bool = False
    first_error: str | None = None  # "record ID: message" of the first error verdict
    calls: int = 0
    cached: int = 0
    retries: int = 0
    throttled: int = 0
    tokens: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class JudgePlan:
    """A dry run: the requests a run would send, how many the cache holds, what they cost."""

    judge: str
    model: str
    endpoint: str
    selected: int
    requests: list[ChatRequest]
    cached: int
    prompt_chars: int
    estimate: Estimate | None = None
    warnings: list[str] = field(default_factory=list)
    unaskable: int = 0  # records that get an error verdict without a call (runner.Plan)
    unaskable_reason: str | None = None
