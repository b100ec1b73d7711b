"""The judge client: one AsyncOpenAI, bounded concurrency, retries, timeouts, the cache.

Every live call goes through the official ``openai`` client, one
``AsyncOpenAI`` per JudgeClient, on the SDK's aiohttp transport
(``openai.DefaultAioHttpClient``, the ``openai[aiohttp]`` extra) with a
keep-alive pool the size of the concurrency cap, else on its httpx transport.
The SDK's own retries are off (``max_retries=0``) so that every retry is ours:
counted, logged in the stats, and paced by exponential backoff with jitter that
honours ``Retry-After``; the timeout is ours too (``timeout``, the whole
request). The body is passed as ``extra_body`` and the reply read raw with
orjson, which spares the SDK's per-call walk of typed parameters and response
models. A 200 reply with no choices or with null content is retried like a
5xx: it is a server fault, not an answer. Requests are paced by optional
per-minute buckets (``rpm``, ``tpm``) and a concurrency cap that halves on 429
(``scorers.judges.pacing``). A reply is cached only once the judge says it
parsed (:meth:`ChatReply.settle`). The API key is held only by the openai
client; every text that leaves this module (replies, errors) goes through
:func:`redact` first, so a server that echoes the key cannot get it into a
cache, results file or log. Proxies come from the environment
(``HTTPS_PROXY``, ``NO_PROXY``...), as the SDK's transports read them.
"""

from __future__ import annotations

import asyncio
import email.utils
import errno
import importlib
import os
import random
import re
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from scorers.judges.base import ChatReply, ChatRequest
from scorers.judges.cache import JudgeCache
from scorers.judges.pacing import AdaptiveLimit, TokenBucket

PLACEHOLDER_KEY = "no-key-needed"  # local servers ignore the key; the client insists on one
RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
MAX_RETRY_AFTER = 120.0
# Completion tokens assumed for a request without max_tokens, until its usage is known.
DEFAULT_OUTPUT_TOKENS = 256
T = TypeVar("T")


class _Retryable(Exception):
    """A 200 reply that carries no answer (no choices, null content): retried like a 5xx."""

    def __init__(self, problem: str, usage: dict[str, int]) -> None:
        super().__init__(problem)
        self.problem = problem
        self.usage = usage


@dataclass
class ClientStats:
    calls: int = 0  # HTTP requests made, retries included
    cached: int = 0  # replies served from the cache
    retries: int = 0
    errors: int = 0  # calls that failed after every retry
    throttled: int = 0  # 429 replies
    paced_seconds: float = 0.0  # time spent waiting for the rpm/tpm buckets
    prompt_tokens: int = 0
    completion_tokens: int = 0
    started: float = field(default_factory=time.monotonic)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


def redact(text: str, secret: str | None) -> str:
    """``text`` with the secret, and any token starting with its first 8 characters, removed."""
    if not secret or secret == PLACEHOLDER_KEY or len(secret) < 4:
        return text
    text = text.replace(secret, "[redacted]")
    if len(secret) >= 12:
        # Servers quote keys partially ("sk-abc12***wxyz"); drop the whole token.
        text = re.sub(re.escape(secret[:8]) + r"\S*", "[redacted]", text)
    return text


