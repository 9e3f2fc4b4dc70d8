"""A plug that reports only its current (A) is read as a power meter (W).

Some plugs and clamps report ``device_class: current`` and no power: every check that
expects a power meter (an appliance running while away, the hob left on, a fridge that
stopped cycling, learned ranges and cycles) passed them by (issue 27). Such a meter, with
no power sensor on the same device, is read as power: W = A x the voltage of a voltage
sensor on the same device if there is one, else the mains voltage of the home's unit
system (230 V; 120 V where temperatures read °F, as in the US). A resistive or
compressor load's power factor is near enough to 1 for "running or not" and "far above
its usual draw". HA's vocabulary only: domain, device class, unit, device.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from .models import EntityInfo, EntityState, Transition, parse_number

# The mains voltage a meter's current is multiplied by, without a voltage sensor.
EUROPEAN_MAINS_VOLTS = 230.0
US_MAINS_VOLTS = 120.0
_AMPS_PER_UNIT = {"A": 1.0, "mA": 1e-3}


def mains_volts(temperature_unit: str) -> float:
    """The home's mains voltage by its unit system (°F: US customary)."""
    return US_MAINS_VOLTS if temperature_unit == "°F" else EUROPEAN_MAINS_VOLTS


def _is_current(info: EntityInfo) -> bool:
    return (
        info.domain == "sensor" and info.device_class == "current" and info.unit in _AMPS_PER_UNIT
    )


def current_meters(infos: Iterable[EntityInfo]) -> dict[str, EntityInfo]:
    """The current meters (by entity id) with no power meter on the same device."""
    every = list(infos)
    powered = {i.device for i in every if i.device and i.device_class == "power"}
    return {
        i.entity_id: i
        for i in every
        if _is_current(i) and (not i.device or i.device not in powered)
    }


class CurrentMeters:
    """``current_meters`` of a changing description of the home, worked out again only
    after it changed (its owner says so: ``forget``; the baselines describe entities as
    they first change)."""

    def __init__(self) -> None:
        self._of: dict[str, EntityInfo] | None = None

    def forget(self) -> None:
        """The description changed: work the meters out again when next asked."""
        self._of = None

    def of(self, infos: Mapping[str, EntityInfo], entity_id: str) -> EntityInfo | None:
        """The current meter ``entity_id`` is, if it is one read as power."""
        if self._of is None:
            self._of = current_meters(infos.values())
        return self._of.get(entity_id)


def as_power_info(info: EntityInfo) -> EntityInfo:
    """A current meter described as the power meter it is read as."""
    return replace(info, device_class="power", unit="W")


def watts_text(state: str, unit: str | None, volts: float) -> str:
    """A current reading as watts (a state that is no number stays as it is)."""
    amps = parse_number(state)
    if amps is None:
        return state
    return f"{amps * _AMPS_PER_UNIT.get(unit or 'A', 1.0) * volts:.1f}"


def _volts_of(meter: EntityInfo, snapshot: Sequence[EntityState], default: float) -> float:
    for state in snapshot:
        if (
            meter.device
            and state.info.device == meter.device
            and state.info.device_class == "voltage"
            and state.info.unit == "V"
            and (volts := state.number) is not None
            and volts > 50
        ):
            return volts
    return default


def read_as_power(
    snapshot: Sequence[EntityState], transitions: Sequence[Transition], temperature_unit: str
) -> tuple[list[EntityState], list[Transition]]:
    """The window's snapshot and changes with every current-only meter read as power."""
    meters = current_meters(s.info for s in snapshot)
    if not meters:
        return list(snapshot), list(transitions)
    default = mains_volts(temperature_unit)
    volts = {e: _volts_of(info, snapshot, default) for e, info in meters.items()}
    states = [
        replace(
            s,
            info=as_power_info(s.info),
            state=watts_text(s.state, s.info.unit, volts[s.entity_id]),
        )
        if s.entity_id in meters
        else s
        for s in snapshot
    ]
    changes = [
        t._replace(state=watts_text(t.state, meters[t.entity_id].unit, volts[t.entity_id]))
        if t.entity_id in meters
        else t
        for t in transitions
    ]
    return states, changes
