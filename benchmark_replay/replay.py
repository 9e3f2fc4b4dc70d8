"""Run a selection of samples through a runner, in worker processes, with a resumable cache.

Workers receive only file paths; each loads the *visible* part of its samples itself
(``load_visible``), builds the scene, runs it and sends back the prediction: verdict,
window figures, evidence entity ids and the device names they map back to. The
answers stay in the parent process, which joins them with the predictions to score.

The cache (``predictions.jsonl`` in the output folder) holds one prediction per line
with a fingerprint of the configuration and of the code that produced it, so a rerun
skips what is already done and a code change starts afresh.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
import hashlib
import json
import multiprocessing
from pathlib import Path
import queue
import random
import sys
from typing import Any

from .home_scene import scene_for
from .progress import Progress
from .smartbench_loader import Answer, Record, load_visible
from .wall_clock import wall_clock

REPO_ROOT = Path(__file__).resolve().parent.parent
# Code whose change invalidates cached predictions.
FINGERPRINTED_SOURCES = (
    REPO_ROOT / "custom_components" / "anomaly_monitor",
    REPO_ROOT / "benchmark_replay" / "entity_mapping.py",
    REPO_ROOT / "benchmark_replay" / "device_vocab.py",
    REPO_ROOT / "benchmark_replay" / "device_kinds.py",
    REPO_ROOT / "benchmark_replay" / "home_mapping.py",
    REPO_ROOT / "benchmark_replay" / "home_scene.py",
    REPO_ROOT / "benchmark_replay" / "ha_runner.py",
    REPO_ROOT / "benchmark_replay" / "remote_ha.py",
    REPO_ROOT / "benchmark_replay" / "direct.py",
)


@dataclass(frozen=True, slots=True)
class Job:
    """What a worker needs for one sample: where it is, never what the answer is."""

    key: str
    subset: str
    path: str


def select(records: Sequence[Record], limit: int | None, seed: int) -> list[Record]:
    """A seeded sample of ``limit`` records, stratified by subset and label, then by type.

    Each (subset, label) stratum gets its proportional share, then each anomaly type
    within it (largest remainders first, ties broken by the seeded generator), so the
    label balance holds and small types are not left out by chance.
    """
    if limit is None or limit >= len(records):
        return list(records)
    rng = random.Random(seed)
    outer: dict[tuple[str, bool], list[Record]] = {}
    for record in records:
        outer.setdefault((record.answer.subset, record.answer.is_anomaly), []).append(record)
    chosen: list[Record] = []
    for key, count in _allocate({k: len(v) for k, v in outer.items()}, limit, rng).items():
        inner: dict[str, list[Record]] = {}
        for record in outer[key]:
            inner.setdefault(record.answer.anomaly_type, []).append(record)
        for kind, share in _allocate({k: len(v) for k, v in inner.items()}, count, rng).items():
            chosen.extend(rng.sample(inner[kind], share))
    chosen.sort(key=lambda r: r.answer.key)
    return chosen


def _allocate[K](sizes: dict[K, int], total: int, rng: random.Random) -> dict[K, int]:
    """Split ``total`` over groups in proportion to their sizes (largest remainder)."""
    keys = sorted(sizes, key=str)
    whole = sum(sizes.values())
    quotas = {k: total * sizes[k] / whole for k in keys}
    counts = {k: min(sizes[k], int(quotas[k])) for k in keys}
    leftover = total - sum(counts.values())
    order = sorted(keys, key=lambda k: (-(quotas[k] - counts[k]), rng.random()))
    for k in order:
        if leftover <= 0:
            break
        if counts[k] < sizes[k]:
            counts[k] += 1
            leftover -= 1
    return counts


def fingerprint(mode: str, options: Mapping[str, Any]) -> str:
    """Hash of the configuration and the code that turns samples into verdicts."""
    digest = hashlib.sha256(json.dumps([mode, dict(options)], sort_keys=True).encode())
    for source in FINGERPRINTED_SOURCES:
        files = sorted(source.rglob("*.py")) if source.is_dir() else [source]
        for file in files:
            if file.is_file():
                digest.update(file.name.encode())
                digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def read_cache(path: Path, print_: str) -> dict[str, dict[str, Any]]:
    """Cached predictions with fingerprint ``print_``, by sample key."""
    cached: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return cached
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interrupted run
        if isinstance(item, dict) and item.get("fingerprint") == print_ and not item.get("error"):
            cached[str(item["key"])] = item
    return cached


def predict(runner_response: Mapping[str, Any], scene: Any) -> dict[str, Any]:
    """The prediction record for one response (evidence mapped back to device names)."""
    verdict = dict(runner_response.get("verdict") or {})
    evidence = [str(e) for e in verdict.get("evidence") or []]
    record = {
        "verdict": verdict,
        "window": dict(runner_response.get("window") or {}),
        "evidence_entities": evidence,
        "predicted_devices": sorted(scene.mapping.devices_for(evidence)),
    }
    if "model_error" in runner_response:
        record["model_error"] = str(runner_response["model_error"])
    if model := runner_response.get("model_verdict"):
        model_evidence = [str(e) for e in model.get("evidence") or []]
        record["model_verdict"] = dict(model)
        record["model_predicted_devices"] = sorted(scene.mapping.devices_for(model_evidence))
    return record


async def run_jobs(
    jobs: Iterable[Job],
    mode: str,
    options: Mapping[str, Any],
    remote: Mapping[str, Any],
    emit: Callable[[dict[str, Any]], None],
) -> None:
    """Run jobs on one runner, in order; every outcome goes to ``emit``, in job order.

    A runner with ``pipeline`` > 1 (a live Home Assistant) gets that many samples at once:
    the next samples are read and sent while it judges one, so neither side waits for
    the other (on a loaded machine each wake-up costs a scheduling slot).
    """
    import asyncio

    from .remote_ha import RemoteHASetupError
    from .runners import make_runner

    runner = make_runner(mode, options, remote)
    depth = max(1, int(getattr(runner, "pipeline", 1)))
    pending: deque[_Pending] = deque()
    finished = wall_clock()

    this_run = asyncio.current_task()

    def stop_if_interrupted() -> None:
        # Ctrl-C cancels this task (asyncio.Runner). While it awaits a sample in flight,
        # Task.cancel() cancels that sample's task instead of this one; a sample that
        # ends anyway (its reply already in, or the cancellation turned into an error on
        # the way) would lose the only Ctrl-C. cancelling() still counts it.
        if this_run is not None and this_run.cancelling():
            raise asyncio.CancelledError

    async def finish(item: _Pending) -> None:
        nonlocal finished
        record, scene, task = item
        if task is not None:
            try:
                record.update(predict(await task, scene))
            except RemoteHASetupError:
                stop_if_interrupted()
                raise  # the live HA is gone or refuses: no sample can run
            except Exception as err:  # one bad sample must not stop the run
                record["error"] = f"{type(err).__name__}: {err}"
            stop_if_interrupted()  # before emit: a sample cut short is not cached
        now = wall_clock()
        # The time this sample added to the run (its own time when nothing overlaps).
        record["seconds"] = now - max(record.pop("_started"), finished)
        finished = now
        emit(record)

    try:
        await runner.async_start()
        stop_if_interrupted()
        for job in jobs:
            record: dict[str, Any] = {"key": job.key, "_started": wall_clock()}
            scene, task = None, None
            try:
                scene = scene_for(load_visible(Path(job.path), job.subset))
                task = asyncio.ensure_future(runner.async_run(scene))
            except Exception as err:  # an unreadable sample
                record["error"] = f"{type(err).__name__}: {err}"
            pending.append((record, scene, task))
            await asyncio.sleep(0)  # let it start sending before the next one is read
            while len(pending) >= depth:
                await finish(pending.popleft())
        while pending:
            await finish(pending.popleft())
    finally:
        for _, _, task in pending:
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t for _, _, t in pending if t is not None), return_exceptions=True)
        await runner.async_stop()


_Pending = tuple[dict[str, Any], Any, Any]


def quiet_logging() -> None:
    """Warnings and errors only; HA's notice about custom integrations is expected here."""
    import logging

    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("homeassistant").setLevel(logging.ERROR)
    logging.getLogger("aiohttp_fast_zlib").setLevel(logging.ERROR)


