"""The daily statistics' cheaper reading of a window gives what reading it one by one gives
(core, no HA).

A sensor's readings on the home's clock and per local day are taken once per analysis,
by runs of one day and hour where the clock allows (``daily_profile.py``); follow-up
links are learned from the window's events without parsing a meter's readings one by one
(``followups.py``). Each is checked against the plain computation it stands for, on
windows across the clock changes of a zone that changes at night and of one that
changes at midnight, on naive times, on times in UTC and on a mix of them.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
import random
from zoneinfo import ZoneInfo

import pytest

from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.home_clock import on_home_clock
from custom_components.anomaly_monitor.core.models import Environment, Transition, parse_number
from custom_components.anomaly_monitor.core.statistics import daily_profile, followups
from custom_components.anomaly_monitor.core.statistics.daily_profile import (
    local_readings,
    readings_by_day,
)

from .core_factories import entity, window

BERLIN = ZoneInfo("Europe/Berlin")  # clocks change at 02:00/03:00
SANTIAGO = ZoneInfo("America/Santiago")  # clocks change at midnight
ROOM = "sensor.living_room_temperature"
METER = "sensor.washer_power"
STEADY = datetime(2026, 6, 10, 21)  # no clock change in the six days after


def _readings(start: datetime, seed: int, days: int = 6) -> list[tuple[datetime, str]]:
    """A sensor reporting every few minutes for ``days`` days, gaps and dropouts in it."""
    rng = random.Random(seed)
    found: list[tuple[datetime, str]] = []
    when = start
    while when < start + timedelta(days=days):
        when += timedelta(minutes=rng.choice((1, 3, 7, 30, 90, 240)), seconds=rng.randint(0, 59))
        state = rng.choice((f"{rng.uniform(15, 25):.1f}",) * 8 + ("unavailable", "unknown"))
        found.append((when, state))
    return found


def _view(times: list[tuple[datetime, str]], zone: ZoneInfo | None) -> HomeView:
    transitions = [Transition(when, ROOM, state, "Living room") for when, state in times]
    end = max(when for when, _ in times)
    env = Environment(
        local_time=end, weather="sunny", outdoor_temperature=12.0, persons_home=1,
        persons_total=2, time_zone=zone,
    )  # fmt: skip
    states = [entity(ROOM, "20.0", area="Living room", device_class="temperature", unit="°C")]
    return HomeView(window(states, env, transitions))


def _fresh_by_day(home: HomeView) -> dict[date, list[tuple[int, float]]]:
    days: dict[date, list[tuple[int, float]]] = defaultdict(list)
    for when, value in home.numbers(ROOM):
        local = on_home_clock(when, home.env.zone)
        days[local.date()].append((local.hour, value))
    return days


type _Case = tuple[str, list[tuple[datetime, str]], ZoneInfo | None]


def _cases() -> list[_Case]:
    cases: list[_Case] = []
    for seed in range(4):
        for zone, starts in (
            (BERLIN, (datetime(2026, 3, 26, 21), datetime(2026, 10, 22, 22), STEADY)),
            (SANTIAGO, (datetime(2026, 4, 1, 20), datetime(2026, 9, 3, 21), STEADY)),
        ):
            for start in starts:
                utc = start.replace(tzinfo=zone).astimezone(UTC)
                times = _readings(utc, seed)
                home_clock = [(on_home_clock(when, zone), state) for when, state in times]
                cases.append((f"home clock {zone} {start}", home_clock, zone))
                cases.append((f"utc {zone} {start}", times, zone))
                mixed = [(w if i % 3 else w.astimezone(zone), s) for i, (w, s) in enumerate(times)]
                cases.append((f"mixed {zone} {start}", mixed, zone))
        naive = _readings(datetime(2026, 6, 1, 22), seed)
        cases.append(("naive", naive, None))
        cases.append(("naive in a zone", naive, BERLIN))
        one_day = _readings(datetime(2026, 6, 1, 9, tzinfo=UTC), seed, days=1)
        cases.append(("utc, no zone", one_day, None))
    return cases


@pytest.mark.parametrize(("label", "times", "zone"), _cases())
def test_readings_per_day_equal_reading_them_one_by_one(
    label: str, times: list[tuple[datetime, str]], zone: ZoneInfo | None
) -> None:
    home = _view(times, zone)
    fresh = _fresh_by_day(home)
    assert len(fresh) >= 2, label
    assert local_readings(home, ROOM) == [
        (on_home_clock(when, zone), value) for when, value in home.numbers(ROOM)
    ]
    # By runs where one offset holds the window (bisected), one by one where it does not.
    steady = "naive" in label or "no zone" in label or str(STEADY) in label
    assert daily_profile._one_clock(local_readings(home, ROOM)) is steady, label
    made = readings_by_day(home, ROOM)
    assert list(made.items()) == list(fresh.items()), label  # the days' order too
    assert readings_by_day(home, ROOM) is made  # once per analysis
    assert daily_profile.day_count(home, ROOM) == len(fresh)
    values = daily_profile.values_by_day(home, ROOM)
    assert list(values.items()) == [(d, [v for _, v in pairs]) for d, pairs in fresh.items()]
    assert readings_by_day(_view(times[: len(times) // 2], zone), ROOM) != made


def test_times_on_the_home_clock_are_kept_as_they_are() -> None:
    utc = datetime(2026, 10, 24, 20, tzinfo=UTC)
    home_clock = [(on_home_clock(w, BERLIN), s) for w, s in _readings(utc, 9, days=2)]
    home = _view(home_clock, BERLIN)
    kept = local_readings(home, ROOM)
    assert len(kept) > 20
    assert all(a[0] is b[0] for a, b in zip(kept, home.numbers(ROOM), strict=True))
    converted = local_readings(_view(_readings(utc, 9, days=2), BERLIN), ROOM)
    assert converted == kept
    assert not all(a[0] is b[0] for a, b in zip(converted, kept, strict=True))


def _fresh_events(home: HomeView) -> dict[tuple[str, str], list[datetime]]:
    """``_events`` as first written: each change's state lowered and parsed."""
    events: dict[tuple[str, str], list[datetime]] = {}
    for entity_id in list(home.history)[: followups.MAX_ENTITIES]:
        for change in home.changes(entity_id)[1:]:
            state = change.state.lower()
            if parse_number(state) is not None:
                continue
            events.setdefault((entity_id, state), []).append(change.when)
    return events


