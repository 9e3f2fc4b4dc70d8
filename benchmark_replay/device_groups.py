"""Give a direct window the device links an HA integration would create (a measurement knob).

In a real home a smart plug's switch and its power sensor, a smoke detector and its ppm
level, are entities of one device in HA's device registry; the monitor reads that link
(``EntityInfo.device``). SmartBench names one device per entry, and neither replay
registers devices, so by default no window has a link. :func:`with_devices` adds them
the way an integration groups its entities, from the benchmark's own names (this is the
replay's translation of the dataset, like its device-class table, never the
detector's): in one area, a ``sensor`` whose object id is another entity's plus
``_power`` measures it (``tv`` standing for ``television``), and a ``sensor`` named
``<x>_level`` belongs to the binary sensor named ``<x>_…``. Device ids are opaque
(``device-1``). Direct mode only (``eval_direct.py --devices``): used with ``--ids
neutral`` it shows what the device link recovers of what the id words carried.
"""

from __future__ import annotations

from dataclasses import replace

from custom_components.anomaly_monitor.core.compression import DEFAULT_TOKEN_BUDGET
from custom_components.anomaly_monitor.core.models import ContextWindow, EntityState
from custom_components.anomaly_monitor.core.window import build_window

# One word for one thing, as an integration's device would be named once.
_SYNONYMS = {"tv": "television"}
_OWNER_DOMAINS = frozenset({"switch", "media_player", "binary_sensor"})


def _words(state: EntityState) -> list[str]:
    return [_SYNONYMS.get(w, w) for w in state.entity_id.partition(".")[2].split("_")]


def device_groups(snapshot: tuple[EntityState, ...]) -> dict[str, str]:
    """Entity id → opaque device id, for each measured entity and its meter or level."""
    owners = [s for s in snapshot if s.domain in _OWNER_DOMAINS]
    devices: dict[str, str] = {}
    for sensor in snapshot:
        words = _words(sensor)
        if sensor.domain != "sensor" or len(words) < 2 or words[-1] not in ("power", "level"):
            continue
        body = words[:-1]
        for owner in owners:
            if owner.info.area != sensor.info.area:
                continue
            named = _words(owner)
            level = words[-1] == "level" and owner.domain == "binary_sensor"
            if named == body or (level and named[: len(body)] == body and len(named) > len(body)):
                device = devices.setdefault(owner.entity_id, f"device-{len(devices) + 1}")
                devices[sensor.entity_id] = device
                break
    return devices


def with_devices(
    window: ContextWindow, token_budget: int = DEFAULT_TOKEN_BUDGET
) -> tuple[ContextWindow, dict[str, str]]:
    """``window`` whose snapshot carries the device links (and the links themselves)."""
    devices = device_groups(window.snapshot)
    snapshot = [
        replace(s, info=replace(s.info, device=devices.get(s.entity_id))) for s in window.snapshot
    ]
    linked = build_window(
        snapshot,
        window.environment,
        list(window.transitions),
        profile=window.profile,
        start=window.start,
        token_budget=token_budget,
        phoneless_residents=window.phoneless_residents,
    )
    return linked, devices