def retry_after_seconds(headers: Any) -> float | None:
    """Seconds asked for by ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date)."""
    if headers is None:
        return None
    value = headers.get("retry-after-ms")
    if value:
        try:
            return max(0.0, float(value) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class JudgeClient:
    """Sends :class:`ChatRequest` values to one model on one endpoint."""

    def __init__(
        self,
        *,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        concurrency: int = 8,
        timeout: float = 60.0,
        max_retries: int = 5,
        cache: JudgeCache | None = None,
        backoff_base: float = 0.5,
        backoff_max: float = 30.0,
        on_reply: Callable[[ChatReply], None] | None = None,
        rpm: float | None = None,
        tpm: float | None = None,
        stats: ClientStats | None = None,
    ) -> None:
        self.model = model
        self._secret = api_key or os.environ.get("OPENAI_API_KEY") or None
        self.concurrency = max(1, concurrency)
        self.max_retries = max(0, max_retries)
        self.cache = cache
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.on_reply = on_reply
        self.stats = stats if stats is not None else ClientStats()  # shared by a panel
        self._limit = AdaptiveLimit(self.concurrency)
        self._rpm = TokenBucket(rpm) if rpm else None
        self._tpm = TokenBucket(tpm) if tpm else None
        self.timeout = timeout
        # As many keep-alive connections as requests in flight: no call pays a
        # new TCP handshake in a steady run. The SDK reads OPENAI_ORG_ID and
        # OPENAI_PROJECT_ID itself and sends them as OpenAI's headers.
        # Imported here: the SDK takes most of a second to import, which the routes
        # without live calls (dry run, batch files) never pay; a live run starts
        # the import in a thread while it loads the run (``warm_import``).
        import openai

        self._openai = openai
        self._client = openai.AsyncOpenAI(
            api_key=self._secret or PLACEHOLDER_KEY,
            base_url=base_url or os.environ.get("OPENAI_BASE_URL") or None,
            timeout=timeout,
            max_retries=0,
            http_client=_http_client(self.concurrency, timeout),
        )
        self._raw_response = _transport().Response
        # Until the endpoint has answered once, a refused connection is not retried:
        # nothing listens there (a wrong port, a server not started), and backing off
        # five times on every call made a mistyped --base-url cost 15 s per wave.
        self._answered = False
        # Likewise a 404 before any call succeeded: the URL names no chat endpoint (a
        # --base-url without its /v1) or no model, and every other call would get the same.
        self._succeeded = False
        self.unreachable: str | None = None  # why, once a call was refused before any answer
        # Requests in flight by cache key: several items can make the same prompt (models
        # that gave the same short answer to one question), and the cache only answers the
        # second once the first reply is back. The second waits for the first instead of
        # asking again.
        self._in_flight: dict[str, asyncio.Future[ChatReply]] = {}

    async def __aenter__(self) -> JudgeClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._client.close()
        if self.cache is not None:
            self.cache.close()

    def redact(self, text: str) -> str:
        return redact(text, self._secret)

    def cache_key(self, request: ChatRequest) -> str:
        return request.cache_key(self.model)

    @property
    def current_concurrency(self) -> int:
        return self._limit.limit

    async def __call__(self, request: ChatRequest) -> ChatReply:
        key = self.cache_key(request)
        if self.cache is not None:
            entry = self.cache.get(key)
            if entry is not None:
                self.stats.cached += 1
                reply = ChatReply(
                    content=entry.get("content"),
                    usage=dict(entry.get("usage") or {}),
                    cached=True,
                    finish_reason=entry.get("finish_reason"),
                    on_settle=self._dropper(key),
                )
                self._notify(reply)
                return reply
        first = self._in_flight.get(key)
        if first is not None:
            shared = await asyncio.shield(first)
            if shared.error is None:
                # Served like a cached reply: no call, the same usage on its verdict;
                # the first asker's judgement alone decides what the cache keeps.
                self.stats.cached += 1
                reply = ChatReply(
                    content=shared.content,
                    usage=dict(shared.usage),
                    cached=True,
                    finish_reason=shared.finish_reason,
                )
                self._notify(reply)
                return reply
            # The first one failed after its retries: this one asks on its own.
        waiting: asyncio.Future[ChatReply] = asyncio.get_running_loop().create_future()
        self._in_flight[key] = waiting
        try:
            reply = await self._send(request)
        except BaseException:
            # Cancelled or unreachable: whoever waits asks on its own (and meets the same).
            waiting.set_result(ChatReply(content=None, error="the first asker stopped"))
            raise
        finally:
            if self._in_flight.get(key) is waiting:
                del self._in_flight[key]
        waiting.set_result(reply)
        if reply.error is None and self.cache is not None:
            reply.on_settle = self.cache.keeper(key, self.model, reply)
        self._notify(reply)
        return reply

    def _dropper(self, key: str) -> Callable[[bool], None]:
        cache = self.cache
        assert cache is not None

        def drop(parsed: bool) -> None:
            # A cached reply that no longer parses (an older version cached it,
            # or the parser got stricter) is asked again next time.
            if not parsed:
                cache.drop(key)

        return drop

    def _notify(self, reply: ChatReply) -> None:
        if self.on_reply is not None:
            self.on_reply(reply)

    async def _pace(self, request: ChatRequest) -> float:
        """Wait for the rpm and tpm buckets; the tokens taken (to correct once usage is known)."""
        tokens = 0.0
        if self._rpm is not None:
            self.stats.paced_seconds += await self._rpm.take(1)
        if self._tpm is not None:
            params = request.param_dict()
            output = params.get("max_tokens")
            tokens = request.input_tokens() + (
                output if isinstance(output, int) else DEFAULT_OUTPUT_TOKENS
            )
            self.stats.paced_seconds += await self._tpm.take(tokens)
        return tokens

    def _settle_tokens(self, taken: float, usage: dict[str, int]) -> None:
        if self._tpm is not None and taken:
            used = usage.get("total_tokens") or (
                usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
            )
            if used:
                self._tpm.adjust(taken - used)

    async def _send(self, request: ChatRequest) -> ChatReply:
        attempt = 0
        while True:
            attempt += 1
            wait: float | None = None
            usage: dict[str, int] = {}
            raw: Any = None
            taken = await self._pace(request)
            try:
                async with self._limit:
                    self.stats.calls += 1
                    # The SDK's raw request (``client.post`` with ``cast_to`` its
                    # Response, as its manual describes for custom requests): the same
                    # client, auth, headers, transport and error types as
                    # ``chat.completions.create``, without its typed walk of every
                    # message and its response models, which cost about as much
                    # event-loop time again. The reply is read with orjson.
                    raw = await _within(
                        self.timeout,
                        self._client.post(
                            "/chat/completions",
                            cast_to=self._raw_response,
                            body={
                                "model": self.model,
                                "messages": request.message_dicts(),
                                **request.param_dict(),
                            },
                        ),
                    )
                self._answered = True
                reply = self._reply_of(orjson.loads(raw.content), attempt)
                self._succeeded = True  # an API body: the URL is the API's
                self._settle_tokens(taken, reply.usage)
                self._limit.succeeded()
                return reply
            except _Retryable as exc:
                problem, usage = exc.problem, exc.usage
                self._settle_tokens(taken, usage)
            except self._openai.APIStatusError as exc:
                self._answered = True  # an HTTP error is an answer: something listens
                status = exc.status_code
                problem = f"HTTP {status}: {_message_of(exc.response.content)}"
                if status == 404 and not self._succeeded:
                    return self._failed(self._no_such_endpoint(problem), attempt)
                if status not in RETRY_STATUS:
                    return self._failed(problem, attempt)
                if status == 429:
                    self.stats.throttled += 1
                    self._limit.throttled()
                wait = retry_after_seconds(exc.response.headers)
            except (TimeoutError, asyncio.TimeoutError):
                problem = "request timed out"
            except self._openai.APITimeoutError as exc:
                problem = _timeout_or_connection(exc)
                if not self._answered and _refused(exc):
                    return self._failed(self._nobody_listens(problem), attempt)
            except self._openai.APIConnectionError as exc:
                problem = f"connection failed: {_root_text(exc)}"
                if not self._answered and _refused(exc):
                    return self._failed(self._nobody_listens(problem), attempt)
            except ValueError as exc:  # a body that is not JSON at all (orjson's error is one)
                problem = f"malformed response: {exc}{_body_start(raw)}"
                if not self._succeeded and _is_html(raw):
                    # A web page before any reply: a proxy's login page or a --base-url
                    # naming a site, not the API; every call would get the same page.
                    self.unreachable = (
                        f"{problem} (the endpoint {self._client.base_url} answers with a web "
                        "page, not the API: check --base-url, or a proxy in the way)"
                    )
                    return self._failed(self.unreachable, attempt)
            if attempt > self.max_retries:
                tries = f"{attempt} attempt{'' if attempt == 1 else 's'}"
                return self._failed(f"{problem} (gave up after {tries})", attempt, usage)
            self.stats.retries += 1
            await asyncio.sleep(self._backoff(attempt, wait))

    def _nobody_listens(self, problem: str) -> str:
        self.unreachable = (
            f"{problem} (nothing answers at {self._client.base_url}: start the server, "
            "or check --base-url / OPENAI_BASE_URL)"
        )
        return self.unreachable

    def _no_such_endpoint(self, problem: str) -> str:
        self.unreachable = (
            f"{problem} (at {str(self._client.base_url).rstrip('/')}/chat/completions, "
            f"model {self.model!r}: "
            "check --base-url, which usually ends in /v1, and --model)"
        )
        return self.unreachable

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, MAX_RETRY_AFTER)
        ceiling = min(self.backoff_max, self.backoff_base * 2 ** (attempt - 1))
        # "Equal jitter": at least half the ceiling, so a storm of 429s spreads out
        # without any caller retrying immediately.
        return ceiling / 2 + random.uniform(0, ceiling / 2)

    def _reply_of(self, body: Any, attempt: int) -> ChatReply:
        read = read_completion(body)
        self.stats.prompt_tokens += read.usage.get("prompt_tokens", 0)
        self.stats.completion_tokens += read.usage.get("completion_tokens", 0)
        if read.problem is not None:
            if read.retryable:
                raise _Retryable(read.problem, read.usage)
            return self._failed(read.problem, attempt, read.usage)
        return ChatReply(
            content=self.redact(read.content or ""),
            usage=read.usage,
            attempts=attempt,
            finish_reason=read.finish_reason,
        )

    def _failed(self, problem: str, attempt: int, usage: dict[str, int] | None = None) -> ChatReply:
        self.stats.errors += 1
        return ChatReply(
            content=None, usage=usage or {}, error=self.redact(problem), attempts=attempt
        )


