"""Which power meter is a home battery's supply input, learned from what the two show.

An EcoFlow, a Victron shunt, a Powerwall or an inverter's battery reports its charge as a
``sensor`` of device class ``battery`` in %, and its integration a power meter of the
mains it charges from (an EcoFlow's "AC In Power"). Nothing in HA's vocabulary says that
meter is the supply: it is known by what it shows. Its battery's charge *falls* only while
the meter reads nothing (the home runs on the battery) and *rises* while it draws (the
supply charges it); a door sensor's coin cell never rises, a freezer's meter beside the
battery reads nothing and draws whether the battery falls or not.

For each battery % sensor, each power meter of its registry device (or, where either has
none, of its area) is scored at every change of its charge: a fall while the meter reads
at most ``GONE_WATTS``, a fall while it draws, a rise while it draws, a rise while it reads
nothing. The meter is the battery's input once ``MIN_FALLS`` falls came with it reading
nothing, at most ``ASTRAY`` of its falls came with it drawing, and the battery rose while
it drew and (but for ``ASTRAY``) never while it read nothing: a solar-charged bank beside
an EV charger that reads nothing most of the day is charged by the sun, not the charger
(set 5 d). From then on its spells at nothing are the supply's outages (``SupplyOutages``, as a
grid-status sensor's are: ``supply_off``).

The lowest charge each battery came back from (the bottom of a discharge, read when it
rises again) is kept too: a discharge past anything this home's outages ever took it to
is the home running out (``supply_off``).

Bounded (``MAX_BATTERIES``, ``MAX_PAIRS``); stored as plain numbers, a malformed part is
dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..models import EntityInfo, parse_number
from .power import IDLE, watts
from .stored_values import is_stored_number, stored_entity_id

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

MAX_BATTERIES = 10
MAX_PAIRS = 40
# A supply input reading at most this many watts brings nothing in.
GONE_WATTS = 2.0
# Falls with the input reading nothing before it is known as the battery's input.
MIN_FALLS = 3
# At most this share of the battery's falls may come while the meter draws (a fall of a
# point as the house's load outgrows the input for a moment).
ASTRAY = 0.1


class HomeBatteries:
    """Each home battery's charge, its supply input, and the lowest it came back from."""

    def __init__(self) -> None:
        self.charge: dict[str, float] = {}  # battery -> last charge (%)
        # (battery, meter) -> [falls at nothing, falls while drawing, rises while drawing,
        # rises at nothing]
        self.pairs: dict[tuple[str, str], list[int]] = {}
        self.lowest: dict[str, float] = {}  # battery -> lowest charge it came back from
        self._falling: dict[str, float] = {}  # battery -> the bottom of the fall under way
        self.carrying: dict[str, float] = {}  # battery -> its charge when its input went

    def reading(self, battery: str, charge: float, meters: Mapping[str, float | None]) -> None:
        """``battery`` reads ``charge`` %; ``meters``: each power meter beside it and what it
        reads now in watts (None: unreadable)."""
        before = self.charge.get(battery)
        if before is None and len(self.charge) >= MAX_BATTERIES:
            return
        self.charge[battery] = charge
        if before is None or charge == before:
            return
        fell = charge < before
        if fell:
            self._falling[battery] = min(self._falling.get(battery, before), charge)
        elif (bottom := self._falling.pop(battery, None)) is not None:
            self.lowest[battery] = min(self.lowest.get(battery, bottom), bottom)
        for meter, drawn in meters.items():
            if drawn is None:
                continue
            pair = self.pairs.get((battery, meter))
            if pair is None:
                if len(self.pairs) >= MAX_PAIRS:
                    continue
                pair = self.pairs[(battery, meter)] = [0, 0, 0, 0]
            drawing = drawn > GONE_WATTS
            if fell:
                pair[1 if drawing else 0] += 1
            else:
                pair[2 if drawing else 3] += 1

    def input_of(self, battery: str) -> str | None:
        """The power meter known as ``battery``'s supply input (see the module)."""
        found = [meter for (b, meter), pair in self.pairs.items() if b == battery and _input(pair)]
        return found[0] if len(found) == 1 else None

    def battery_of(self, meter: str) -> str | None:
        """The battery whose supply input ``meter`` is known to be."""
        for battery, known in self.pairs:
            if known == meter and self.input_of(battery) == meter:
                return battery
        return None

    def input_read(self, meter: str, drawing: bool) -> None:
        """``meter`` (a known input) read: going to nothing, its battery's charge then is
        what the home starts its outage with."""
        battery = self.battery_of(meter)
        if battery is None:
            return
        if drawing:
            self.carrying.pop(battery, None)
        elif battery not in self.carrying and (charge := self.charge.get(battery)) is not None:
            self.carrying[battery] = charge

    def is_input(self, meter: str) -> bool:
        """Whether ``meter`` is a home battery's supply input."""
        return self.battery_of(meter) is not None

    def as_dict(self) -> dict[str, Any]:
        """Plain, storable form."""
        return {
            "charge": dict(self.charge),
            "pairs": [[b, m, *pair] for (b, m), pair in self.pairs.items()],
            "lowest": dict(self.lowest),
            "falling": dict(self._falling),
            "carrying": dict(self.carrying),
        }

    @classmethod
    def from_dict(cls, data: object) -> HomeBatteries:
        """Read back a stored form; a malformed part is dropped."""
        batteries = cls()
        if not isinstance(data, Mapping):
            return batteries
        batteries.charge = _charges(data.get("charge"), MAX_BATTERIES)
        batteries.lowest = _charges(data.get("lowest"), MAX_BATTERIES)
        batteries._falling = _charges(data.get("falling"), MAX_BATTERIES)
        batteries.carrying = _charges(data.get("carrying"), MAX_BATTERIES)
        pairs = data.get("pairs")
        for item in pairs[:MAX_PAIRS] if isinstance(pairs, list) else []:
            if not isinstance(item, list) or len(item) != 6:
                continue
            battery, meter, *counts = item
            if not (stored_entity_id(battery) and stored_entity_id(meter)):
                continue
            if all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts):
                batteries.pairs[(battery, meter)] = counts
        return batteries


