"""The shapes every judge shares: a chat request, its reply, and the judge protocol.

A judge turns one record into one :class:`~scorers.records.Verdict`. It never
talks to the network itself: it builds :class:`ChatRequest` values and awaits
a ``call`` function, which is the client (retries, cache, concurrency) in a
real run, a recorder in a dry run, and a scripted function in unit tests.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from scorers.errors import UsageError
from scorers.records import Verdict

if TYPE_CHECKING:
    from scorers.judges.parsing import Parsed


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion, minus the model (the client adds it)."""

    messages: tuple[tuple[str, str], ...]  # (role, content)
    params: tuple[tuple[str, Any], ...] = ()  # temperature, max_tokens, response_format, ...

    @classmethod
    def of(cls, messages: list[tuple[str, str]], **params: Any) -> ChatRequest:
        return cls(tuple(messages), tuple(sorted(params.items())))

    def message_dicts(self) -> list[dict[str, str]]:
        return [{"role": role, "content": content} for role, content in self.messages]

    def param_dict(self) -> dict[str, Any]:
        return dict(self.params)

    def payload(self, model: str) -> bytes:
        return orjson.dumps(
            {"model": model, "messages": self.message_dicts(), "params": self.param_dict()},
            option=orjson.OPT_SORT_KEYS,
        )

    def cache_key(self, model: str) -> str:
        """Content address of the call: model, messages and parameters."""
        keys: dict[str, str] = self.__dict__.setdefault("_keys", {})
        key = keys.get(model)
        if key is None:  # asked several times a call (cache, batch id, dry run): hash once
            key = keys[model] = hashlib.sha256(self.payload(model)).hexdigest()
        return key

    def prompt_hash(self) -> str:
        """Short hash of exactly what the judge was shown (messages and parameters)."""
        return self.cache_key("")[:16]

    def prompt_chars(self) -> int:
        return sum(len(content) for _, content in self.messages)

    def input_tokens(self) -> int:
        """Estimated prompt tokens: about four characters a token, plus a few per message."""
        return (self.prompt_chars() + 3) // 4 + 4 * len(self.messages)


@dataclass
class ChatReply:
    content: str | None
    usage: dict[str, int] = field(default_factory=dict)
    error: str | None = None  # the call failed after all retries; content is None
    cached: bool = False
    attempts: int = 0
    finish_reason: str | None = None
    # Set by a caching client: called once the judge has read the reply, with
    # whether it parsed. Only a parsed reply is cached (a cached one that no
    # longer parses is dropped), so an unparsable reply is asked again next run.
    on_settle: Callable[[bool], None] | None = field(default=None, repr=False, compare=False)

    def settle(self, parsed: bool) -> None:
        """Tell the client whether the reply parsed (once; later calls do nothing)."""
        hook, self.on_settle = self.on_settle, None
        if hook is not None:
            hook(parsed)


Call = Callable[[ChatRequest], Awaitable[ChatReply]]


class Pending(Exception):
    """Raised by a call that has no reply yet (a batch export, or an import without this call).

    The record is left without a verdict this time; nothing is recorded as an error.
    """


class Unreachable(UsageError):
    """Raised by a live run's call when nothing listens at the endpoint (refused before it
    ever answered): a mistyped ``--base-url`` or a server not started stops the run with
    nothing written, instead of leaving an error verdict and a ``judge_error`` flag on
    every selected item."""


@dataclass(frozen=True)
class JudgeOptions:
    model: str
    parse: str = "robust"  # "rome" reproduces the reference parser (judge rome only)
    # Wrap model answers in nonce tags so they cannot pose as instructions. Off by
    # default: the published prompts are sent byte for byte, as the papers did.
    fence: bool = False
    vrc_answer_mode: str = "final"  # "final" (intended) or "released" (steps vs whole response)
    rubric: str = "default"  # "default" or "visual" rubric questions
    extra: Mapping[str, Any] = field(default_factory=dict)


class Judge(Protocol):
    name: str
    default_model: str
    #: True when the verdict's score says whether the answer is right (it can be primary).
    grades_correctness: bool

    async def judge(self, record: dict[str, Any], call: Call, opts: JudgeOptions) -> Verdict: ...


def add_usage(total: dict[str, int], usage: Mapping[str, int]) -> dict[str, int]:
    for key, value in usage.items():
        if isinstance(value, int):
            total[key] = total.get(key, 0) + value
    return total


