"""What a judge run will cost: tokens in, tokens out, and dollars at per-million prices.

Input tokens are counted at about four characters a token (the usual rule
for English; exact counts need the model's tokenizer, which a dry run does
not load). Output tokens per call come from the replies already cached for
the model when there are some, else from the request's ``max_tokens``, else
from the judge's typical reply length. Prices are US dollars per million
tokens, from ``--price-in``/``--price-out`` or the config file::

    # ~/.config/rome-tui/config.toml
    [prices."gpt-4.1-mini"]
    input = 0.40
    output = 1.60
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorers.adjudicate.annotator import config_path, read_config
from scorers.errors import InputError
from scorers.judges.base import ChatRequest
from scorers.judges.cache import JudgeCache

# Typical reply lengths (tokens) of judges that set no max_tokens, from their
# protocols' output formats: a Judgement line with a short rationale (rome), a
# score tag or a few words (mathreal), a justification per rubric question.
TYPICAL_OUTPUT_TOKENS = {"rome": 120, "mathreal": 20, "rubric": 450}
DEFAULT_OUTPUT_TOKENS = 200


@dataclass(frozen=True)
class Prices:
    input: float  # dollars per million input tokens
    output: float  # dollars per million output tokens
    source: str  # "options" or the config file


@dataclass
class Estimate:
    calls: int
    input_tokens: int
    output_tokens: int
    output_basis: str  # how the output tokens were estimated
    dollars: float | None = None  # None without prices
    price_source: str | None = None  # "options" or the config file

    def __add__(self, other: Estimate) -> Estimate:
        both = self.dollars is not None and other.dollars is not None
        return Estimate(
            calls=self.calls + other.calls,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            output_basis="; ".join(
                dict.fromkeys(b for b in (self.output_basis, other.output_basis) if b)
            ),
            dollars=(self.dollars or 0.0) + (other.dollars or 0.0) if both else None,
            price_source=self.price_source if both else None,
        )


def estimate(
    requests: Sequence[ChatRequest],
    *,
    judge: str,
    model: str,
    cache: JudgeCache | None,
    prices: Prices | None,
) -> Estimate:
    seen, mean = cache.completion_tokens(model) if cache is not None else (0, 0.0)
    output = 0
    for request in requests:
        if seen:
            output += round(mean)
            continue
        limit = request.param_dict().get("max_tokens")
        output += (
            limit
            if isinstance(limit, int)
            else TYPICAL_OUTPUT_TOKENS.get(judge, DEFAULT_OUTPUT_TOKENS)
        )
    if seen:
        basis = f"mean of {seen} cached replies of {model}"
    elif any(isinstance(r.param_dict().get("max_tokens"), int) for r in requests):
        basis = "max_tokens of each request: an upper bound"
    else:
        basis = f"a typical {judge} reply"
    tokens_in = sum(r.input_tokens() for r in requests)
    return Estimate(
        calls=len(requests),
        input_tokens=tokens_in,
        output_tokens=output,
        output_basis=basis,
        dollars=None
        if prices is None
        else (tokens_in * prices.input + output * prices.output) / 1e6,
        price_source=None if prices is None else prices.source,
    )


def prices_for(model: str, price_in: float | None, price_out: float | None) -> Prices | None:
    """The options' prices if given (both needed), else the config file's for ``model``
    (on Python 3.10, whose config reader reads no tables, only the options')."""
    if price_in is not None or price_out is not None:
        return Prices(price_in or 0.0, price_out or 0.0, "options")
    path = config_path()
    config = read_config(path)
    if config is None:
        return None
    table = config.get("prices", {})
    entry = table.get(model) if isinstance(table, dict) else None
    if not isinstance(entry, dict):
        return None
    values = [entry.get("input"), entry.get("output")]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in values):
        raise InputError(
            str(path), f"[prices.{model!r}] needs non-negative numbers `input` and `output`"
        )
    return Prices(float(values[0]), float(values[1]), str(path))  # type: ignore[arg-type]
