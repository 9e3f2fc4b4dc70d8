"""A pump starting again and again in the small hours, in a real hass (issue 24).

A rural house's pressure pump ("Water pump power", a Shelly meter; no id word says pump)
runs a minute or two when a tap opens: mornings, lunch and evenings, learned over nine
days. A buried line splits at 01:00 and the pump starts every nine minutes all night with
everybody asleep: on main nothing was told (each run is short and draws its usual load).
Now the third start in the small hours, at an hour it never ran on any learned day, is
told. A fridge's compressor that cycles day and night is not.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo

from .helpers import ALICE, SMOKE, analyze, set_calm_home, setup_monitor_learned

PUMP = "sensor.shellyplus1pm_08b61f_switch_0_power"
FRIDGE = "sensor.plug_7_power"
ATTRS = {"device_class": "power", "unit_of_measurement": "W"}
NIGHT = datetime(2026, 4, 8, 1, 0)  # local (Pacific/Auckland), a Wednesday
USES = ((6, 20), (12, 35), (18, 40), (21, 5))  # when the taps run (local)


def _nine_days(now: datetime) -> dict[str, Any]:
    """The pump running 90 s at each use, the fridge 15 min every 45 min, day and night."""
    baselines = HomeBaselines(dt_util.get_default_time_zone())
    baselines.describe(
        [
            EntityInfo(PUMP, "Water pump power", device_class="power", unit="W"),
            EntityInfo(FRIDGE, "Plug 7 power", device_class="power", unit="W"),
        ]
    )
    start = now - timedelta(days=9)
    baselines.watching([PUMP, FRIDGE, SMOKE, ALICE], start)
    baselines.observe(start, PUMP, "2.1")
    baselines.observe(start, FRIDGE, "1.0")
    events: list[tuple[datetime, str, str]] = []
    day0 = start.replace(hour=0, minute=0)
    for day in range(10):
        for hour, minute in USES:
            on = day0 + timedelta(days=day, hours=hour, minutes=minute)
            events += [(on, PUMP, "880.0"), (on + timedelta(seconds=90), PUMP, "2.2")]
        for slot in range(0, 24 * 60, 45):
            on = day0 + timedelta(days=day, minutes=slot)
            events += [(on, FRIDGE, "95.0"), (on + timedelta(minutes=15), FRIDGE, "1.0")]
    for when, entity_id, state in sorted(events):
        if start < when < now - timedelta(minutes=5):
            baselines.observe(when, entity_id, state)
    baselines.advance(now - timedelta(minutes=5))
    return baselines.as_dict()


async def test_a_pump_starting_all_night_at_hours_it_never_runs_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await hass.config.async_set_time_zone("Pacific/Auckland")
    zone = dt_util.get_default_time_zone()
    night = NIGHT.replace(tzinfo=zone)
    freezer.move_to(night - timedelta(minutes=1))
    set_calm_home(hass)
    hass.states.async_set(PUMP, "2.1", ATTRS)
    hass.states.async_set(FRIDGE, "1.0", ATTRS)
    entry = await setup_monitor_learned(
        hass, _nine_days(night), include_entities=[SMOKE, PUMP, FRIDGE, ALICE]
    )
    found: dict[int, set[str]] = {}
    for run in range(4):  # every nine minutes from 01:00; the fridge as usual
        on = night + timedelta(minutes=9 * run)
        freezer.move_to(on)
        hass.states.async_set(PUMP, "875.0", ATTRS)
        hass.states.async_set(FRIDGE, "95.0" if run % 2 else "1.0", ATTRS)
        await hass.async_block_till_done()
        freezer.move_to(on + timedelta(seconds=85))
        hass.states.async_set(PUMP, "2.2", ATTRS)
        await hass.async_block_till_done()
        freezer.move_to(on + timedelta(minutes=2))
        response = await analyze(hass, entry)
        found[run] = {f["rule"]: f for f in response["verdict"]["findings"]}  # type: ignore[assignment]
    assert "appliance_cycling_at_night" not in found[1]  # two starts: a glass of water
    finding: Any = found[2]["appliance_cycling_at_night"]  # type: ignore[index]
    assert finding["evidence"] == [PUMP]
    assert "ran 3 times since 01:00" in finding["reasoning"]
    assert "never ran at this hour" in finding["reasoning"]
    assert all(
        f["evidence"] != [FRIDGE]
        for run in found.values()
        for f in run.values()  # type: ignore[attr-defined]
        if f["rule"] == "appliance_cycling_at_night"
    )