def error_verdict(
    source: str,
    error: str,
    *,
    model: str,
    prompt_hash: str | None = None,
    raw: str | None = None,
    usage: Mapping[str, int] | None = None,
) -> Verdict:
    """A failed or unparsable judgement: score None, the reason, and the raw reply."""
    verdict = Verdict(
        source=source,
        score=None,
        extracted=None,
        explanation=None,
        error=error,
        model=model,
        parse="failed",
    )
    if prompt_hash:
        verdict["prompt_hash"] = prompt_hash
    if raw is not None:
        verdict["raw"] = raw
    if usage:
        verdict["usage"] = dict(usage)
    return verdict


def text_field(record: Mapping[str, Any], *names: str) -> str | None:
    """The first of ``names`` that the record holds as non-empty text (numbers stringified)."""
    for name in names:
        value = record.get(name)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return "\n".join(value)
    return None


async def ask(
    source: str,
    request: ChatRequest,
    call: Call,
    parser: Callable[[str | None], Parsed],
    *,
    model: str,
    extracted: str | None = None,
    usage: dict[str, int] | None = None,
) -> tuple[Verdict, Parsed]:
    """Send one request, read its reply with one of the parsers in ``parsing`` and make the
    verdict of it (:func:`verdict_of_reply`); the parsed reply is returned too, for what a
    judge keeps beyond the score. Every judge's scoring call goes through here, so a reply
    is read and settled the same way whichever judge asked.

    ``usage``, when given, holds the usage of this judgement's earlier calls (mathreal's
    extraction); the reply's is added to it and the verdict reports the sum.
    """
    reply = await call(request)
    if usage is not None:
        add_usage(usage, reply.usage)
    parsed = parser(reply.content)
    verdict = verdict_of_reply(
        source,
        model=model,
        request=request,
        reply=reply,
        score=parsed.score,
        parse=parsed.parse,
        error=parsed.error,
        explanation=parsed.explanation,
        extracted=extracted,
        usage=usage,
        fallback=parsed.fallback,
    )
    return verdict, parsed


def empty_reply_problem(reply: ChatReply) -> str | None:
    """What is wrong with a reply that carries no text, or None if it has some."""
    if reply.error is not None:
        return reply.error
    if reply.content is None:
        return "the judge returned null content"
    if not reply.content.strip():
        return "the judge returned an empty reply"
    return None


def verdict_of_reply(
    source: str,
    *,
    model: str,
    request: ChatRequest,
    reply: ChatReply,
    score: float | None,
    parse: str,
    error: str | None = None,
    explanation: str | None = None,
    extracted: str | None = None,
    usage: Mapping[str, int] | None = None,
    fallback: str | None = None,
) -> Verdict:
    """The verdict of one judged reply; an error verdict when the call or the parse failed.

    A null or empty reply is an error whatever the parser made of it, and the
    reply is settled (cached only when it gave a score).
    """
    used = dict(usage if usage is not None else reply.usage)
    if reply.error is not None:
        reply.settle(False)
        return error_verdict(
            source, reply.error, model=model, prompt_hash=request.prompt_hash(), usage=used
        )
    empty = empty_reply_problem(reply)
    if empty is not None:
        reply.settle(False)
        return error_verdict(
            source, empty, model=model, prompt_hash=request.prompt_hash(), raw="", usage=used
        )
    reply.settle(error is None and score is not None)
    cut = reply.finish_reason == "length"  # the reply hit max_tokens
    if error is not None or score is None:
        verdict = error_verdict(
            source,
            f"unparsable reply: {error or 'no score'}"
            + (" (the reply was cut off at max_tokens)" if cut else ""),
            model=model,
            prompt_hash=request.prompt_hash(),
            raw=reply.content or "",
            usage=used,
        )
        verdict["explanation"] = explanation
        return verdict
    verdict = Verdict(
        source=source,
        score=score,
        extracted=extracted,
        explanation=explanation,
        model=model,
        prompt_hash=request.prompt_hash(),
        raw=reply.content or "",
        parse=parse,
    )
    if cut:
        # Scored, but from a reply that was cut short: worth a look before trusting it.
        fallback = "; ".join(filter(None, [fallback, "the reply was cut off at max_tokens"]))
    if fallback:
        verdict["fallback"] = fallback
    if used:
        verdict["usage"] = used
    return verdict
