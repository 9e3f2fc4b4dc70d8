"""Simulated time for a real Home Assistant: frozen wall clocks and a virtual event loop.

Wall clocks (``dt_util.utcnow``, ``time.time``) are frozen by freezegun exactly as in the
SmartBench replay; the event loop's own clock is virtual too (:class:`SimLoop`), so HA's
timers (the coordinator's interval, debouncers, delayed store writes) fire at the
simulated moment they were scheduled for. :func:`advance_to` jumps from one due timer
to the next, so a quiet simulated hour costs a handful of loop iterations.
"""

from __future__ import annotations

# The harness's patch must run before HA binds utcnow (see ha_runner).
from pytest_homeassistant_custom_component import patch_time  # isort: skip

import asyncio
from datetime import UTC, datetime
from typing import Any

import freezegun
from homeassistant.core import HomeAssistant

# More timers due at one simulated moment than this is a loop, not a home.
MAX_TIMERS_AT_ONE_MOMENT = 10_000

freezegun.api.FakeDatetime = patch_time.HAFakeDatetime  # type: ignore[misc]
freezegun.api.datetime_to_fakedatetime = patch_time.ha_datetime_to_fakedatetime


class SimLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock is the simulation's (seconds since the epoch)."""

    sim_time: float = 0.0

    def __init__(self) -> None:
        super().__init__()
        # Epoch seconds are ~1.8e9: a nanosecond resolution vanishes in the float, and a
        # timer due exactly now would never run.
        self._clock_resolution = 1e-6

    def time(self) -> float:
        """The simulated monotonic clock."""
        return self.sim_time

    def next_due(self) -> float | None:
        """When the earliest live timer is due, if any."""
        scheduled = self._scheduled  # type: ignore[attr-defined]
        if scheduled and not scheduled[0].cancelled():
            return scheduled[0].when()  # the heap's top: no need to look further
        live = [h.when() for h in self._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
        return min(live) if live else None


class SimClock:
    """Moves freezegun's wall clock and the running SimLoop's clock together."""

    def __init__(self, start: datetime) -> None:
        self._freezer = freezegun.freeze_time(start.astimezone(UTC), real_asyncio=True)
        self._frozen: Any = None
        self.now = start.astimezone(UTC)

    def start(self) -> None:
        """Freeze the wall clocks."""
        self._frozen = self._freezer.start()

    def stop(self) -> None:
        """Give the real clocks back."""
        self._freezer.stop()

    def set(self, when: datetime, exact: float | None = None) -> None:
        """Move every clock to ``when`` (never backwards).

        ``exact`` is the loop time to use: a timer's own float, which a datetime
        (microseconds) may round below, leaving the timer never quite due.
        """
        when = when.astimezone(UTC)
        when = max(when, self.now)
        self.now = when
        self._frozen.move_to(when)
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # between two Home Assistant instances (a power cut)
            loop = None
        if isinstance(loop, SimLoop):
            target = when.timestamp() if exact is None else max(exact, when.timestamp())
            loop.sim_time = max(loop.sim_time, target)

    def attach(self, loop: SimLoop) -> None:
        """A new loop (a restarted HA) starts at the current simulated moment."""
        loop.sim_time = self.now.timestamp()


def idle(hass: HomeAssistant) -> bool:
    """Nothing to run now: no callback ready, no timer due, no task pending (a settle
    would only spin the loop twice)."""
    loop = asyncio.get_running_loop()
    if not isinstance(loop, SimLoop) or loop._ready:  # type: ignore[attr-defined]
        return False
    due = loop.next_due()
    return (due is None or due > loop.sim_time) and not (hass._tasks or hass._background_tasks)


async def settle(hass: HomeAssistant) -> None:
    """Let everything that is due now run to completion."""
    await asyncio.sleep(0)
    await hass.async_block_till_done(wait_background_tasks=True)


async def advance_to(hass: HomeAssistant, clock: SimClock, when: datetime) -> int:
    """Fire every timer due up to ``when`` at its own moment; returns how many steps."""
    loop = asyncio.get_running_loop()
    assert isinstance(loop, SimLoop)
    target = when.timestamp()
    steps = 0
    stuck = 0
    while (due := loop.next_due()) is not None and due <= target:
        stuck = stuck + 1 if due <= loop.sim_time else 0
        if stuck > MAX_TIMERS_AT_ONE_MOMENT:
            raise RuntimeError(f"timers keep firing at {clock.now.isoformat()}: a timer loop")
        due = max(due, loop.sim_time)
        clock.set(datetime.fromtimestamp(due, UTC), exact=due)
        await settle(hass)
        steps += 1
    clock.set(when)
    return steps
