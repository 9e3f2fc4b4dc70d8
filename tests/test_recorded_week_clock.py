"""The recorded week's clock (``recorded_week.advance_to``) fires each timer at its own
moment, also one that Home Assistant armed a float above the microsecond it is for."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.event import async_track_point_in_utc_time
from homeassistant.util import dt as dt_util

from .recorded_week import advance_to

# The moment the week stalled at ("timers keep firing"): the recorder's five-minute task with
# HA's random microsecond 171893, armed on the hour. HA arms a point in time at
# loop.time() + point - time.time(), a float sum that here lands one float (0.24 µs) above
# the clock a frozen datetime of the point's own microsecond gives.
ARMED_AT = datetime(2028, 1, 2, 23, 0, tzinfo=UTC)
POINT = datetime(2028, 1, 2, 23, 0, 10, 171893, tzinfo=UTC)


def _armed_for(hass: HomeAssistant, point: datetime) -> asyncio.TimerHandle:
    handles: list[asyncio.TimerHandle] = hass.loop._scheduled  # type: ignore[attr-defined]
    [handle] = [
        h
        for h in handles
        if not h.cancelled()
        and getattr(getattr(h, "_callback", None), "utc_point_in_time", None) == point
    ]
    return handle


async def test_a_point_armed_a_float_above_its_microsecond_fires_at_it(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    fired: list[tuple[datetime, datetime]] = []

    @callback
    def _fire(point: datetime) -> None:
        fired.append((point, dt_util.utcnow()))

    freezer.move_to(ARMED_AT)
    async_track_point_in_utc_time(hass, _fire, POINT)
    handle = _armed_for(hass, POINT)
    freezer.move_to(POINT)
    assert hass.loop.time() < handle.when()  # the case itself: its microsecond is not enough
    freezer.move_to(ARMED_AT)

    await advance_to(hass, freezer, POINT + timedelta(minutes=1))

    [(point, clock)] = fired
    assert point == POINT
    assert timedelta(0) <= clock - POINT <= timedelta(microseconds=1)
