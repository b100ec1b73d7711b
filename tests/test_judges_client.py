"""The judge client against a real local HTTP server through the real openai client."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_openai_server import Action, FakeOpenAIServer
from judges_fixtures import SECRET_KEY, clear_openai_env, files_under, serve

from scorers.judges.base import ChatReply, ChatRequest
from scorers.judges.cache import CACHE_NAME, JudgeCache
from scorers.judges.client import JudgeClient, redact, retry_after_seconds


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    yield from serve()


@pytest.fixture
def no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_openai_env(monkeypatch)


def request(i: int = 0) -> ChatRequest:
    return ChatRequest.of([("user", f"prompt {i}")], temperature=0)


def run(
    srv: FakeOpenAIServer, requests: list[ChatRequest], **kwargs: object
) -> tuple[list[ChatReply], JudgeClient]:
    async def go() -> tuple[list[ChatReply], JudgeClient]:
        options: dict[str, object] = {
            "concurrency": 4,
            "timeout": 5.0,
            "max_retries": 3,
            "backoff_base": 0.01,
        }
        options.update(kwargs)
        async with JudgeClient(model="judge-m", base_url=srv.base_url, **options) as client:  # type: ignore[arg-type]
            replies = list(await asyncio.gather(*(client(r) for r in requests)))
            for reply in replies:
                reply.settle(reply.error is None)  # as a judge does once the reply parsed
            return replies, client

    return asyncio.run(go())


def test_429_is_retried_after_the_servers_retry_after(server: FakeOpenAIServer) -> None:
    server.script(Action(status=429, headers={"retry-after": "0.6"}))
    started = time.monotonic()
    (reply,), client = run(server, [request()])
    assert reply.error is None and reply.attempts == 2
    assert server.count() == 2
    gap = server.requests[1].at - server.requests[0].at
    assert gap >= 0.55, gap  # waited for Retry-After, not the 10 ms backoff
    assert time.monotonic() - started >= 0.55
    assert client.stats.retries == 1 and client.stats.calls == 2


def test_500s_are_retried_with_backoff_then_give_up_with_an_error(server: FakeOpenAIServer) -> None:
    server.script(*[Action(status=500, error="boom")] * 3)
    (reply,), client = run(server, [request()], max_retries=2)
    assert reply.content is None
    assert reply.error is not None and "HTTP 500" in reply.error and "3 attempts" in reply.error
    assert server.count() == 3
    assert client.stats.errors == 1 and client.stats.retries == 2


def test_openai_client_retries_are_off_so_every_retry_is_counted(server: FakeOpenAIServer) -> None:
    server.script(Action(status=503), Action(status=502))
    (reply,), client = run(server, [request()], max_retries=0)
    assert reply.error is not None and server.count() == 1
    assert client.stats.calls == 1


def test_client_errors_are_not_retried(server: FakeOpenAIServer) -> None:
    server.script(Action(status=400, error="bad model"))
    (reply,), _ = run(server, [request()])
    assert reply.error == "HTTP 400: bad model"
    assert server.count() == 1


def test_a_hung_request_times_out_and_is_retried(server: FakeOpenAIServer) -> None:
    server.script(Action(delay=10))
    started = time.monotonic()
    (reply,), client = run(server, [request()], timeout=1.5)
    assert reply.error is None and reply.attempts == 2
    assert time.monotonic() - started < 5
    assert client.stats.retries == 1


def test_timeouts_on_every_attempt_end_in_an_error(server: FakeOpenAIServer) -> None:
    server.script(*[Action(delay=10)] * 2)
    (reply,), _ = run(server, [request()], timeout=0.3, max_retries=1)
    assert reply.error == "request timed out (gave up after 2 attempts)"


def test_malformed_json_body_is_retried_then_reported(server: FakeOpenAIServer) -> None:
    server.script(Action(body=b'{"choices": [oops'), Action(body=b"not json at all"))
    (reply,), _ = run(server, [request()], max_retries=1)
    assert reply.error is not None and reply.error.startswith("malformed response")
    assert server.count() == 2


def test_a_body_that_is_not_json_is_shown_by_its_start(server: FakeOpenAIServer) -> None:
    # The error said only orjson's "unexpected character ... line 1 column 1", which
    # names nothing a user can check.
    server.script(Action(body=b"Upstream busy,\n  try again later"))
    (reply,), _ = run(server, [request()], max_retries=0)
    assert reply.error is not None
    assert "starts 'Upstream busy, try again later'" in reply.error
    assert reply.error.endswith("(gave up after 1 attempt)")


def test_concurrency_is_bounded(server: FakeOpenAIServer) -> None:
    server.latency = 0.2
    peak = 0
    started = time.monotonic()
    replies, _ = run(server, [request(i) for i in range(12)], concurrency=3)
    elapsed = time.monotonic() - started
    assert all(r.error is None for r in replies)
    # 12 calls at 0.2 s with 3 in flight: 4 waves. Arrival times show at most 3 overlap.
    arrivals = sorted(r.at for r in server.requests)
    for i in range(len(arrivals) - 3):
        peak = max(peak, sum(1 for t in arrivals if arrivals[i] <= t < arrivals[i] + 0.15))
    assert peak <= 3
    assert elapsed >= 0.75


def test_cache_second_run_makes_zero_requests(server: FakeOpenAIServer, tmp_path: Path) -> None:
    requests = [request(i) for i in range(5)]
    first, _ = run(server, requests, cache=JudgeCache.beside(tmp_path))
    assert server.count() == 5
    second, client = run(server, requests, cache=JudgeCache.beside(tmp_path))
    assert server.count() == 5
    assert client.stats.cached == 5 and client.stats.calls == 0
    assert [r.content for r in second] == [r.content for r in first]
    assert all(r.cached for r in second)


def test_the_same_prompt_in_flight_twice_is_asked_once(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    # Two models giving one question the same short answer make the same judge prompt:
    # the second waits for the first reply rather than paying for it again.
    server.latency = 0.2
    replies, client = run(
        server, [request(0), request(1), request(0), request(0)], cache=JudgeCache.beside(tmp_path)
    )
    assert server.count() == 2
    assert client.stats.calls == 2 and client.stats.cached == 2
    assert replies[2].content == replies[3].content == replies[0].content
    assert not replies[0].cached and replies[2].cached and replies[3].cached
    assert len(JudgeCache.beside(tmp_path)) == 2  # one line per prompt


def test_a_prompt_whose_first_ask_failed_is_asked_again_by_the_next(
    server: FakeOpenAIServer,
) -> None:
    server.script(Action(status=500, delay=0.2))
    first, second = run(server, [request(), request()], max_retries=0)[0]
    assert first.error is not None and second.error is None
    assert server.count() == 2


def test_cache_key_covers_model_prompt_and_parameters() -> None:
    base = ChatRequest.of([("user", "p")], temperature=0)
    assert base.cache_key("a") == ChatRequest.of([("user", "p")], temperature=0).cache_key("a")
    assert base.cache_key("a") != base.cache_key("b")
    assert base.cache_key("a") != ChatRequest.of([("user", "p ")], temperature=0).cache_key("a")
    assert base.cache_key("a") != ChatRequest.of([("user", "p")], temperature=0.5).cache_key("a")


def test_failed_calls_are_not_cached(server: FakeOpenAIServer, tmp_path: Path) -> None:
    server.script(Action(status=500))
    (reply,), _ = run(server, [request()], cache=JudgeCache.beside(tmp_path), max_retries=0)
    assert reply.error is not None
    (again,), _ = run(server, [request()], cache=JudgeCache.beside(tmp_path), max_retries=0)
    assert again.error is None and server.count() == 2


def test_a_torn_last_cache_line_is_skipped(tmp_path: Path) -> None:
    cache = JudgeCache.beside(tmp_path)
    cache.put("k1", {"content": "Judgement: 1"})
    cache.close()
    with open(tmp_path / CACHE_NAME, "ab") as handle:
        handle.write(b'{"key": "k2", "content": "Judg')
    reloaded = JudgeCache.beside(tmp_path)
    assert "k1" in reloaded and "k2" not in reloaded and reloaded.skipped_lines == 1


def test_the_key_never_reaches_a_file_or_an_error(
    server: FakeOpenAIServer, tmp_path: Path, no_openai_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET_KEY)
    server.script(
        Action(
            status=401, error=f"Incorrect API key provided: {SECRET_KEY[:8]}****{SECRET_KEY[-4:]}"
        ),
        Action(content=f"Reasoning: your key is {SECRET_KEY}\nJudgement: 1"),
    )
    replies, _ = run(
        server, [request(0), request(1)], cache=JudgeCache.beside(tmp_path), concurrency=1
    )
    assert server.requests[0].headers["authorization"] == f"Bearer {SECRET_KEY}"  # it was used
    texts = [r.error or "" for r in replies] + [r.content or "" for r in replies]
    assert "[redacted]" in texts[0] and "[redacted]" in texts[3]
    for text in texts:
        assert SECRET_KEY not in text and SECRET_KEY[:8] not in text
    for path in files_under(tmp_path):
        data = path.read_bytes()
        assert SECRET_KEY.encode() not in data and SECRET_KEY[:8].encode() not in data, path


def test_no_key_needed_for_a_local_server(server: FakeOpenAIServer, no_openai_env: None) -> None:
    (reply,), _ = run(server, [request()])
    assert reply.error is None
    assert server.requests[0].headers["authorization"] == "Bearer no-key-needed"


def test_redact_and_retry_after_helpers() -> None:
    assert (
        redact("key sk-abcdefgh12345678 leaked", "sk-abcdefgh12345678") == "key [redacted] leaked"
    )
    assert redact("partial sk-abcdefXXXX", "sk-abcdefgh12345678") == "partial [redacted]"
    assert redact("no secret", None) == "no secret"
    assert retry_after_seconds({"retry-after": "2"}) == 2.0
    assert retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert retry_after_seconds({}) is None


def test_refused_connection_is_reported_as_such(no_openai_env: None) -> None:
    async def go() -> ChatReply:
        async with JudgeClient(
            model="m", base_url="http://127.0.0.1:9/v1", max_retries=0
        ) as client:
            return await client(request())

    reply = asyncio.run(go())
    assert reply.error is not None and reply.error.startswith("connection failed")


def test_a_refused_connection_before_any_answer_is_not_retried(no_openai_env: None) -> None:
    # Nothing listens (a mistyped --base-url): five backoffs per call only made it slow.
    async def go() -> ChatReply:
        async with JudgeClient(
            model="m", base_url="http://127.0.0.1:9/v1", max_retries=3, backoff_base=0.01
        ) as client:
            return await client(request())

    reply = asyncio.run(go())
    assert reply.error is not None and reply.attempts == 1
    assert "nothing answers at http://127.0.0.1:9/v1" in reply.error and "--base-url" in reply.error


def test_a_refused_connection_after_an_answer_is_retried(no_openai_env: None) -> None:
    # A server that answered and went away (a restart) is worth the backoff.
    srv = FakeOpenAIServer().start()

    async def go() -> tuple[ChatReply, ChatReply]:
        async with JudgeClient(
            model="m", base_url=srv.base_url, max_retries=2, backoff_base=0.01
        ) as client:
            first = await client(request(0))
            srv.stop()
            return first, await client(request(1))

    first, second = asyncio.run(go())
    assert first.error is None
    assert second.error is not None and second.attempts == 3
    assert "nothing answers" not in second.error


def test_failures_of_every_kind_are_retried(server: FakeOpenAIServer) -> None:
    server.script(
        Action(delay=10),
        Action(close=True),
        Action(status=429, headers={"retry-after": "0.2"}),
        Action(body=b"{broken"),
    )
    (reply,), client = run(server, [request()], timeout=1.5, max_retries=4)
    assert reply.error is None and reply.attempts == 5
    assert client.stats.retries == 4 and server.count() == 5


def _through(endpoint: str) -> ChatReply:
    async def go() -> ChatReply:
        async with JudgeClient(model="m", base_url=endpoint, max_retries=0, timeout=5) as client:
            return await client(request())

    return asyncio.run(go())


def test_the_proxy_comes_from_the_environment(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HTTP_PROXY is honoured (the request reaches the proxy in absolute form), NO_PROXY too."""
    for name in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "no_proxy", "http_proxy"):
        monkeypatch.delenv(name, raising=False)
    proxy = server.base_url.removesuffix("/v1")
    monkeypatch.setenv("HTTP_PROXY", proxy)
    monkeypatch.setenv("NO_PROXY", "")
    endpoint = "http://judge.invalid/v1"
    _through(endpoint)
    assert [r.path for r in server.requests] == [f"{endpoint}/chat/completions"]
    monkeypatch.setenv("NO_PROXY", "judge.invalid")
    reply = _through(endpoint)
    assert len(server.requests) == 1  # bypassed the proxy: the name does not resolve
    assert reply.error is not None and reply.error.startswith("connection failed")
