"""A door's stay told while nobody was home is over once the door is shut and locked, or
the household is home (walk 45's left 1; ``anomalies/told_stay_recalled.py``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest

from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.anomalies.told_stay_recalled import RecalledStays
from custom_components.anomaly_monitor.core.models import (
    AnomalyType,
    EntityInfo,
    EntityState,
    Finding,
    Severity,
)

from .helpers import ALICE, FRONT_LOCK, LIVING_TEMP, pass_time
from .left_open_while_away import (
    DOOR,
    DOOR_ATTRS,
    LIVING_ATTRS,
    LOCK_ATTRS,
    TOLD_AWAY,
    left_open_while_away,
    messages,
)


async def _left_open_while_away(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> str:
    """Told 30 min after Alice left: the title."""
    _, told = await left_open_while_away(hass, freezer, timedelta(minutes=30))
    return str(told["title"])


@pytest.mark.parametrize("home_again", [False, True])
async def test_the_stay_told_while_away_is_over_once_the_door_is_shut_and_locked(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, home_again: bool
) -> None:
    """Shut and locked from outside at 10:33 (nobody home), or then Alice home: main kept
    the incident open on "Front door stayed open for 30 min (from 10:03). ... It is shut
    now; if nobody in the household left it open, check who did." under "... while nobody
    is home", until the stay left the two-hour window."""
    title = await _left_open_while_away(hass, freezer)
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    await pass_time(hass, freezer, timedelta(seconds=10))
    hass.states.async_set(FRONT_LOCK, "locked", LOCK_ATTRS)
    if home_again:
        await pass_time(hass, freezer, timedelta(seconds=10))
        hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    for minute in range(20):  # the household's life goes on: analyses every few minutes
        hass.states.async_set(LIVING_TEMP, f"{21.5 + minute / 10:.1f}", LIVING_ATTRS)
        await pass_time(hass, freezer, timedelta(minutes=1))
    (note,) = messages(hass)
    assert note["title"] == f"Over: {title}"
    assert "It is shut now" not in note["message"]


