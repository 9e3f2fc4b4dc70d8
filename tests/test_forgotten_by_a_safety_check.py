"""An ended anomaly past its day goes from the screen whichever update forgets it.

An anomaly that ended stays a day on the screen ("Over: ..."), then the tracker forgets
it. A safety check (an urgent finding announced at once) is an update too: when it was the
one to forget, the notification and repair issue stayed on the screen while the tracker
no longer knew them, and the next restart dropped them (blind12, the Šumava farmhouse:
two "open while nobody is home" notices from Monday still shown on Wednesday evening,
gone at the restart: "lost 4"). What a restart shows must be what running showed.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import persistent_notification
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.anomalies.open_anomaly import DETECTOR_CLEAR_AFTER
from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import FRONT_LOCK, LIVING_TEMP, SMOKE, analyze, set_calm_home, setup_monitor

# Three analyses this far apart end a detector's hazard (``DETECTOR_CLEAR_AFTER``).
_STEP = DETECTOR_CLEAR_AFTER / 2 + timedelta(seconds=10)

SMOKE_ATTRS = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}
LEAK = "binary_sensor.bathroom_leak"
LEAK_ATTRS = {"device_class": "moisture", "friendly_name": "Bathroom leak"}


def _shown(hass: HomeAssistant, entry: MockConfigEntry) -> tuple[set[str], set[str]]:
    """The monitor's notifications and active repair issues on screen now."""
    notes = _async_get_or_create_notifications(hass)
    mine = {k for k in notes if k.startswith(f"{DOMAIN}_{entry.entry_id}_")}
    issues = {i for (d, i), e in ir.async_get(hass).issues.items() if d == DOMAIN and e.active}
    return mine, issues


async def test_an_ended_anomaly_forgotten_by_a_safety_check_leaves_the_screen(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    hass.states.async_set(LEAK, "off", LEAK_ATTRS)
    entry = await setup_monitor(hass, include_entities=[SMOKE, FRONT_LOCK, LIVING_TEMP, LEAK])
    hass.states.async_set(SMOKE, "on", SMOKE_ATTRS)
    await analyze(hass, entry)
    hass.states.async_set(SMOKE, "off", SMOKE_ATTRS)
    for _ in range(3):  # past the clear hysteresis: "Over: Smoke ...", kept a day
        freezer.tick(_STEP)
        await analyze(hass, entry)
    await hass.async_block_till_done()
    tracker = entry.runtime_data.coordinator.tracker
    (smoke,) = tracker.ended.values()
    assert _shown(hass, entry) != (set(), set())

    # A day later a leak: the safety check that tells it is the update that forgets smoke.
    freezer.tick(timedelta(days=1, minutes=1))
    hass.states.async_set(LEAK, "on", LEAK_ATTRS)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert tracker.ended == {}
    (leak,) = tracker.open.values()
    notes, issues = _shown(hass, entry)
    assert not any(smoke.key in shown for shown in (*notes, *issues))  # before: still shown
    assert all(leak.key in shown for shown in (*notes, *issues))

    # A restart shows what running showed: nothing the homeowner saw is lost.
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    for note in notes:
        persistent_notification.async_dismiss(hass, note)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert _shown(hass, entry) == (notes, issues)
