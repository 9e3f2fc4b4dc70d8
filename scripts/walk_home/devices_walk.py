"""``walk.py`` with devices in HA's registries, as real integrations register them (walk26).

A web service's air-raid alert (a device of ``entry_type: service``, class ``safety``), a
boiler whose ``problem`` sensor flags and clears twice a day, a septic pump alarm and a stove
guard never on before, a two-channel relay (Shelly Pro 2PM-like: two switches, a power meter
per channel, one registry device). Each entity mirrors an input helper (``walk_devices``, a
small custom integration copied into the config), so a walk drives it over REST.

    python scripts/walk_home/devices_walk.py prepare DIR   # walk.py's, plus the devices
    python scripts/walk_home/devices_walk.py adddev DIR    # after onboard: the devices, areas
    python scripts/walk_home/devices_walk.py VERB DIR ...  # any other verb of walk.py

``seed`` writes their routine too (the boiler's and the alert's spells, both channels on
08:00-22:00).
"""

import asyncio
from datetime import datetime
from pathlib import Path
import shutil
import sys

import aiohttp
import seed_history as sh
import walk

EXTRA_YAML = """
  air_raid: {name: Air raid raw}
  boiler_problem: {name: Boiler problem raw}
  septic_alarm: {name: Septic alarm raw}
  stove_guard: {name: Stove guard raw}
  relay_0: {name: Relay 0 raw}
  relay_1: {name: Relay 1 raw}
"""
EXTRA_NUMBERS = """
  relay_0_power: {name: Relay 0 power raw, min: 0, max: 3000, step: 0.1}
  relay_1_power: {name: Relay 1 power raw, min: 0, max: 3000, step: 0.1}
"""
AREAS = {
    "Utility": ["binary_sensor.boiler_problem", "binary_sensor.septic_pump_alarm"],
    "Kitchen": ["binary_sensor.stove_guard_safety"],
    "Reptile room": [
        "switch.reptile_relay_switch_0",
        "switch.reptile_relay_switch_1",
        "sensor.reptile_relay_switch_0_power",
        "sensor.reptile_relay_switch_1_power",
    ],
}
W = {"device_class": "power", "unit_of_measurement": "W", "state_class": "measurement"}
sh.ATTRIBUTES.update(
    {
        "binary_sensor.kyiv_region_air_raid_alert": {
            "device_class": "safety",
            "friendly_name": "Kyiv region Air raid alert",
        },
        "binary_sensor.boiler_problem": {
            "device_class": "problem",
            "friendly_name": "Boiler Problem",
        },
        "binary_sensor.septic_pump_alarm": {
            "device_class": "problem",
            "friendly_name": "Septic pump Alarm",
        },
        "binary_sensor.stove_guard_safety": {
            "device_class": "safety",
            "friendly_name": "Stove guard Safety",
        },
        "switch.reptile_relay_switch_0": {"friendly_name": "Reptile relay Switch 0"},
        "switch.reptile_relay_switch_1": {"friendly_name": "Reptile relay Switch 1"},
        "sensor.reptile_relay_switch_0_power": W
        | {"friendly_name": "Reptile relay Switch 0 power"},
        "sensor.reptile_relay_switch_1_power": W
        | {"friendly_name": "Reptile relay Switch 1 power"},
    }
)
_day = sh._day


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    rows = _day(d, tonight_locked=tonight_locked)

    def at(hour: int, minute: int, second: int = 0) -> datetime:
        return d.replace(hour=hour, minute=minute, second=second)

    for e in ("binary_sensor.septic_pump_alarm", "binary_sensor.stove_guard_safety"):
        rows.append((at(0, 0, 2), e, "off"))
    for (h, m), length in (((6, 10), 15), ((18, 40), 10)):  # the boiler flags and clears
        rows += [
            (at(h, m), "binary_sensor.boiler_problem", "on"),
            (at(h, m + length), "binary_sensor.boiler_problem", "off"),
        ]
    for (h, m), length in (((3, 0), 40), ((14, 0), 30)):  # wartime: alerts come and go
        rows += [
            (at(h, m), "binary_sensor.kyiv_region_air_raid_alert", "on"),
            (at(h, m + length), "binary_sensor.kyiv_region_air_raid_alert", "off"),
        ]
    for ch, watts in ((0, 60), (1, 25)):  # basking lamps and UV, 08:00-22:00
        sw, meter = f"switch.reptile_relay_switch_{ch}", f"sensor.reptile_relay_switch_{ch}_power"
        rows += [
            (at(0, 0, 3), sw, "off"),
            (at(0, 0, 3), meter, "0.0"),
            (at(8, 0), sw, "on"),
            (at(8, 0, 2), meter, f"{watts}.0"),
            (at(22, 0), sw, "off"),
            (at(22, 0, 2), meter, "0.0"),
        ]
        for hour in range(9, 22, 2):
            rows.append((at(hour, 30), meter, f"{watts + hour % 3 - 1}.0"))
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    walk.prepare(cfg)
    text = (cfg / "configuration.yaml").read_text()
    text = text.replace("input_boolean:\n", "input_boolean:" + EXTRA_YAML, 1)
    text = text.replace("input_number:\n", "input_number:" + EXTRA_NUMBERS, 1)
    (cfg / "configuration.yaml").write_text(text)
    target = cfg / "custom_components" / "walk_devices"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(
        Path(__file__).parent / "walk_devices", target, ignore=shutil.ignore_patterns("__pycache__")
    )


async def adddev(cfg: Path) -> None:
    owner = walk._tokens(cfg)["owner"]
    headers = {"Authorization": f"Bearer {owner}"}
    async with (
        aiohttp.ClientSession(headers=headers) as s,
        s.post(
            f"{walk.BASE}/api/config/config_entries/flow", json={"handler": "walk_devices"}
        ) as r,
    ):
        print("walk_devices", r.status, (await r.text())[:300])
    await asyncio.sleep(2)
    async with aiohttp.ClientSession() as session, walk.Ws(session, owner) as ws:
        known = {
            a["name"]: a["area_id"] for a in await ws.call({"type": "config/area_registry/list"})
        }
        for area, entities in AREAS.items():
            if area not in known:
                known[area] = (
                    await ws.call({"type": "config/area_registry/create", "name": area})
                )["area_id"]
            for e in entities:
                print(
                    e,
                    (
                        await ws.call(
                            {
                                "type": "config/entity_registry/update",
                                "entity_id": e,
                                "area_id": known[area],
                            }
                        )
                    )
                    .get("entity_entry", {})
                    .get("area_id"),
                )


if __name__ == "__main__":
    verb, cfg = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(cfg)
    elif verb == "adddev":
        asyncio.run(adddev(cfg))
    else:
        walk.main(sys.argv[1:])
