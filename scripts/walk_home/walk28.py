"""``devices_walk.py`` with session 27's new notices to walk (walk28).

A bed-exit pad under Nan's mattress (a binary sensor with no device class) that goes on
for a few seconds four times a night; a chest freezer in the cellar cycling 20 min in 45
day and night on a smart plug (a switch of the same area), switched off once for a
quarter of an hour a week ago and, today, switched off 80 min before the seed ends
(``WALK_PLUG_INITIAL=false`` starts HA with it still off); a well pump running 20 min at
~760 W at 06:00 and 18:00 beside a rain tank level that drifts between 60 and 90 %.

    python scripts/walk_home/walk28.py prepare DIR   # devices_walk's, plus these
    python scripts/walk_home/walk28.py adddev DIR    # after onboard: devices and areas
    python scripts/walk_home/walk28.py VERB DIR ...  # any other verb of walk.py
"""

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
import sys

import devices_walk as dw
import seed_history as sh
import walk

EXTRA_BOOLEANS = """
  bed_pad: {name: Bed pad raw, initial: false}
  chest_freezer_plug: {name: Chest freezer plug raw, initial: !env_var WALK_PLUG_INITIAL true}
"""
EXTRA_NUMBERS = """
  chest_freezer_power: {name: Chest freezer raw, min: 0, max: 3000, step: 0.1, initial: 0}
  well_pump: {name: Well pump raw, min: 0, max: 3000, step: 0.1, initial: 0}
  tank_level: {name: Tank raw, min: 0, max: 100, step: 1, initial: 72}
"""
W = "device_class: power\n        unit_of_measurement: W\n        state_class: measurement"
TEMPLATES = f"""
  - sensor:
      - name: Chest freezer power
        unique_id: walk28_chest_freezer
        {W}
        state: "{{{{ states('input_number.chest_freezer_power') }}}}"
      - name: Well pump power
        unique_id: walk28_well_pump
        {W}
        state: "{{{{ states('input_number.well_pump') }}}}"
      - name: Rain tank level
        unique_id: walk28_tank_level
        unit_of_measurement: "%"
        state_class: measurement
        state: "{{{{ states('input_number.tank_level') }}}}"
  - binary_sensor:
      - name: Bed exit pad
        unique_id: walk28_bed_pad
        state: "{{{{ is_state('input_boolean.bed_pad', 'on') }}}}"
  - switch:
      - name: Chest freezer plug
        unique_id: walk28_freezer_plug
        state: "{{{{ is_state('input_boolean.chest_freezer_plug', 'on') }}}}"
        turn_on:
          - action: input_boolean.turn_on
            target: {{entity_id: input_boolean.chest_freezer_plug}}
        turn_off:
          - action: input_boolean.turn_off
            target: {{entity_id: input_boolean.chest_freezer_plug}}
"""
AREAS = {
    "Nan's room": ["binary_sensor.bed_exit_pad"],
    "Cellar": ["switch.chest_freezer_plug", "sensor.chest_freezer_power"],
    "Utility": ["sensor.well_pump_power", "sensor.rain_tank_level"],
}
POWER = {"device_class": "power", "unit_of_measurement": "W", "state_class": "measurement"}
sh.ATTRIBUTES.update(
    {
        "binary_sensor.bed_exit_pad": {"friendly_name": "Bed exit pad"},
        "switch.chest_freezer_plug": {"friendly_name": "Chest freezer plug"},
        "sensor.chest_freezer_power": POWER | {"friendly_name": "Chest freezer power"},
        "sensor.well_pump_power": POWER | {"friendly_name": "Well pump power"},
        "sensor.rain_tank_level": {
            "unit_of_measurement": "%",
            "state_class": "measurement",
            "friendly_name": "Rain tank level",
        },
    }
)
_day = sh._day  # devices_walk's day
PLUG_OFF_BEFORE = timedelta(minutes=80)  # today: switched off this long before now


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    rows = _day(d, tonight_locked=tonight_locked)
    now = datetime.now(d.tzinfo)

    def at(hour: int, minute: int, second: int = 0) -> datetime:
        return d.replace(hour=hour, minute=minute, second=second)

    pad = "binary_sensor.bed_exit_pad"  # Nan turns over or sits up: seconds each
    rows.append((at(0, 0, 6), pad, "off"))
    for hour, minute, seconds in ((0, 40, 6), (2, 15, 9), (4, 5, 7), (5, 50, 12)):
        rows += [(at(hour, minute), pad, "on"), (at(hour, minute, seconds), pad, "off")]
    plug, freezer = "switch.chest_freezer_plug", "sensor.chest_freezer_power"
    cut = now - PLUG_OFF_BEFORE if d.date() == now.date() else None
    cleaned = at(11, 0) if d.date() == (now - timedelta(days=8)).date() else None
    rows.append((at(0, 0, 6), plug, "on"))
    for start in range(0, 24 * 60, 45):  # 20 min on in every 45, day and night
        on = at(0, 0) + timedelta(minutes=start)
        off = on + timedelta(minutes=20)
        if cut is not None and off > cut:  # running when switched off: cut short there
            if on < cut:
                rows.append((on, freezer, f"{84 + start % 3}.0"))
            break
        if cleaned is not None and cleaned - timedelta(minutes=20) < on < cleaned + timedelta(
            minutes=20
        ):
            continue
        rows += [(on, freezer, f"{84 + start % 3}.0"), (off, freezer, "0.0")]
    for when, length in ((cut, None), (cleaned, timedelta(minutes=15))):
        if when is not None:
            rows += [(when, plug, "off"), (when + timedelta(seconds=2), freezer, "0.0")]
            if length is not None:
                rows.append((when + length, plug, "on"))
    pump, tank = "sensor.well_pump_power", "sensor.rain_tank_level"
    rows.append((at(0, 0, 6), pump, "0.0"))
    for hour in (6, 18):
        for minute in range(0, 20, 5):
            rows.append((at(hour, minute), pump, f"{758 + (minute + hour) % 7}.0"))
        rows.append((at(hour, 20), pump, "0.0"))
    for hour in range(24):
        rows.append((at(hour, 5), tank, f"{60 + (hour * 7 + d.day) % 30}.0"))
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    dw.prepare(cfg)
    text = (cfg / "configuration.yaml").read_text()
    text = text.replace("input_boolean:\n", "input_boolean:" + EXTRA_BOOLEANS, 1)
    text = text.replace("input_number:\n", "input_number:" + EXTRA_NUMBERS, 1)
    text = text.replace("template:\n", "template:" + TEMPLATES, 1)
    (cfg / "configuration.yaml").write_text(text)


