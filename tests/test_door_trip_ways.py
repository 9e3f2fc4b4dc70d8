"""Through a door and not back, by day: the WC's door is no way out because the household
does not come and go by it, whoever opens it while the trackers say the home is empty.

Piotr's flat (``test_door_trips``) a fortnight more lived: each late morning his phone
leaves and comes back an hour later by the front door, and meanwhile his son, who has no
tracker, uses the WC (so the WC door is an "entry" into the empty home, as the house door
is); at three he takes the bins out by the front door and is back in three minutes. The
afternoon he faints in the WC is told as before (it was not: a door opened while the home
read empty was taken for a way out, set 14's Nowa Huta flat); a trip out by the front door
and nothing since is not told by day (to the yard, the neighbours), since the household
comes and goes by it (set 14's Ulaanbaatar house door).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from custom_components.anomaly_monitor.core.baselines import HomeBaselines, door_trip_out
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
)
from custom_components.anomaly_monitor.core.baselines.used_from_inside import UsedFromInside
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity
from .lived_home import Events, lived, observe
from .test_door_trips import (
    AREAS as WC_AREAS,
    CLASSES as WC_CLASSES,
    DAYS,
    KITCHEN,
    PIOTR,
    TODAY,
    WC,
    ZONE,
    _day,
    _visit,
)

FRONT = "binary_sensor.front_door"
AREAS = {**WC_AREAS, FRONT: "Porch"}  # no motion sensor there, as a WC
CLASSES = {**WC_CLASSES, FRONT: "door"}


def _passage(at: datetime, door: str) -> Events:
    return [(at, door, "on"), (at + timedelta(minutes=0.1), door, "off")]


def _outings(midnight: datetime) -> Events:
    """The phone out at 11:00 and back at 12:00 by the front door, the son in the WC at
    11:30; the bins at 15:00 by the front door, back in three minutes."""
    hour = timedelta(hours=1)
    events: Events = [*_passage(midnight + 11 * hour - timedelta(minutes=1), FRONT)]
    events += [(midnight + 11 * hour, PIOTR, "not_home"), (midnight + 12 * hour, PIOTR, "home")]
    events += _passage(midnight + 12 * hour + timedelta(minutes=0.5), FRONT)
    events += _visit(midnight + 11.5 * hour)[2:]  # the son: no hall motion, the door only
    events += _passage(midnight + 15 * hour, FRONT) + _passage(midnight + 15.05 * hour, FRONT)
    return events


def _flat() -> HomeBaselines:
    start = TODAY - timedelta(days=DAYS)
    midnights = [start + timedelta(days=day) for day in range(DAYS)]
    return lived(
        ZONE, AREAS, CLASSES, PIOTR, start=start, days=(_day(m) + _outings(m) for m in midnights)
    )


def _view(now: datetime, events: Events) -> HomeView:
    states = [entity(e, "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    states.append(entity(PIOTR, "home"))
    transitions = [Transition(w, e, s, AREAS[e]) for w, e, s in events if w <= now]
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    ordered = sorted(transitions, key=lambda t: t.when)
    return HomeView(build_window(states, env, ordered, start=now - timedelta(hours=2)))


def _today(baselines: HomeBaselines, until: float, last: Events) -> tuple[datetime, Events]:
    events = [e for e in _day(TODAY) if e[0] < TODAY + timedelta(hours=until)] + last
    observe(baselines, events, AREAS)
    return max(when for when, _, _ in last), sorted(events)


def test_the_household_comes_and_goes_by_the_front_door_not_by_the_wc() -> None:
    baselines = _flat()
    assert len(baselines.away.entries.get(WC, ())) >= 2  # the son's, in the "empty" home
    assert baselines.inside.came_and_went_by(FRONT)
    assert not baselines.inside.came_and_went_by(WC)
    assert not baselines.inside.came_and_went_by(KITCHEN)  # never opened: not counted


def test_fainted_in_the_wc_is_told_a_trip_out_of_the_front_door_is_not() -> None:
    baselines = _flat()
    shut, events = _today(baselines, 13.98, _visit(TODAY + timedelta(hours=14), back=False))
    (finding,) = still_where_last_seen(_view(shut + timedelta(minutes=21), events), baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert f"Somebody went through {WC} and shut it" in finding.reasoning
    baselines = _flat()
    out = _passage(TODAY + timedelta(hours=15), FRONT)
    shut, events = _today(baselines, 14.98, out)
    assert baselines.door_trips.learned(FRONT, shut) is not None  # judged but for the way
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=40), events), baselines)) == []


def test_counts_stored_before_presence_changes_were_counted_are_read() -> None:
    old = {"version": 1, "contacts": {WC: [20, 19, 2, 1, 5, 3]}}
    read = UsedFromInside.from_dict(old, ZoneInfo(ZONE))
    assert read.counts[WC] == [20, 19, 2, 1, 5, 3, 0, 0]
    assert not read.came_and_went_by(WC)
    again = UsedFromInside.from_dict(read.as_dict(), ZoneInfo(ZONE))
    assert again.counts == read.counts


def test_in_the_hours_the_home_rests_a_trip_out_to_the_porch_is_not_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same two trips in hours this home rests at (a late-rising household's Saturday
    morning: the rest's reading, not the clock, says so): the WC is still told, a trip out
    by the door to the porch is not (out to the garage or the yard, they may stay there);
    its night quarter never saw a trip back, so it is no way to an outhouse at night."""
    monkeypatch.setattr(door_trip_out, "resting_hours", lambda *_: True)
    baselines = _flat()
    shut, events = _today(baselines, 13.98, _visit(TODAY + timedelta(hours=14), back=False))
    (finding,) = still_where_last_seen(_view(shut + timedelta(minutes=21), events), baselines)
    assert f"Somebody went through {WC} and shut it" in finding.reasoning
    baselines = _flat()
    shut, events = _today(baselines, 14.98, _passage(TODAY + timedelta(hours=15), FRONT))
    assert baselines.door_trips.learned(FRONT, shut) is not None
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=40), events), baselines)) == []
