"""A way out opened from inside while the household sleeps is told at once (blind13 c).

Rose's learned fortnight (``test_daily_rhythm``): in bed at 22:30, a toilet trip through
the hall at 03:00, the front door used every afternoon. ``went_out_at_night`` waited for
nobody to move inside for minutes after a night opening: a child who slips out of the
front door or onto a balcony and is followed back (a parent, the child himself) was never
told. While the household sleeps, walking to a door whose part of the house is never
lived in at that hour is the news; with the household up (a late evening) it is not.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
import pytest

from custom_components.anomaly_monitor.core.baselines.daily_rhythm import DailyRhythm

from . import test_daily_rhythm as rhythm

BED, HALL, DOOR = rhythm.BED, rhythm.HALL, rhythm.DOOR


async def test_a_door_opened_from_inside_while_everybody_sleeps_is_told_at_once(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """At 01:30, three hours into the household's rest, somebody walks from the bedroom
    through the hall and opens the front door; the hall (never lived in between midnight
    and 02:59 on the fortnight learned) moves again three minutes on. Told at once."""
    entry, today = await rhythm._home(hass, freezer)
    way = today + timedelta(hours=1, minutes=28)
    _walk_to_the_door(hass, freezer, way, hall_again=5)
    rules = await rhythm._rules_at(hass, freezer, entry, way + timedelta(minutes=6))
    finding = rules["went_out_at_night"]
    assert DOOR in finding["evidence"]
    assert "01:30" in finding["reasoning"]
    assert "the household was asleep" in finding["reasoning"]
    # What the sensors show (the hall moved, then the door opened), not who opened it: a
    # dog's round before somebody came in from outside reads the same (walk of session 48).
    assert "Front door was opened at 01:30, just after motion inside," in finding["reasoning"]
    assert "from inside" not in finding["reasoning"]


async def test_a_door_opened_late_in_an_evening_that_goes_on_is_not_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The same walk to the door at 01:30 after an evening that went on (somebody moving
    every ten minutes since 23:00: a guest seen out): the household was up."""
    entry, today = await rhythm._home(hass, freezer, night=timedelta(minutes=-60))
    moment = today - timedelta(minutes=60)
    while moment < today + timedelta(hours=1, minutes=28):
        rhythm._set(hass, freezer, moment, (BED, "on"))
        rhythm._set(hass, freezer, moment + timedelta(minutes=1), (BED, "off"))
        moment += timedelta(minutes=10)
    way = today + timedelta(hours=1, minutes=28)
    rhythm._set(hass, freezer, way + timedelta(minutes=1), (HALL, "on"))
    rhythm._set(hass, freezer, way + timedelta(minutes=2), (DOOR, "on"))
    rhythm._set(hass, freezer, way + timedelta(minutes=3), (HALL, "off"), (DOOR, "off"))
    rhythm._set(hass, freezer, way + timedelta(minutes=5), (HALL, "on"))
    rules = await rhythm._rules_at(hass, freezer, entry, way + timedelta(minutes=6))
    assert "went_out_at_night" not in rules


@pytest.mark.parametrize(
    ("door_hour", "told"),
    [(None, True), (3.05, False), (5.5, False), (7.5, True)],
)
async def test_a_door_never_opened_at_night_is_told_where_its_room_lives_at_night(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, door_hour: float | None, told: bool
) -> None:
    """The hall lives at 03:00 every night (Rose's toilet trip; a dog's room alike), so
    its part of the house is no unused one; the front door in it was opened at night on
    none of the fortnight's nights. At 04:40 somebody walks from the bedroom through the
    hall and opens it, the hall moving again two minutes on: told at once (blind42 d: the
    back door at 02:40, the dog's kitchen moving before it). Where the door is opened on
    her trip some nights, or some mornings at 05:30 (within the hour: an early start), it
    is the household's at that hour and is left alone; used only from 07:30 it is not."""
    entry, today = await rhythm._home(hass, freezer, door_hour=door_hour)
    way = today + timedelta(hours=4, minutes=38)
    _walk_to_the_door(hass, freezer, way, hall_again=4)
    rules = await rhythm._rules_at(hass, freezer, entry, way + timedelta(minutes=5))
    assert ("went_out_at_night" in rules) is told
    if told:
        reasoning = rules["went_out_at_night"]["reasoning"]
        assert "the household was asleep" in reasoning
        assert "04:40" in reasoning


def test_a_night_broken_by_settling_a_child_keeps_its_last_rest() -> None:
    """Asleep from 00:40, up 01:57-02:22 settling a child (longer than a toilet trip):
    the rest that ended at 01:57 is kept, however short, until everybody leaves."""
    start = datetime(2026, 9, 8, 0, 40, tzinfo=rhythm.ZoneInfo(rhythm.ZONE))
    days = DailyRhythm(rhythm.ZoneInfo(rhythm.ZONE))
    days.movement(start)
    woke = start + timedelta(minutes=77)
    for minute in range(0, 26, 5):
        days.movement(woke + timedelta(minutes=minute))
    days.movement(woke + timedelta(minutes=41))
    assert days.last_rest == (start, woke)
    days.presence(False, woke + timedelta(hours=1))
    assert days.last_rest is None


LEAK = "binary_sensor.hall_leak"


@pytest.mark.parametrize(("leak_area", "told"), [("Hall", False), ("Kitchen", True)])
async def test_a_door_opened_to_an_alarm_in_its_room_is_no_walk_out(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    monkeypatch: pytest.MonkeyPatch,
    leak_area: str,
    told: bool,
) -> None:
    """01:10 a leak detector sounds; 01:28-01:30 somebody walks from the bedroom through
    the hall and opens the door of the leak's room: they went to the alarm (told by
    itself), not out. The same walk with the leak in another room is told as before
    (blind25 d: a bathroom door opened to a burst hose was told as a walk-out)."""
    monkeypatch.setitem(rhythm.ATTRIBUTES, LEAK, {"device_class": "moisture"})
    monkeypatch.setitem(rhythm.AREAS, LEAK, leak_area)
    entry, today = await rhythm._home(hass, freezer)
    rhythm._set(hass, freezer, today + timedelta(hours=1, minutes=10), (LEAK, "on"))
    way = today + timedelta(hours=1, minutes=28)
    _walk_to_the_door(hass, freezer, way, hall_again=5)
    rules = await rhythm._rules_at(hass, freezer, entry, way + timedelta(minutes=6))
    assert ("went_out_at_night" in rules) is told


def _walk_to_the_door(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, way: datetime, hall_again: int
) -> None:
    """From the bed (sensor up at ``way``) through the hall to the door, opened a minute
    on; the hall moving again ``hall_again`` minutes after ``way``."""
    rhythm._set(hass, freezer, way, (BED, "on"))
    rhythm._set(hass, freezer, way + timedelta(minutes=1), (HALL, "on"))
    rhythm._set(hass, freezer, way + timedelta(minutes=2), (DOOR, "on"))
    rhythm._set(hass, freezer, way + timedelta(minutes=3), (HALL, "off"), (BED, "off"))
    rhythm._set(hass, freezer, way + timedelta(minutes=hall_again), (HALL, "on"))