async def test_a_passage_after_the_told_stay_is_over_does_not_tell_it_again(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Over, the stay is still in the rule's window: Alice home and through the door a
    while later, the recall of that stay is not pushed as new (nor shown again)."""
    title = await _left_open_while_away(hass, freezer)
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    hass.states.async_set(FRONT_LOCK, "locked", LOCK_ATTRS)
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    await pass_time(hass, freezer, timedelta(minutes=10))
    for state in ("on", "off"):  # out to the bins and back
        hass.states.async_set(DOOR, state, DOOR_ATTRS)
        await pass_time(hass, freezer, timedelta(seconds=40))
    await pass_time(hass, freezer, timedelta(minutes=20))
    (note,) = messages(hass)
    assert note["title"] == f"Over: {title}"


def _told_away(door: str, lock: str) -> OpenAnomaly:
    away = Finding(
        rule="entry_unsecured_while_away",
        evidence=(door, lock),
        reasoning=TOLD_AWAY,
        anomaly_type=AnomalyType.SECURITY,
        severity=Severity.HIGH,
        subject=door,
        while_away=True,
    )
    return OpenAnomaly.from_findings([away], dt_util.utcnow())


def test_a_lock_still_unlocked_is_a_stay_going_on_not_its_recall() -> None:
    """Set 41 (Gràcia): the household home, the door shut, its lock left unlocked;
    "unlocked for 2 h 34 min" about the door is the stay going on: kept (it was dropped,
    the incident ended, and the lock's stay was pushed again as new)."""
    told = _told_away(DOOR, FRONT_LOCK)
    unlocked = Finding(
        rule="state_longer_than_usual",
        evidence=(FRONT_LOCK, DOOR),
        reasoning="Front door lock has been unlocked for 2 h 34 min.",
        anomaly_type=AnomalyType.SECURITY,
        severity=Severity.MEDIUM,
        subject=DOOR,
        magnitude=154.0,
        since=dt_util.utcnow() - timedelta(minutes=154),
    )
    stays = RecalledStays()
    states = {DOOR: "off", FRONT_LOCK: "unlocked"}
    assert stays.left([unlocked], [told], states, someone_home=True) == [unlocked]
    shut = {DOOR: "off", FRONT_LOCK: "locked"}
    assert stays.left([unlocked], [told], shut, someone_home=True) == []  # ended: recalled
    assert unlocked.since is not None
    later = replace(unlocked, since=unlocked.since + timedelta(hours=3))  # as long, later
    assert stays.left([later], [], shut, someone_home=True) == [later]


_OPENED = datetime(2026, 3, 10, 11, 56, 37, tzinfo=dt_util.UTC)


def _seen(states: dict[str, str], since: datetime) -> dict[str, EntityState]:
    return {
        entity: EntityState(EntityInfo(entity, entity), state, last_changed=since)
        for entity, state in states.items()
    }


def _door_left_open(since: datetime, minutes: float) -> Finding:
    return Finding(
        rule="entry_left_open",
        evidence=(DOOR,),
        reasoning=f"Front door stayed open for {minutes:.0f} min (from {since:%H:%M}).",
        anomaly_type=AnomalyType.SECURITY,
        subject=DOOR,
        magnitude=minutes,
        since=since,
    )


def test_a_told_stay_is_known_by_its_start_though_no_rule_found_it_as_it_ended() -> None:
    """Walk of session 48: the second outing's door told while away, shut, the household
    home; the door's rule found neither of the night's two long stays then (its limit three
    times their median), so main learned no minutes, and a passage later the stay was
    pushed as "Front door left open", "stayed open for 21 min (from 02:56)"."""
    told = _told_away(DOOR, FRONT_LOCK)
    away = {DOOR: "on", FRONT_LOCK: "unlocked"}
    stays = RecalledStays()
    assert stays.left([], [told], away, someone_home=False, entities=_seen(away, _OPENED)) == []
    shut = {DOOR: "off", FRONT_LOCK: "locked"}
    later = _OPENED + timedelta(minutes=21, seconds=30)
    assert stays.left([], [told], shut, someone_home=True, entities=_seen(shut, later)) == []
    recall = _door_left_open(_OPENED, 21.0)
    assert stays.left([recall], [], shut, someone_home=True) == []
    stored = RecalledStays.from_dict(stays.as_dict())  # after a restart too
    assert stored.left([recall], [], shut, someone_home=True) == []
    third = _door_left_open(_OPENED + timedelta(minutes=28), 21.0)  # as long, a later stay
    assert stored.left([third], [], shut, someone_home=True) == [third]
    going_on = _door_left_open(_OPENED, 25.0)  # the told stay itself, still open: news
    assert stored.left([going_on], [], away, someone_home=True) == [going_on]


def test_the_stay_told_as_the_incident_opens_is_known_though_shut_at_once() -> None:
    """Walk of session 49: told at 03:41:43, the door shut at 03:42:11, before the next
    analysis: only the lock was seen open under the open incident, and the door's own stay
    was remembered by no start."""
    told = _told_away(DOOR, FRONT_LOCK)
    away = {DOOR: "on", FRONT_LOCK: "unlocked"}
    stays = RecalledStays()
    stays.told([told], away, _seen(away, _OPENED))  # the update that opened it
    shut = {DOOR: "off", FRONT_LOCK: "locked"}
    recall = _door_left_open(_OPENED, 16.0)
    assert stays.left([recall], [], shut, someone_home=True) == []


def test_a_stay_stored_by_its_minutes_is_still_recalled_by_them() -> None:
    """Session 48 stored a told stay's minutes: after the upgrade that stay is still known
    (dropped, it was pushed again as "Front door left open"), a later one by its start."""
    stays = RecalledStays.from_dict({DOOR: 21.0})
    shut = {DOOR: "off", FRONT_LOCK: "locked"}
    recall = _door_left_open(_OPENED, 21.0)
    assert stays.left([recall], [], shut, someone_home=True) == []
    other = _door_left_open(_OPENED, 25.0)
    assert stays.left([other], [], shut, someone_home=True) == [other]
    assert RecalledStays.from_dict(stays.as_dict()).as_dict() == {DOOR: [21.0]}
    with pytest.raises(TypeError):
        RecalledStays.from_dict({DOOR: [True]})