def _input(pair: list[int]) -> bool:
    at_nothing, drawing, rises, rises_alone = pair
    falls = at_nothing + drawing
    return (
        at_nothing >= MIN_FALLS
        and drawing <= ASTRAY * falls
        and rises >= 1
        and rises_alone <= ASTRAY * (rises + rises_alone)
    )


def _charges(data: object, most: int) -> dict[str, float]:
    if not isinstance(data, Mapping):
        return {}
    return {
        entity: float(value)
        for entity, value in list(data.items())[:most]
        if stored_entity_id(entity) and is_stored_number(value) and 0 <= value <= 100
    }


def battery_reading(
    baselines: HomeBaselines, info: EntityInfo, charge: float, when: datetime
) -> None:
    """A ``battery`` sensor read ``charge``: scored against the power meters beside it
    (its registry device's, or its area's where either has none); a meter that has just
    become its supply input starts its spell at nothing from when it last went idle."""
    if info.unit != "%" or not 0 <= charge <= 100:
        return
    batteries = baselines.batteries
    meters: dict[str, float | None] = {}
    for other in baselines.infos.values():
        if other.device_class != "power" or other.domain != "sensor" or not _beside(info, other):
            continue
        number = parse_number(baselines.state_of(other.entity_id) or "")
        meters[other.entity_id] = None if number is None else watts(number, other.unit)
    known = batteries.input_of(info.entity_id)
    batteries.reading(info.entity_id, charge, meters)
    meter = batteries.input_of(info.entity_id)
    if meter is None or meter == known:
        return
    spell = baselines.durations.current.get(meter)
    since = spell[1] if spell is not None and spell[0] == IDLE else when
    baselines.supply_reading(meter, 1.0, since)  # known from here on, supplied until
    if (meters.get(meter) or 0.0) <= GONE_WATTS:
        baselines.supply_reading(meter, 0.0, since)  # the spell at nothing under way
        batteries.input_read(meter, drawing=False)


def _beside(battery: EntityInfo, meter: EntityInfo) -> bool:
    if battery.device is not None and meter.device is not None:
        return battery.device == meter.device
    return battery.area is not None and battery.area == meter.area
