"""The judge client: one aiohttp session, bounded concurrency, retries, timeouts, the cache.

Requests go straight through one aiohttp session (a keep-alive pool the size
of the concurrency cap) in the OpenAI chat-completions wire format: the body
is encoded and the reply decoded with orjson. The openai SDK builds each
request through its typed models and takes most of a second to import, and a
judge run is mostly this loop; the SDK is used only for the Batch API round
trip (``scorers.judges.batch_api``). Every retry is ours: counted, logged in
the stats, and paced by exponential backoff with jitter that honours
``Retry-After``. A 200 reply with no choices or with null content is retried
like a 5xx: it is a server fault, not an answer. Requests are paced by
optional per-minute buckets (``rpm``, ``tpm``) and a concurrency cap that
halves on 429 (``scorers.judges.pacing``). A reply is cached only once the
judge says it parsed (:meth:`ChatReply.settle`). The API key is held only by
the session's headers; every text that leaves this module (replies, errors) goes
through :func:`redact` first, so a server that echoes the key cannot get it
into a cache, results file or log.
"""

from __future__ import annotations

import asyncio
import email.utils
import os
import random
import re
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson

from scorers.judges.base import ChatReply, ChatRequest
from scorers.judges.cache import JudgeCache
from scorers.judges.pacing import AdaptiveLimit, TokenBucket

PLACEHOLDER_KEY = "no-key-needed"  # local servers ignore the key; some proxies want one
DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
MAX_RETRY_AFTER = 120.0
# Completion tokens assumed for a request without max_tokens, until its usage is known.
DEFAULT_OUTPUT_TOKENS = 256


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
        base = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        self.url = base.rstrip("/") + "/chat/completions"
        self._headers = {
            "Authorization": f"Bearer {self._secret or PLACEHOLDER_KEY}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }
        for header, variable in (
            ("OpenAI-Organization", "OPENAI_ORG_ID"),
            ("OpenAI-Project", "OPENAI_PROJECT_ID"),
        ):
            if os.environ.get(variable):
                self._headers[header] = os.environ[variable]
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._session: aiohttp.ClientSession | None = None
        self._proxy = _proxy_for(self.url)

    async def __aenter__(self) -> JudgeClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self.cache is not None:
            self.cache.close()

    def _open(self) -> aiohttp.ClientSession:
        """The session, made on first use (inside the running event loop)."""
        if self._session is None:
            # As many keep-alive connections as requests in flight: no call pays a
            # new TCP handshake in a steady run. No trust_env: it looks the proxy up in
            # a thread on every request (two thread hops a call, a third of the
            # client's CPU); the proxy is looked up once instead (``_proxy_for``).
            connector = aiohttp.TCPConnector(
                limit=self.concurrency, limit_per_host=self.concurrency
            )
            self._session = aiohttp.ClientSession(
                connector=connector, timeout=self._timeout, trust_env=False
            )
        return self._session

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
        reply = await self._send(request)
        if reply.error is None and self.cache is not None:
            reply.on_settle = self._keeper(key, reply)
        self._notify(reply)
        return reply

    def _keeper(self, key: str, reply: ChatReply) -> Callable[[bool], None]:
        cache = self.cache
        assert cache is not None

        def keep(parsed: bool) -> None:
            if parsed:
                cache.put(
                    key,
                    {
                        "model": self.model,
                        "content": reply.content,
                        "usage": reply.usage,
                        "finish_reason": reply.finish_reason,
                    },
                )

        return keep

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
            taken = await self._pace(request)
            payload = orjson.dumps(
                {"model": self.model, "messages": request.message_dicts(), **request.param_dict()}
            )
            try:
                async with self._limit:
                    self.stats.calls += 1
                    async with self._open().post(
                        self.url, data=payload, headers=self._headers, proxy=self._proxy
                    ) as response:
                        status, headers = response.status, response.headers
                        raw = await response.read()
                if status == 200:
                    reply = self._reply_of(orjson.loads(raw), attempt)
                    self._settle_tokens(taken, reply.usage)
                    self._limit.succeeded()
                    return reply
                problem = f"HTTP {status}: {_message_of(raw)}"
                if status not in RETRY_STATUS:
                    return self._failed(problem, attempt)
                if status == 429:
                    self.stats.throttled += 1
                    self._limit.throttled()
                wait = retry_after_seconds(headers)
            except _Retryable as exc:
                problem, usage = exc.problem, exc.usage
                self._settle_tokens(taken, usage)
            except (TimeoutError, asyncio.TimeoutError):
                problem = "request timed out"
            except aiohttp.ClientError as exc:
                problem = f"connection failed: {_connection_problem(exc)}"
            except ValueError as exc:  # a body that is not JSON at all (orjson's error is one)
                problem = f"malformed response: {exc}"
            if attempt > self.max_retries:
                return self._failed(f"{problem} (gave up after {attempt} attempts)", attempt, usage)
            self.stats.retries += 1
            await asyncio.sleep(self._backoff(attempt, wait))

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


def _proxy_for(url: str) -> str | None:
    """The proxy ``HTTPS_PROXY`` / ``HTTP_PROXY`` name for ``url``, unless ``NO_PROXY`` excludes it."""
    parts = urllib.parse.urlsplit(url)
    proxies = urllib.request.getproxies()
    proxy = proxies.get(parts.scheme)
    if not proxy or urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    return proxy


def _connection_problem(exc: aiohttp.ClientError) -> str:
    """What went wrong with the connection, in the words of its root cause."""
    root: BaseException = exc
    while root.__cause__ is not None:
        root = root.__cause__
    text = str(root) or type(root).__name__
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return "Server disconnected"
    return text[:300]


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