@dataclass
class Completion:
    """What a chat-completion body holds: the text, or what is wrong with it."""

    content: str | None
    usage: dict[str, int]
    finish_reason: str | None = None
    problem: str | None = None
    retryable: bool = False  # a server fault (no choices, null content): ask again


def read_completion(body: Any) -> Completion:
    """Read a chat-completion JSON body (live replies and Batch output lines alike)."""
    if not isinstance(body, dict):
        return Completion(
            None, {}, problem=f"malformed response: a JSON {type(body).__name__}, not an object"
        )
    usage: dict[str, int] = {}
    raw_usage = body.get("usage")
    if isinstance(raw_usage, dict):
        for name in ("prompt_tokens", "completion_tokens", "total_tokens"):
            value = raw_usage.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                usage[name] = value
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices:
        return Completion(None, usage, problem="the reply has no choices", retryable=True)
    if not isinstance(choices[0], dict):
        return Completion(
            None, usage, problem="malformed response: the first choice is not an object"
        )
    message = choices[0].get("message")
    if not isinstance(message, dict):
        return Completion(None, usage, problem="the reply's first choice has no message")
    content = message.get("content")
    if content is None and message.get("refusal"):
        return Completion(None, usage, problem=f"the model refused: {message['refusal']}")
    if content is None:
        return Completion(None, usage, problem="the judge returned null content", retryable=True)
    if not isinstance(content, str):
        return Completion(
            None,
            usage,
            problem=f"malformed response: message content is a {type(content).__name__}",
        )
    finish = choices[0].get("finish_reason")
    return Completion(content, usage, finish if isinstance(finish, str) else None)


