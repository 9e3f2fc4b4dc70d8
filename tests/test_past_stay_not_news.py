"""A stay over before the monitor started is no news (walk 58's left 5).

The entry added again pushed "Front door left open ... It is shut now" for a stay in the
empty home that had ended four minutes before it existed. ``before_start.news`` drops a
finding about a stay whose devices shut (or went off) between its start and the
monitor's, whatever they do after (walk 59: the old stay came back at the door's next
use); one still open at the start, one begun since, and one whose incident is open are told
(judged) as before.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.anomalies.before_start import news
from custom_components.anomaly_monitor.core.models import AnomalyType, Finding, Transition

DOOR = "binary_sensor.front_door"
PLUG = "sensor.heater_power"
START = datetime(2026, 12, 1, 14, 8, tzinfo=UTC)


def _left_open(since: datetime, entity: str = DOOR) -> Finding:
    return Finding(
        rule="entry_left_open",
        evidence=(entity,),
        reasoning="Front door stayed open for 16 min (from 13:47).",
        anomaly_type=AnomalyType.SECURITY,
        since=since,
    )


STAY = [
    Transition(START - timedelta(minutes=21), DOOR, "on"),
    Transition(START - timedelta(minutes=5), DOOR, "off"),
]


def test_a_stay_over_before_the_start_is_history() -> None:
    found = [_left_open(START - timedelta(minutes=21))]
    assert news(found, STAY, START, {DOOR: "off"}, []) == []


def test_a_stay_open_at_the_start_is_told_and_a_later_opening_is_a_new_stay() -> None:
    found = [_left_open(START - timedelta(minutes=21))]
    assert news(found, STAY[:1], START, {DOOR: "on"}, []) == found
    shut_since = [*STAY[:1], Transition(START + timedelta(minutes=3), DOOR, "off")]
    assert news(found, shut_since, START, {DOOR: "off"}, []) == found
    # Walk 59: the household goes out by the door after the set-up; the old stay is still
    # history, the door's new stay is news.
    reopened = [*STAY, Transition(START + timedelta(minutes=2), DOOR, "on"),
                Transition(START + timedelta(minutes=3), DOOR, "off")]  # fmt: skip
    assert news(found, reopened, START, {DOOR: "off"}, []) == []
    new_stay = [_left_open(START + timedelta(minutes=2))]
    assert news(new_stay, reopened, START, {DOOR: "off"}, []) == new_stay


def test_a_restart_blink_is_no_change_and_a_stay_since_the_start_is_news() -> None:
    found = [_left_open(START - timedelta(minutes=21))]
    blink = [*STAY, Transition(START + timedelta(seconds=5), DOOR, "unknown"),
             Transition(START + timedelta(seconds=9), DOOR, "off")]  # fmt: skip
    assert news(found, blink, START, {DOOR: "off"}, []) == []
    since_start = [_left_open(START + timedelta(minutes=1))]
    assert news(since_start, blink, START, {DOOR: "off"}, []) == since_start
    assert news(found, blink, None, {DOOR: "off"}, []) == found  # a replay: no start


def test_a_meter_drawing_now_is_a_stay_going_on() -> None:
    heat = Finding(
        rule="heat_appliance_left_on",
        evidence=(PLUG,),
        reasoning="Heater has drawn 1,500 W for 1 h.",
        anomaly_type=AnomalyType.SAFETY_HAZARD,
        since=START - timedelta(hours=1),
    )
    drawing = [Transition(START - timedelta(hours=1), PLUG, "1500")]
    assert news([heat], drawing, START, {PLUG: "1500"}, []) == [heat]
    off = [*drawing, Transition(START - timedelta(minutes=10), PLUG, "0")]
    assert news([heat], off, START, {PLUG: "0"}, []) == []