def _worker_main(
    jobs: list[Job],
    mode: str,
    options: dict[str, Any],
    remote: dict[str, Any],
    results: multiprocessing.Queue[dict[str, Any] | None],
) -> None:
    import asyncio

    quiet_logging()
    try:
        asyncio.run(run_jobs(jobs, mode, options, remote, results.put))
    finally:
        results.put(None)  # this worker is done


def run_all(
    jobs: Sequence[Job],
    *,
    mode: str,
    options: Mapping[str, Any],
    remote: Mapping[str, Any],
    workers: int,
    on_result: Callable[[dict[str, Any]], None],
    progress: Progress | None = None,
) -> None:
    """Run ``jobs`` on ``workers`` processes (1: in this process) and report each result."""
    if not jobs:
        return
    if workers <= 1 or len(jobs) == 1:
        import asyncio

        quiet_logging()

        def emit(record: dict[str, Any]) -> None:
            on_result(record)
            if progress:
                progress.advance()

        asyncio.run(run_jobs(jobs, mode, dict(options), dict(remote), emit))
        return
    # Deal heavy and light samples evenly: round-robin over jobs sorted by subset.
    shards: list[list[Job]] = [[] for _ in range(min(workers, len(jobs)))]
    for index, job in enumerate(sorted(jobs, key=lambda j: (j.subset, j.key))):
        shards[index % len(shards)].append(job)
    context = multiprocessing.get_context("spawn")
    results: multiprocessing.Queue[dict[str, Any] | None] = context.Queue()
    processes = [
        context.Process(
            target=_worker_main,
            args=(shard, mode, dict(options), dict(remote), results),
            daemon=True,
        )
        for shard in shards
    ]
    for process in processes:
        process.start()
    running = len(processes)
    seen: set[str] = set()
    while running:
        try:
            item = results.get(timeout=1.0)
        except queue.Empty:
            if not any(p.is_alive() for p in processes):
                break  # a worker died without saying so
            continue
        if item is None:
            running -= 1
            continue
        seen.add(str(item["key"]))
        on_result(item)
        if progress:
            progress.advance()
    for process in processes:
        process.join(timeout=5)
    for job in jobs:
        if job.key not in seen:
            on_result({"key": job.key, "error": "worker process died", "seconds": 0.0})
    sys.stderr.flush()


def jobs_for(records: Iterable[Record]) -> list[Job]:
    """Jobs (paths only) for records."""
    return [Job(r.answer.key, r.answer.subset, str(r.path)) for r in records]


def answers_by_key(records: Iterable[Record]) -> dict[str, Answer]:
    """Answers for the scoring side."""
    return {r.answer.key: r.answer for r in records}