def _http_client(pool: int, timeout: float) -> Any:
    """The SDK's aiohttp transport (the ``openai[aiohttp]`` extra), else its httpx one.

    Both are the openai client's own, with a keep-alive pool of ``pool``
    connections and the environment's proxies. aiohttp's C parser roughly halves
    the client's CPU per call, which keeps a large run near its ideal time.
    """
    import openai

    limits = _transport().Limits(max_connections=pool, max_keepalive_connections=pool)
    try:
        return openai.DefaultAioHttpClient(limits=limits, timeout=timeout)
    except (AttributeError, ImportError, RuntimeError):  # an SDK without the extra
        return openai.DefaultAsyncHttpxClient(limits=limits, timeout=timeout)


def warm_import() -> threading.Thread:
    """Import the SDK in a thread (a live run calls this before it loads the run)."""
    thread = threading.Thread(
        target=importlib.import_module, args=("openai",), name="import-openai", daemon=True
    )
    thread.start()
    return thread


def _transport() -> Any:
    """The SDK's HTTP package: httpx2 in recent releases, httpx before."""
    try:
        import httpx2 as transport  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # pragma: no cover - older SDKs
        import httpx as transport  # type: ignore[import-not-found,no-redef,unused-ignore]
    return transport


async def _within(seconds: float, call: Awaitable[T]) -> T:
    """``call`` with a deadline for the whole request (the SDK's timeouts are per phase:
    a server that trickles its reply would never time out)."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(seconds):  # a timer, no extra task
            return await call
    return await asyncio.wait_for(call, seconds)  # pragma: no cover - Python 3.10


def _root_text(exc: BaseException) -> str:
    """The words of an exception's root cause (the transport's own error)."""
    root: BaseException = exc
    while root.__cause__ is not None or root.__context__ is not None:
        root = root.__cause__ or root.__context__  # type: ignore[assignment]
    return (str(root) or type(root).__name__)[:300]


def _is_html(raw: Any) -> bool:
    kind = str(getattr(raw, "headers", {}).get("content-type") or "").lower()
    content = getattr(raw, "content", b"") or b""
    start = content.lstrip()[:15].lower() if isinstance(content, bytes) else b""
    return "text/html" in kind or start.startswith((b"<!doctype html", b"<html"))


def _body_start(raw: Any) -> str:
    """What a body that is not JSON starts with, and its type: an HTML login page of a
    proxy reads as such, where orjson's "unexpected character" said nothing."""
    content = getattr(raw, "content", None)
    if not isinstance(content, bytes) or not content.strip():
        return ""
    kind = str(getattr(raw, "headers", {}).get("content-type") or "").split(";")[0]
    start = " ".join(content[:80].decode("utf-8", "replace").split())
    return f" (the body{f', {kind},' if kind else ''} starts {start!r})"


