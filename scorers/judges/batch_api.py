"""The OpenAI Batch API round trip: upload, create, poll, download, import.

Batch calls cost half the synchronous price and finish within the
completion window (24 h). One round uploads the uncached calls as a Batch
input file (``/v1/files``, purpose ``batch``), creates the batch
(``/v1/batches``), polls it until it ends, downloads its output and error
files into the run directory and imports them (``scorers.judges.batch_run``). A
judge whose second call depends on the first reply (mathreal) takes a second
round, started by the same command.

The batch id is written to ``judge_batch.json`` in the run directory as soon
as the batch exists, so a command interrupted while polling (Ctrl+C, a lost
connection, a closed laptop) resumes the same batch when run again, instead
of paying for a second one. ``batch_id`` resumes a batch explicitly.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import openai
import orjson

from scorers.errors import RomeTuiError, UsageError
from scorers.io.jsonio import atomic_write_bytes, unreadable
from scorers.judges.batch_run import collect_uncached, import_batch
from scorers.judges.batchfile import encode_requests, read_outputs
from scorers.judges.cache import check_writable
from scorers.judges.client import PLACEHOLDER_KEY
from scorers.judges.run import prepare_run
from scorers.judges.run_request import JudgeRunRequest, JudgeRunResult, ProgressFactory

STATE_NAME = "judge_batch.json"
DONE = frozenset({"completed", "expired", "cancelled"})
FAILED = frozenset({"failed"})
MAX_ROUNDS = 4  # mathreal needs two; more means replies keep failing


class BatchFailed(RomeTuiError):
    """The provider rejected or lost the batch."""

    exit_code = 2


@dataclass
class BatchStatus:
    id: str
    status: str
    completed: int
    failed: int
    total: int


@dataclass
class BatchRound:
    batch_id: str
    status: str
    requests: int
    resumed: bool
    result: JudgeRunResult | None = None


@dataclass
class BatchRun:
    rounds: list[BatchRound] = field(default_factory=list)
    nothing_to_send: bool = False

    @property
    def last(self) -> JudgeRunResult | None:
        results = [r.result for r in self.rounds if r.result is not None]
        return results[-1] if results else None


def run_batch(
    request: JudgeRunRequest,
    *,
    poll_seconds: float = 30.0,
    batch_id: str | None = None,
    on_status: Callable[[BatchStatus], None] | None = None,
    on_event: Callable[[str], None] | None = None,
    progress: ProgressFactory | None = None,
) -> BatchRun:
    """Judge through the Batch API, round after round until no call is left to send."""
    say = on_event or (lambda _message: None)
    prepared = prepare_run(request)
    if prepared.selected:
        check_writable(prepared.loaded.paths.directory)
    if request.missing_api_key():
        raise UsageError(
            "OPENAI_API_KEY is not set: the Batch API needs it (or point --base-url at a "
            "server that implements the Files and Batches endpoints)"
        )
    directory = Path(prepared.loaded.paths.directory)
    state_path = directory / STATE_NAME
    client = openai.OpenAI(
        api_key=os.environ.get("OPENAI_API_KEY") or PLACEHOLDER_KEY,
        base_url=request.base_url or os.environ.get("OPENAI_BASE_URL") or None,
        timeout=max(request.timeout, 60.0),
        max_retries=request.max_retries,
    )
    run = BatchRun()
    try:
        _rounds(
            run,
            request,
            prepared,
            client,
            state_path,
            directory,
            poll_seconds,
            batch_id,
            say,
            on_status,
            progress,
        )
    except openai.APIError as exc:
        # The provider refused a call (key, quota, a file it cannot read) or could not be
        # reached: say what it said; the batch id, if one was made, stays in the state file.
        raise BatchFailed(f"the Batch API call failed: {exc}") from None
    finally:
        client.close()
    return run


def _rounds(
    run: BatchRun,
    request: JudgeRunRequest,
    prepared: Any,
    client: openai.OpenAI,
    state_path: Path,
    directory: Path,
    poll_seconds: float,
    batch_id: str | None,
    say: Callable[[str], None],
    on_status: Callable[[BatchStatus], None] | None,
    progress: ProgressFactory | None,
) -> None:
    for round_number in range(MAX_ROUNDS):
        state = _load_state(state_path)
        if batch_id is not None:
            state = {"batch_id": batch_id, "judge": request.judge, "requests": None}
            batch_id = None
        resumed = state is not None
        if state is not None:
            _check_state(state, state_path, request, prepared.label)
            current = str(state["batch_id"])
            say(f"resuming batch {current} (from {state_path.name})")
            count = state.get("requests")
        else:
            if round_number:  # the last round's import changed the run and the cache
                prepared = prepare_run(request)
            calls = collect_uncached(prepared).calls
            if not calls:
                run.nothing_to_send = not run.rounds
                break
            data, count = encode_requests(calls)
            upload = client.files.create(
                file=(f"rome-tui-{request.judge}.jsonl", data), purpose="batch"
            )
            batch = client.batches.create(
                input_file_id=upload.id,
                endpoint="/v1/chat/completions",
                completion_window="24h",
                metadata={"rome_tui_judge": request.judge, "models": prepared.label[:500]},
            )
            current = batch.id
            _save_state(state_path, current, request.judge, prepared.label, count)
            say(f"batch {current} created: {count} requests (input file {upload.id})")
        final, status = _poll(client, current, poll_seconds, on_status)
        round_ = BatchRound(current, final.status, int(count or status.total), resumed)
        run.rounds.append(round_)
        if final.status in FAILED:
            state_path.unlink(missing_ok=True)
            raise BatchFailed(f"batch {current} failed: {_errors_of(final)}")
        outputs = _download(client, final, directory)
        result, out = import_batch(request, outputs, progress=progress)
        round_.result = result
        state_path.unlink(missing_ok=True)
        say(
            f"batch {current} {final.status}: {out.lines} result lines "
            f"({out.failed} failed) imported from {', '.join(p.name for p in outputs)}"
        )
        if not result.pending or out.lines == out.failed:
            break


def _poll(
    client: openai.OpenAI,
    batch_id: str,
    poll_seconds: float,
    on_status: Callable[[BatchStatus], None] | None,
) -> tuple[Any, BatchStatus]:
    while True:
        try:
            batch = client.batches.retrieve(batch_id)
        except openai.NotFoundError:
            raise UsageError(
                f"batch {batch_id} does not exist at this endpoint; delete {STATE_NAME} "
                "in the run directory to start a new batch"
            ) from None
        counts = batch.request_counts
        status = BatchStatus(
            batch.id,
            batch.status,
            counts.completed if counts else 0,
            counts.failed if counts else 0,
            counts.total if counts else 0,
        )
        if on_status is not None:
            on_status(status)
        if batch.status in DONE or batch.status in FAILED:
            return batch, status
        time.sleep(poll_seconds)


def _download(client: openai.OpenAI, batch: Any, directory: Path) -> list[Path]:
    """The batch's output and error files, saved beside the run (kept for the record)."""
    paths: list[Path] = []
    for kind, file_id in (("output", batch.output_file_id), ("errors", batch.error_file_id)):
        if not file_id:
            continue
        content = client.files.content(file_id).content
        path = directory / f"judge_batch_{batch.id}_{kind}.jsonl"
        atomic_write_bytes(path, content)
        paths.append(path)
    if not paths:
        raise BatchFailed(f"batch {batch.id} ended {batch.status} with no output file")
    read_outputs(paths)  # a malformed download is a clear error here, before anything is judged
    return paths


