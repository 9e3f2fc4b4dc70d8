"""Two devices that changed at one moment and stayed so are one trouble (sets 17, 16).

Set 17 (Maârif), on b194a63: she fell in the bathroom at 03:20; "the bathroom door shut
for 35 min" told at 03:55, then "her room's door open for 1 h" pushed at 04:20. Set 17
(Cluj): the front door opened and its lock unlocked at 03:50, "door open" told at 04:05,
"lock unlocked far longer than usual" pushed at 04:50. The second is shown in the first's
notification, acknowledged with it. A device that changed at another moment, one that
moved since the first was told, a finding while nobody is home, or a graver one, is news.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.ha_start import StartSpan
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityState, Severity

from .tracker_home import finding, outcome, state

BATHROOM = "binary_sensor.bathroom_door_contact"
BEDROOM = "binary_sensor.bedroom_door_contact"

SHUT_LONG = finding("state_longer_than_usual", BATHROOM, "security")
OPEN_LONG = finding("state_longer_than_usual", BEDROOM, "security")


def _home(bathroom: datetime, bedroom: datetime) -> dict[str, EntityState]:
    return {
        BATHROOM: state(BATHROOM, "off", "Bathroom", "door", changed=bathroom),
        BEDROOM: state(BEDROOM, "on", "Bedroom", "door", changed=bedroom),
    }


async def test_two_doors_of_one_walk_are_told_once(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "walk")
    walk = dt_util.utcnow()
    home = _home(walk + timedelta(seconds=30), walk)
    now = walk + timedelta(minutes=35)
    assert outcome(tracker, [SHUT_LONG], now, home) == (["state_longer_than_usual"], [])
    now += timedelta(minutes=25)
    assert outcome(tracker, [SHUT_LONG, OPEN_LONG], now, home, by="subject") == ([], [BEDROOM])
    tracker.acknowledge(tracker.open[SHUT_LONG.signature].key)
    assert tracker.open[OPEN_LONG.signature].acknowledged


async def test_another_moment_a_move_since_away_or_graver_is_news(hass: HomeAssistant) -> None:
    walk = dt_util.utcnow()
    told = walk + timedelta(minutes=35)
    later = told + timedelta(minutes=25)
    cases = {
        "another moment": (_home(walk, walk + timedelta(minutes=20)), OPEN_LONG),
        "moved since": (_home(walk, told + timedelta(minutes=5)), OPEN_LONG),
        "away": (
            _home(walk, walk),
            finding("state_longer_than_usual", BEDROOM, "security", while_away=True),
        ),
        "graver": (
            _home(walk, walk),
            finding("state_longer_than_usual", BEDROOM, "security", Severity.HIGH),
        ),
    }
    for name, (home, second) in cases.items():
        tracker = AnomalyTracker(hass, name)
        outcome(tracker, [SHUT_LONG], told, _home(walk, walk))
        nobody_home = second.while_away  # else the arrival ends it
        found = outcome(tracker, [SHUT_LONG, second], later, home, not nobody_home, by="subject")
        assert found == (
            [BEDROOM],
            [],
        ), name


async def test_doors_set_only_by_home_assistant_starting_are_not_one_walk(
    hass: HomeAssistant,
) -> None:
    """After a restart both doors' last change is HA's start: that is no act of one
    person, so the second finding is told on its own. A walk outside the start still
    joins."""
    start = dt_util.utcnow()
    told = start + timedelta(minutes=35)
    later = told + timedelta(minutes=25)
    for name, span, joined in (
        (
            "at the start",
            StartSpan(start - timedelta(seconds=2), start + timedelta(seconds=20)),
            False,
        ),
        ("still starting", StartSpan(start - timedelta(seconds=2)), False),
        (
            "start before the walk",
            StartSpan(start - timedelta(hours=3), start - timedelta(hours=3)),
            True,
        ),
    ):
        tracker = AnomalyTracker(hass, name)
        tracker.ha_start = span
        home = _home(start + timedelta(seconds=15), start + timedelta(seconds=1))
        assert outcome(tracker, [SHUT_LONG], told, home) == (["state_longer_than_usual"], []), name
        found = outcome(tracker, [SHUT_LONG, OPEN_LONG], later, home, by="subject")
        assert found == (([], [BEDROOM]) if joined else ([BEDROOM], [])), name
