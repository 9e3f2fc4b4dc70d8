"""Local GGUF models through llama-cpp-python, run in a separate worker process.

A crash or hang in native code takes down only the worker: the request fails with
``LLMUnavailableError`` and the next request starts a fresh worker (the model loads in
about a second for the small models this is meant for). A request that overruns its
timeout kills the worker for the same reason - it cannot be interrupted otherwise.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Mapping, Sequence
import contextlib
import importlib.util
import itertools
import json
import logging
from pathlib import Path
import sys
from typing import Any

from ..core.llm.backend import FirstToken, LLMResponseError, LLMUnavailableError, Message

_LOGGER = logging.getLogger(__name__)

NAME = "llama_cpp"
WORKER_SCRIPT = Path(__file__).with_name("llama_worker.py")
DEFAULT_THREADS = 2
DEFAULT_CONTEXT = 4096
DEFAULT_LOAD_TIMEOUT = 120.0
_STDERR_LINES = 20
# Replies are one JSON line: long ones are allowed (a runaway answer, a long error), up to
# the 1 MB the HTTP backends read; a longer line is a failure and the worker is replaced.
_READ_LIMIT = 1024 * 1024
_GGUF_MAGIC = b"GGUF"


def is_available() -> bool:
    """Whether llama-cpp-python can be imported (checked without importing it here)."""
    try:
        return importlib.util.find_spec("llama_cpp") is not None
    except (ImportError, ValueError):
        return False


def check_model_file(model_path: str) -> None:
    """Raise ``LLMUnavailableError`` unless ``model_path`` is a readable GGUF file."""
    path = Path(model_path).expanduser()
    if not path.is_file():
        raise LLMUnavailableError(f"Model file {path} does not exist")
    try:
        with path.open("rb") as file:
            magic = file.read(4)
    except OSError as err:
        raise LLMUnavailableError(f"Cannot read model file {path}: {err}") from err
    if magic != _GGUF_MAGIC:
        raise LLMUnavailableError(f"{path} is not a GGUF model file")


async def async_check_model_file(model_path: str) -> None:
    """``check_model_file`` in an executor thread: the file is read off the event loop."""
    await asyncio.get_running_loop().run_in_executor(None, check_model_file, model_path)


class _WorkerDied(Exception):
    """The worker closed its output: it crashed or was killed."""


class LlamaCppBackend:
    """Generates with a GGUF model in a worker process; one request at a time."""

    name = NAME

    def __init__(
        self,
        model_path: str,
        *,
        threads: int = DEFAULT_THREADS,
        n_ctx: int = DEFAULT_CONTEXT,
        prefix_cache: bool = True,
        chat_format: str | None = None,
        load_timeout: float = DEFAULT_LOAD_TIMEOUT,
        python: str = sys.executable,
    ) -> None:
        self.model_path = str(Path(model_path).expanduser())
        self.threads = max(1, int(threads))
        self.n_ctx = n_ctx
        self.prefix_cache = prefix_cache
        self.chat_format = chat_format
        self.load_timeout = load_timeout
        self._python = python
        self._process: asyncio.subprocess.Process | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self._stderr_tail: deque[str] = deque(maxlen=_STDERR_LINES)
        self._lock = asyncio.Lock()
        self._ids = itertools.count(1)
        self._abandoned = False  # a cancelled request left the worker busy: replace it
        self.starts = 0  # workers started so far; more than one means restarts
        self.last_stats: dict[str, Any] = {}

    @property
    def worker_pid(self) -> int | None:
        """PID of the running worker, if any."""
        running = self._process is not None and self._process.returncode is None
        return self._process.pid if running and self._process else None

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        timeout: float = 60.0,
    ) -> str:
        """One chat completion in the worker, started (or restarted) as needed."""
        request = {
            "op": "generate",
            "messages": [dict(m) for m in messages],
            "schema": dict(schema) if schema is not None else None,
            "max_tokens": max_tokens,
            "prefix_cache": self.prefix_cache,
        }
        async with self._lock:
            await self._async_ensure_worker()
            reply = await self._async_request(request, timeout, "generation")
        self.last_stats = {k: v for k, v in reply.items() if k not in ("text", "id")}
        text = reply.get("text")
        if not isinstance(text, str):
            raise LLMResponseError("llama.cpp worker replied without text")
        return text

    async def async_first_token(
        self,
        messages: Sequence[Message],
        *,
        words: Sequence[str] = (),
        top: int = 5,
        timeout: float = 60.0,
    ) -> FirstToken:
        """The first answer token and its log-probabilities (top ones and ``words``)."""
        request = {
            "op": "first_token",
            "messages": [dict(m) for m in messages],
            "words": [str(w) for w in words],
            "top": top,
            "prefix_cache": self.prefix_cache,
        }
        async with self._lock:
            await self._async_ensure_worker()
            reply = await self._async_request(request, timeout, "first token")
        self.last_stats = {k: v for k, v in reply.items() if k not in ("text", "id", "logprobs")}
        text, logprobs = reply.get("text"), reply.get("logprobs")
        if not isinstance(text, str) or not isinstance(logprobs, dict):
            raise LLMResponseError("llama.cpp worker replied without a first token")
        return FirstToken(text, logprobs)

    async def async_validate(self) -> None:
        """llama-cpp-python is installed and the model loads."""
        if not is_available():
            raise LLMUnavailableError(
                "llama-cpp-python is not installed in Home Assistant's Python environment"
            )
        await async_check_model_file(self.model_path)
        async with self._lock:
            await self._async_ensure_worker()

    async def _async_ensure_worker(self) -> None:
        running = self._process is not None and self._process.returncode is None
        if running and not self._abandoned:
            return
        await self._async_stop_worker(force=self._abandoned)
        self._abandoned = False
        if not is_available():
            raise LLMUnavailableError("llama-cpp-python is not installed")
        await async_check_model_file(self.model_path)
        self.starts += 1
        try:
            self._process = await asyncio.create_subprocess_exec(
                self._python,
                "-P",  # never let the backends folder shadow the real llama_cpp package
                "-u",
                str(WORKER_SCRIPT),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                limit=_READ_LIMIT,
            )
        except OSError as err:
            raise LLMUnavailableError(f"Cannot start the llama.cpp worker: {err}") from err
        self._stderr_tail.clear()
        self._stderr_task = asyncio.create_task(
            self._async_drain_stderr(self._process), name="anomaly_monitor llama.cpp stderr"
        )
        load = {
            "op": "load",
            "model_path": self.model_path,
            "n_threads": self.threads,
            "n_ctx": self.n_ctx,
            "chat_format": self.chat_format,
        }
        await self._async_request(load, self.load_timeout, "model load")
        _LOGGER.debug("llama.cpp worker %s loaded %s", self._process.pid, self.model_path)

    async def _async_request(self, request: dict[str, Any], timeout: float, what: str) -> Any:
        """Send one request and wait for its reply; kill the worker on timeout or crash."""
        process = self._process
        assert process is not None
        assert process.stdin is not None
        assert process.stdout is not None
        request_id = next(self._ids)
        try:
            async with asyncio.timeout(timeout):
                process.stdin.write((json.dumps({**request, "id": request_id}) + "\n").encode())
                await process.stdin.drain()
                while True:
                    line = await process.stdout.readline()
                    if not line:
                        raise _WorkerDied
                    reply = json.loads(line)
                    if isinstance(reply, dict) and reply.get("id") == request_id:
                        break
        except TimeoutError as err:
            await self._async_stop_worker(force=True)
            raise LLMUnavailableError(
                f"llama.cpp {what} took longer than {timeout:g} s; the worker was stopped"
            ) from err
        except (_WorkerDied, ConnectionError, ValueError) as err:
            code = await self._async_stop_worker(force=True)
            detail = " | ".join(self._stderr_tail) or "no output"
            raise LLMUnavailableError(
                f"llama.cpp worker died during {what} (exit code {code}): {detail[-300:]}"
            ) from err
        except asyncio.CancelledError:
            # The worker is still busy with a reply nobody will read: do not reuse it.
            self._abandoned = True
            if process.returncode is None:
                process.kill()
            raise
        if "error" in reply:
            if what == "model load":
                await self._async_stop_worker(force=True)
                raise LLMUnavailableError(f"llama.cpp could not load the model: {reply['error']}")
            raise LLMResponseError(f"llama.cpp {what} failed: {reply['error']}")
        return reply

    async def _async_drain_stderr(self, process: asyncio.subprocess.Process) -> None:
        """Keep the worker's last stderr lines (for crash reports) so its pipe never fills."""
        assert process.stderr is not None
        while line := await process.stderr.readline():
            self._stderr_tail.append(line.decode(errors="replace").rstrip())

    async def _async_stop_worker(self, force: bool = False) -> int | None:
        """Stop the worker (politely unless ``force``) and return its exit code."""
        process, self._process = self._process, None
        code: int | None = None
        if process is not None:
            if force and process.returncode is None:
                process.kill()
            elif process.returncode is None and process.stdin is not None:
                with contextlib.suppress(OSError, RuntimeError):
                    process.stdin.close()
                try:
                    async with asyncio.timeout(2):
                        await process.wait()
                except TimeoutError:
                    process.kill()
            code = await process.wait()
        task, self._stderr_task = self._stderr_task, None
        if task is not None:
            try:
                async with asyncio.timeout(2):
                    await task
            except TimeoutError:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        return code

    async def async_close(self) -> None:
        """Stop the worker; a later request would start a new one."""
        async with self._lock:
            await self._async_stop_worker()