async def adddev(cfg: Path) -> None:
    for area, entities in AREAS.items():  # the walk_devices entry, then every area
        dw.AREAS[area] = dw.AREAS.get(area, []) + entities
    await dw.adddev(cfg)


async def tap(cfg: Path) -> None:
    """Log every ``anomaly_monitor_*`` event and repair-issue update to ``DIR/tap.log``
    (runs until stopped: start it in the background and stop it by its PID)."""
    import json

    import aiohttp

    owner = walk._tokens(cfg)["owner"]
    async with aiohttp.ClientSession() as session, walk.Ws(session, owner) as ws:
        await ws._ws.send_json({"id": 1, "type": "subscribe_events"})
        with (cfg / "tap.log").open("a") as log:
            while True:
                msg = await ws._ws.receive_json()
                event = msg.get("event") or {}
                kind = event.get("event_type", "")
                if kind.startswith("anomaly_monitor") or kind == "repairs_issue_registry_updated":
                    line = {"at": event.get("time_fired"), "type": kind, "data": event.get("data")}
                    log.write(json.dumps(line) + "\n")
                    log.flush()


if __name__ == "__main__":
    verb, cfg = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(cfg)
    elif verb == "adddev":
        asyncio.run(adddev(cfg))
    elif verb == "tap":
        asyncio.run(tap(cfg))
    else:
        walk.main(sys.argv[1:])
