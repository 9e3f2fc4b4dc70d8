"""One Ctrl-C stops a pipelined replay, even when the sample in flight still ends normally.

asyncio.Runner turns the first SIGINT into ``cancel()`` of the main task. While that task
awaits a sample in flight, the cancellation goes to the sample's task; here that task
answers all the same (as a reply already received would), which used to let the replay
run on to the last sample (seen twice in a loaded full-suite run: exit 0 after 1600 samples).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping
from pathlib import Path
import signal
from typing import Any

import pytest

from benchmark_replay import runners
from benchmark_replay.home_scene import Scene
from benchmark_replay.remote_ha import RemoteHARunner
from benchmark_replay.replay import Job, run_jobs

FIXTURES = Path(__file__).parent / "fixtures" / "smartbench"
SAMPLES = sorted((FIXTURES / "context-dependent" / "tdcs_rbe" / "normal").glob("*.json"))
DEPTH = RemoteHARunner.pipeline


class _AnswersDespiteCancel:
    """A runner with ``DEPTH`` samples in flight whose samples answer even when cancelled.

    The last sample of the first batch presses Ctrl-C once the replay awaits the first one.
    """

    pipeline = RemoteHARunner.pipeline  # the live HA's depth

    def __init__(self) -> None:
        self.started = 0
        self.stopped = False
        self.cancelled_but_answered = 0
        self._release = asyncio.Event()

    async def async_start(self) -> None:
        return None

    async def async_stop(self) -> None:
        self.stopped = True

    async def async_run(self, scene: Scene) -> Mapping[str, Any]:
        self.started += 1
        if self.started == DEPTH:
            for _ in range(5):  # the replay reaches `await` on the first sample
                await asyncio.sleep(0)
            signal.raise_signal(signal.SIGINT)
            await asyncio.sleep(0)
            self._release.set()
        try:
            await self._release.wait()
        except asyncio.CancelledError:
            self.cancelled_but_answered += 1
        return {"verdict": {"anomaly": False, "evidence": []}}


@pytest.fixture
def default_sigint() -> Iterator[None]:
    """asyncio.Runner handles SIGINT only while Python's default handler is installed."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def test_one_ctrl_c_stops_the_replay_while_a_sample_in_flight_answers(
    default_sigint: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(SAMPLES) >= 2
    jobs = [
        Job(f"sample_{index}", "context-dependent", str(SAMPLES[index % len(SAMPLES)]))
        for index in range(3 * DEPTH)
    ]
    runner = _AnswersDespiteCancel()
    monkeypatch.setattr(runners, "make_runner", lambda mode, options, remote: runner)
    emitted: list[dict[str, Any]] = []

    with asyncio.Runner() as loop_runner, pytest.raises(KeyboardInterrupt):
        loop_runner.run(run_jobs(jobs, "dev-ha", {}, {}, emitted.append))

    assert runner.cancelled_but_answered >= 1  # the Ctrl-C reached a sample in flight
    assert runner.started == DEPTH  # no sample was sent after it
    assert emitted == []  # nor counted: the answered one may be cut short
    assert runner.stopped  # the replay monitor is removed
