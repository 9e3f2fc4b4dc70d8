"""Where HomeBench's expected output contradicts the home it is about.

Two checks, reported next to the scores so readers can tell planner errors from label
noise (they never change a score):

- ``out_of_range``: an expected call whose argument lies outside the range the home itself
  declares for that attribute (room heating declared with the water heater's 30–100 °C is
  read as 16–30 °C, as ``home_builder`` does). Uses the dataset only.
- ``refused_listed``: the expected output says ``error_input`` at a position where the
  planner made a call whose ``room.device.method`` the home's own method list contains.
  Uses the planner's alignment, so it is counted only when both lists have equal length.
"""

from __future__ import annotations

from collections.abc import Mapping
import re
from typing import Any

from .appliance_specs import HOT_WATER_FLOOR, ROOM_HEATING_RANGE
from .dataset import HomeBenchHome
from .scoring import calls

_CALL = re.compile(r"^(\w+)\.(\w+)\.(\w+)\((.*)\)$")
_ERROR = "error_input"


def _parts(output: str) -> list[str]:
    text = output.replace("'''", "").replace(" ", "").replace("\n", "")
    return [p for p in text.split(",") if p]


def _attribute(home: HomeBenchHome, room: str, device: str, name: str) -> Mapping[str, Any] | None:
    dev = home.status.get(room, {}).get(device) if isinstance(home.status.get(room), dict) else None
    if not isinstance(dev, Mapping):
        return None
    for key, value in (dev.get("attributes") or {}).items():
        if key.strip() == name and isinstance(value, Mapping):
            return value
    return None


def out_of_range_parts(expected: str, home: HomeBenchHome) -> int:
    """Expected calls whose numeric argument is outside the home's declared range."""
    count = 0
    for part in calls(expected).elements():
        match = _CALL.match(part)
        if match is None or not match.group(3).startswith("set_"):
            continue
        room, device, method, arg = match.groups()
        spec = _attribute(home, room, device, method[4:])
        if spec is None or "lowest" not in spec:
            continue
        try:
            value, low, high = float(arg), float(spec["lowest"]), float(spec["highest"])
        except (TypeError, ValueError):
            continue
        if device == "heating" and low >= HOT_WATER_FLOOR:
            low, high = ROOM_HEATING_RANGE  # read as the replay reads it (home_builder)
        count += not low <= value <= high
    return count


def refused_listed_parts(expected: str, predicted: str, home: HomeBenchHome) -> int:
    """Positions where the gold refuses a call the home's method list contains."""
    gold, pred = _parts(expected), _parts(predicted)
    if len(gold) != len(pred):
        return 0
    listed = {(m["room_name"], m["device_name"], m["operation"]) for m in home.methods}
    count = 0
    for g, p in zip(gold, pred, strict=True):
        match = _CALL.match(p)
        if g == _ERROR and match is not None and match.group(1, 2, 3) in listed:
            count += 1
    return count