def _refused(exc: BaseException) -> bool:
    """Whether the connection was refused (nothing listens), anywhere in the cause chain."""
    seen: BaseException | None = exc
    for _ in range(20):  # a chain is short; this also stops a cyclic one
        if seen is None:
            break
        if isinstance(seen, ConnectionRefusedError):
            return True
        if isinstance(seen, OSError) and seen.errno == errno.ECONNREFUSED:
            return True
        # aiohttp's ClientConnectorError keeps the socket error as ``os_error``.
        inner = getattr(seen, "os_error", None)
        if isinstance(inner, OSError) and inner.errno == errno.ECONNREFUSED:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _timeout_or_connection(exc: BaseException) -> str:
    """What an ``APITimeoutError`` really was.

    The SDK's aiohttp transport reports a refused or dropped connection as a
    connect timeout; the root cause says which, and a user pointing at the
    wrong port should read "connection failed", not "timed out".
    """
    root: BaseException = exc
    while root.__cause__ is not None or root.__context__ is not None:
        root = root.__cause__ or root.__context__  # type: ignore[assignment]
    if root is exc or isinstance(root, TimeoutError) or "Timeout" in type(root).__name__:
        return "request timed out"
    return f"connection failed: {_root_text(root)}"


def _message_of(raw: bytes) -> str:
    """The ``error.message`` of an error body, else the start of the body."""
    try:
        body = orjson.loads(raw)
    except ValueError:
        return raw[:300].decode("utf-8", "replace").strip() or "no body"
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])[:300]
        if isinstance(inner, str) and inner:
            return inner[:300]
    return raw[:300].decode("utf-8", "replace")
