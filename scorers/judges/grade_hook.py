"""The ROME ``--use_llm_evaluator`` path of ``rome-tui grade``.

The grading core calls :func:`llm_scores` with (question, reference, answer)
triples, the answer being the unextracted final answer, and gets back one
(score, raw reply, error) per triple, in order. A failed call or an
unparsable reply (``parse="robust"``) gives a None score and the error; with
``parse="rome"`` the reference parser never fails (it reads 0 when it finds
no number), exactly as the reference does.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence

from scorers.judges.base import ChatRequest, empty_reply_problem
from scorers.judges.cache import JudgeCache, check_writable
from scorers.judges.client import JudgeClient
from scorers.judges.rome import JUDGE as ROME
from scorers.judges.rome import PARSERS, build_request

LLMScore = tuple[int | None, str | None, str | None]


def llm_scores(
    triples: Sequence[tuple[str, str, str]],
    *,
    model: str | None,
    base_url: str | None,
    parse: str,
    concurrency: int = 8,
    timeout: float = 60.0,
    max_retries: int = 5,
    cache_dir: str | os.PathLike[str] | None = None,
    fenced: bool = False,
) -> list[LLMScore]:
    """Judge each (question, reference, answer) with the ROME grader prompt.

    ``model`` defaults to ``OPENAI_MODEL``, then the reference's gpt-4.1-mini;
    the key and endpoint come from ``OPENAI_API_KEY`` and ``base_url`` (or
    ``OPENAI_BASE_URL``). With ``cache_dir`` replies are cached there.
    """
    if parse not in PARSERS:  # the rome judge's two: "rome" (the reference's) and "robust"
        raise ValueError(f"parse must be 'rome' or 'robust', not {parse!r}")
    name = model or os.environ.get("OPENAI_MODEL") or ROME.default_model
    requests = [build_request(q, r, a, fenced=fenced) for q, r, a in triples]
    return asyncio.run(
        _run(requests, name, base_url, parse, concurrency, timeout, max_retries, cache_dir)
    )


async def _run(
    requests: list[ChatRequest],
    model: str,
    base_url: str | None,
    parse: str,
    concurrency: int,
    timeout: float,
    max_retries: int,
    cache_dir: str | os.PathLike[str] | None,
) -> list[LLMScore]:
    if cache_dir is not None:
        check_writable(cache_dir)  # before any call: a reply that cannot be cached is lost
    cache = JudgeCache.beside(cache_dir) if cache_dir is not None else None
    parser = PARSERS[parse]
    async with JudgeClient(
        model=model,
        base_url=base_url,
        concurrency=concurrency,
        timeout=timeout,
        max_retries=max_retries,
        cache=cache,
    ) as client:
        replies = await asyncio.gather(*(client(r) for r in requests))
    results: list[LLMScore] = []
    for reply in replies:
        problem = empty_reply_problem(reply)
        if problem is not None:
            reply.settle(False)
            results.append((None, reply.content, problem))
            continue
        parsed = parser(reply.content)
        reply.settle(parsed.error is None and parsed.score is not None)
        score = None if parsed.score is None else int(parsed.score)
        results.append((score, reply.content, parsed.error))
    return results