@pytest.mark.parametrize("seed", range(6))
def test_follow_up_events_equal_parsing_every_change(seed: int) -> None:
    rng = random.Random(seed)
    start = datetime(2026, 11, 2, 18)
    transitions = []
    for minute in range(600):
        entity_id = rng.choice((ROOM, METER, "binary_sensor.hall_motion", "light.hall"))
        if entity_id in (ROOM, METER):
            state = rng.choice(("0", "1800.5", "21.5", "Unavailable", "unknown", "NaN", "1E3"))
        else:
            state = rng.choice(("on", "off", "ON", "unknown"))
        transitions.append(Transition(start + timedelta(minutes=minute), entity_id, state, "Hall"))
    env = Environment(
        local_time=start + timedelta(hours=10), weather="sunny", outdoor_temperature=12.0,
        persons_home=1, persons_total=2,
    )  # fmt: skip
    home = HomeView(window([entity(ROOM, "20.0", area="Hall")], env, transitions))
    events = followups._events(home)
    assert events == _fresh_events(home)
    assert list(events) == list(_fresh_events(home))
    assert any(entity_id == METER for entity_id, _ in events)  # its dropouts are events


def test_daily_profile_module_keeps_its_plain_reading_for_mixed_clocks() -> None:
    assert not daily_profile._one_clock([])
    naive = datetime(2026, 1, 1)
    assert daily_profile._one_clock([(naive, 1.0), (naive, 2.0)])
    berlin = [(datetime(2026, 1, 1, tzinfo=BERLIN), 1.0)]
    assert not daily_profile._one_clock(berlin)  # a zone's wall time may run back
