"""Motion told while nobody was home, ended by an arrival, is not told again when the
household leaves again (walk of session 19).

The statistic counts motion onsets in every away spell of its two-hour window: the
motion of the first spell, told (and acknowledged) then, ended when Alice came home; when
she left again 12 min later, the same old motion opened a new incident and pushed 6 s
after she left. Motion that starts in the new spell is news and told.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_mock_service

from custom_components.anomaly_monitor.const import CONF_NOTIFY

from .helpers import (
    ALICE,
    SMOKE,
    analyze,
    pass_time,
    put_in_area,
    set_calm_home,
    setup_monitor_learned,
)
from .learned_home import learned_home

MOTION = "binary_sensor.hall_motion"
MOTION_ATTRS = {"device_class": "motion", "friendly_name": "Hall motion"}
MORNING = datetime(2026, 3, 10, 18, 0, tzinfo=dt_util.UTC)


def _away(pushes: list[ServiceCall]) -> list[str]:
    """What the phone heard about the empty home (a learned home with so little history
    also asks after a fall while Alice sits still: not this test's business)."""
    return [c.data["title"] for c in pushes if "nobody is home" in c.data["title"]]


async def _minutes(hass: HomeAssistant, freezer: FrozenDateTimeFactory, entry, n: int) -> None:
    for _ in range(n):
        await pass_time(hass, freezer, timedelta(minutes=1))
        await analyze(hass, entry)


async def test_motion_of_the_last_away_spell_is_not_told_at_the_next_departure(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    freezer.move_to(MORNING)
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    put_in_area(hass, "Hall", MOTION)
    set_calm_home(hass)
    hass.states.async_set(MOTION, "off", MOTION_ATTRS)
    pushes = async_mock_service(hass, "notify", "phone")
    # Watched for ten days (past the learning gate), Alice at home all along.
    learned = learned_home(
        "US/Pacific",
        {MOTION: {"device_class": "motion"}},
        {MOTION: "Hall"},
        ALICE,
        MORNING - timedelta(days=10),
    )
    learned.advance(MORNING)
    entry = await setup_monitor_learned(
        hass,
        learned.as_dict(),
        include_entities=[SMOKE, MOTION, ALICE],
        **{CONF_NOTIFY: ["notify.phone"]},
    )
    await _minutes(hass, freezer, entry, 10)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await _minutes(hass, freezer, entry, 10)
    hass.states.async_set(MOTION, "on", MOTION_ATTRS)
    await _minutes(hass, freezer, entry, 1)
    hass.states.async_set(MOTION, "off", MOTION_ATTRS)
    await _minutes(hass, freezer, entry, 2)
    told = _away(pushes)
    assert told == ["Activity in Hall while nobody is home"], told
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    await _minutes(hass, freezer, entry, 12)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await _minutes(hass, freezer, entry, 10)
    assert _away(pushes) == told
    # New motion in this spell is news.
    hass.states.async_set(MOTION, "on", MOTION_ATTRS)
    await _minutes(hass, freezer, entry, 2)
    assert len(_away(pushes)) == 2, _away(pushes)
