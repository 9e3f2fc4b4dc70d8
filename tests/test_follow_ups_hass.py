"""What usually follows what, in a real hass with the recorder: a well pump's meter and a
roof tank's level in two areas, paired from the fortnight's history on start, and the
pump that runs without the tank rising told (``usual_effect_missing``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.anomaly_monitor.const import (
    CONF_HISTORY_DAYS,
    CONF_INCLUDE_ENTITIES,
    CONF_USE_EXPOSED,
    DOMAIN,
)

from .helpers import analyze, put_in_area
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
)

# Plain names: nothing in them says pump or tank.
PUMP, TANK = "sensor.sonoff_1_power", "sensor.ultrasonic_2"
PUMP_ATTRS = {"device_class": "power", "unit_of_measurement": "W"}
TANK_ATTRS = {"unit_of_measurement": "%"}


def _rules(response: dict[str, Any]) -> list[str]:
    return [f["rule"] for f in response["verdict"]["findings"]]


async def test_a_pump_whose_tank_does_not_rise_learned_from_the_recorder(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Twelve days in the recorder: twice a day the tank reads 63 %, the pump draws 760 W
    for 17 min and the tank reads 97 % just after. Today at 06:40 the pump hums for two
    minutes and cuts out, the tank reads 71 %: not told at 07:20 (3 x 17 min is 52 min),
    told at 07:45 naming the pump's meter and the tank; the tank filling ends it."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    put_in_area(hass, "Yard", PUMP)
    put_in_area(hass, "Attic", TANK)
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    freezer.move_to(today - timedelta(days=12))
    hass.states.async_set(PUMP, "0.0", PUMP_ATTRS)
    hass.states.async_set(TANK, "90", TANK_ATTRS)
    for day in range(12, 0, -1):
        for hours in (6 + 40 / 60, 14.5):
            start = today - timedelta(days=day) + timedelta(hours=hours)
            for seconds, entity_id, state in (
                (-6, TANK, "63"),
                (0, PUMP, "760.0"),
                (1020, PUMP, "0.0"),
                (1032, TANK, "97"),
            ):
                freezer.move_to(start + timedelta(seconds=seconds))
                hass.states.async_set(
                    entity_id, state, PUMP_ATTRS if entity_id == PUMP else TANK_ATTRS
                )
    start = today + timedelta(hours=6, minutes=40)
    freezer.move_to(start)
    hass.states.async_set(PUMP, "1430.0", PUMP_ATTRS)
    hass.states.async_set(TANK, "71", TANK_ATTRS)
    freezer.move_to(start + timedelta(minutes=2))
    hass.states.async_set(PUMP, "0.0", PUMP_ATTRS)
    await async_wait_recording_done(hass)

    freezer.move_to(start + timedelta(minutes=3))
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options={
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: [PUMP, TANK],
            CONF_HISTORY_DAYS: 14,
        },
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    keeper = entry.runtime_data.baselines
    assert keeper is not None
    pair = keeper.baselines.follow_ups.pairs[(PUMP, TANK)]
    assert (pair.onsets, pair.ups) == (24, 24)

    freezer.move_to(start + timedelta(minutes=40))
    assert "usual_effect_missing" not in _rules(await analyze(hass, entry))
    freezer.move_to(start + timedelta(minutes=65))
    response = await analyze(hass, entry)
    finding = next(
        f for f in response["verdict"]["findings"] if f["rule"] == "usual_effect_missing"
    )
    assert finding["evidence"] == [PUMP, TANK]
    assert "began drawing power at 06:40" in finding["reasoning"]
    assert "has not risen since" in finding["reasoning"]
    assert "71 % now" in finding["reasoning"]
    assert "within 17 min of that (24 of 24 times learned)" in finding["reasoning"]

    # The pump is repaired: it runs and the tank fills; nothing more to tell.
    hass.states.async_set(PUMP, "760.0", PUMP_ATTRS)
    hass.states.async_set(TANK, "95", TANK_ATTRS)
    await hass.async_block_till_done()
    assert "usual_effect_missing" not in _rules(await analyze(hass, entry))
