"""Occupancy with evidence: unknown persons are never away; arrivals are judged at once."""

from __future__ import annotations

from dataclasses import replace as replace_env
from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from custom_components.anomaly_monitor.const import CONF_EXCLUDE_ENTITIES, CONF_INCLUDE_ENTITIES
from custom_components.anomaly_monitor.core.occupancy import (
    Occupancy,
    count_presence,
    occupancy_of,
    presence_of,
)
from custom_components.anomaly_monitor.core.rules.occupancy import motion_while_away
from custom_components.anomaly_monitor.core.statistics.occupancy import activity_while_away

from .core_factories import NOON, entity, environment, home, steps
from .helpers import ALICE, FRONT_LOCK, SMOKE, analyze, set_calm_home, setup_monitor

BOB = "person.bob"
HALL_MOTION = "binary_sensor.hall_motion"


def test_presence_is_three_valued() -> None:
    """Home, away (not_home or any other zone), or unknown: never a guess."""
    assert presence_of("home") is True
    assert presence_of("not_home") is False
    assert presence_of("Work") is False  # a zone's name: known to be elsewhere
    assert presence_of("unknown") is None
    assert presence_of("unavailable") is None
    assert occupancy_of(["not_home", "unknown"]) is Occupancy.UNKNOWN
    assert occupancy_of(["not_home", "Work"]) is Occupancy.EMPTY
    assert occupancy_of(["unknown", "home"]) is Occupancy.OCCUPIED
    assert occupancy_of([]) is Occupancy.UNKNOWN
    assert count_presence(["home", "unknown", "not_home"]) == (1, 1, 3)


def test_unknown_person_is_no_evidence_that_nobody_is_home() -> None:
    """Zero of two home, one of them unknown: motion in the hall is not 'while away'."""
    motion = entity(HALL_MOTION, "on", area="Hall", device_class="motion")
    unknown = replace_env(environment(persons_home=0), persons_unknown=1)
    view = home([motion], unknown)
    assert view.occupancy is Occupancy.UNKNOWN
    assert not view.nobody_home
    assert not list(motion_while_away(view))
    away = home([motion], environment(persons_home=0))
    assert away.occupancy is Occupancy.EMPTY
    (finding,) = motion_while_away(away)
    assert finding.evidence[0] == HALL_MOTION


def test_trackers_without_persons_need_every_one_known_away() -> None:
    """No person entities: the watched trackers decide, and unknown is not away."""
    motion = entity(HALL_MOTION, "on", area="Hall", device_class="motion")
    phone = entity("device_tracker.phone", "not_home")
    tablet = entity("device_tracker.tablet", "unavailable")
    env = environment(persons_home=None)
    assert not home([motion, phone, tablet], env).nobody_home
    assert home([motion, phone], env).nobody_home


def test_tracker_going_unknown_ends_an_away_period() -> None:
    """Statistics over time: motion after the only tracker stopped reporting is not 'away'."""
    phone = entity("device_tracker.phone", "unknown")
    motion = entity(HALL_MOTION, "off", area="Hall", device_class="motion")
    start = NOON - timedelta(hours=1)
    trace = steps(
        start,
        [
            (0, "device_tracker.phone", "not_home"),
            (20, "device_tracker.phone", "unknown"),
            (40, HALL_MOTION, "on"),
            (41, HALL_MOTION, "off"),
        ],
    )
    env = environment(persons_home=None)
    assert not list(activity_while_away(home([phone, motion], env, trace)))
    away_all_along = [t for t in trace if t.state != "unknown"]
    phone_away = entity("device_tracker.phone", "not_home")
    (finding,) = activity_while_away(home([phone_away, motion], env, away_all_along))
    assert HALL_MOTION in finding.evidence


def _set_people(hass: HomeAssistant, alice: str, bob: str) -> None:
    hass.states.async_set(ALICE, alice, {"friendly_name": "Alice"})
    hass.states.async_set(BOB, bob, {"friendly_name": "Bob"})


async def test_unknown_person_and_hall_motion_raise_no_nobody_home_finding(
    hass: HomeAssistant,
) -> None:
    """After a restart Alice's tracker has not reported yet: hall motion is no intruder."""
    set_calm_home(hass)
    hass.states.async_set(HALL_MOTION, "on", {"device_class": "motion", "friendly_name": "Hall"})
    _set_people(hass, "unknown", "not_home")
    entry = await setup_monitor(hass)
    response = await analyze(hass, entry)
    rules = {finding["rule"] for finding in response["verdict"]["findings"]}
    assert "motion_while_away" not in rules
    assert response["verdict"]["label"] == "normal"

    _set_people(hass, "not_home", "not_home")  # now both are known to be out
    response = await analyze(hass, entry)
    rules = {finding["rule"] for finding in response["verdict"]["findings"]}
    assert "motion_while_away" in rules


async def test_arrival_clears_a_while_away_anomaly_within_the_debounce(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The door was left unlocked while everyone was out; Alice comes home and it clears."""
    set_calm_home(hass)
    _set_people(hass, "not_home", "not_home")
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    entry = await setup_monitor(hass)
    coordinator = entry.runtime_data.coordinator
    await analyze(hass, entry)
    assert any(a.rule == "entry_unsecured_while_away" for a in coordinator.tracker.open.values())
    analyses = coordinator.analyses

    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    await hass.async_block_till_done(wait_background_tasks=True)
    assert coordinator.analyses == analyses  # debounced: a burst of arrivals is judged once
    freezer.tick(timedelta(seconds=11))
    async_fire_time_changed(hass)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert coordinator.analyses == analyses + 1
    assert not any(
        a.rule == "entry_unsecured_while_away" for a in coordinator.tracker.open.values()
    )


async def test_presence_change_is_never_judged_with_the_previous_verdict(
    hass: HomeAssistant,
) -> None:
    """Persons not watched at all still change occupancy: the verdict is not reused."""
    set_calm_home(hass)
    _set_people(hass, "not_home", "not_home")
    hass.states.async_set(FRONT_LOCK, "unlocked")
    entry = await setup_monitor(
        hass, **{CONF_INCLUDE_ENTITIES: [SMOKE, FRONT_LOCK], CONF_EXCLUDE_ENTITIES: [ALICE, BOB]}
    )
    first = await analyze(hass, entry)
    assert first["verdict"]["label"] == "anomaly"
    hass.states.async_set(BOB, "home")
    second = await analyze(hass, entry)  # within SAME_WINDOW_FOR of the first
    assert second["verdict"]["label"] == "normal"


async def test_a_person_nobody_can_locate_does_not_hide_an_empty_home(
    hass: HomeAssistant,
) -> None:
    """Onboarding creates a person for the owner with no trackers: ``unknown`` forever.

    It says nothing either way, so it must not make "nobody home" impossible to know; a
    person with trackers that are not reporting yet still does.
    """
    set_calm_home(hass)
    _set_people(hass, "not_home", "not_home")
    hass.states.async_set("person.owner", "unknown", {"device_trackers": [], "user_id": "u1"})
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    entry = await setup_monitor(hass)
    rules = {f["rule"] for f in (await analyze(hass, entry))["verdict"]["findings"]}
    assert "entry_unsecured_while_away" in rules

    hass.states.async_set(
        "person.owner", "unknown", {"device_trackers": ["device_tracker.owner_phone"]}
    )
    rules = {f["rule"] for f in (await analyze(hass, entry))["verdict"]["findings"]}
    assert "entry_unsecured_while_away" not in rules