def _errors_of(batch: Any) -> str:
    errors = getattr(batch, "errors", None)
    data = getattr(errors, "data", None) or []
    messages = [f"{getattr(e, 'code', '')}: {getattr(e, 'message', '')}" for e in data[:3]]
    return "; ".join(messages) or "no reason given"


def _load_state(path: Path) -> dict[str, Any] | None:
    try:
        state = orjson.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise unreadable(path, exc) from None
    except orjson.JSONDecodeError:
        raise UsageError(f"{path}: not JSON; delete it to start a new batch") from None
    if not isinstance(state, dict) or not isinstance(state.get("batch_id"), str):
        raise UsageError(f"{path}: no batch_id; delete it to start a new batch")
    return state


def _check_state(state: dict[str, Any], path: Path, request: JudgeRunRequest, models: str) -> None:
    if state.get("judge") not in (None, request.judge) or state.get("models") not in (
        None,
        models,
    ):
        raise UsageError(
            f"{path} holds batch {state['batch_id']} of judge {state.get('judge')} "
            f"({state.get('models')}); finish it with that judge and model, or delete the file"
        )


def _save_state(path: Path, batch_id: str, judge: str, models: str, requests: int) -> None:
    state = {
        "batch_id": batch_id,
        "judge": judge,
        "models": models,
        "requests": requests,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    atomic_write_bytes(path, orjson.dumps(state, option=orjson.OPT_INDENT_2) + b"\n")
