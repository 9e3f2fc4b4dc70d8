"""The supply lost: many meters dropping to nothing at the same moment, not one.

One meter reading 0 W is one appliance that stopped (``cycle_stopped``, the appliance
checks). Several meters of independent circuits that dropped to nothing within the same
minute, and stayed there, share only what feeds them: a tripped breaker or RCD, a
shore-power pedestal, a blown main fuse, the grid (HA itself on a UPS, an inverter or a
battery, still reading). A supply voltage sensor that fell to nothing with them says so
outright. Not the supply: meters whose own switch turned off at that moment (an "all off"
scene), which is somebody's choice.

HA's vocabulary only: ``sensor`` entities of device class ``power`` (in any power unit)
and ``voltage``; the switch of a meter is its own (``device_roles.own_meter``).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..device_roles import own_meter
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import HOME_SUBJECT, AnomalyType, EntityState, Finding, Severity, parse_number
from ..power_units import watts

# Drops within this long of each other are one moment.
TOGETHER = timedelta(seconds=60)
# Meters that must drop together: two may share one power strip or one scene.
MIN_METERS = 3
# A meter drawing more than this (W) was powered; at or under ``NOTHING`` it has nothing.
POWERED = 1.0
NOTHING = 0.5
# A voltage this share of what it read before has nothing behind it.
VOLTS_GONE = 0.2
# Still nothing this long after the drop: not a blink of the lights.
HOLD = timedelta(minutes=5)

SUPPLY_LOST = FindingKind("supply_lost", AnomalyType.ENERGY, Severity.HIGH)


def _gone(sensor: EntityState, reading: float, before: float) -> bool:
    """Whether ``reading`` is nothing after ``before`` (a voltage: a small share of it)."""
    if sensor.info.device_class == "voltage":
        return before > 0 and reading <= VOLTS_GONE * before
    return before > POWERED and reading <= NOTHING


def dropped_at(home: HomeView, sensor: EntityState) -> datetime | None:
    """When the sensor fell to nothing from a powered reading, if it reads nothing since."""
    voltage = sensor.info.device_class == "voltage"
    before: float | None = None
    dropped: datetime | None = None
    for transition in home.history.get(sensor.entity_id, []):
        value = parse_number(transition.state)
        reading = value if voltage or value is None else watts(value, sensor.info.unit)
        if reading is None:
            continue
        if before is not None and _gone(sensor, reading, before):
            dropped = dropped or transition.when
        else:
            before, dropped = reading, None
    return dropped if sensor.number is not None else None


def _switched_off(home: HomeView, meter: EntityState, at: datetime) -> bool:
    """A switch of the meter's device turned off around ``at`` (somebody's choice)."""
    for switch in home.of("switch"):
        if not own_meter(home, switch, meter):
            continue
        for transition in home.history.get(switch.entity_id, []):
            if transition.state == "off" and abs(transition.when - at) <= TOGETHER:
                return True
    return False


def supply_lost(home: HomeView) -> Iterator[Finding]:
    """``MIN_METERS`` power meters (a supply voltage counts for two) fell to nothing within
    ``TOGETHER`` and still read nothing ``HOLD`` later.

    No magnitude: the supply is there or not.
    """
    now = home.end
    drops: list[tuple[datetime, EntityState]] = []
    for sensor in [*home.of("sensor", "voltage"), *home.of("sensor", "power")]:
        at = dropped_at(home, sensor)
        if at is None or now - at < HOLD:
            continue
        if sensor.info.device_class == "power" and _switched_off(home, sensor, at):
            continue
        drops.append((at, sensor))
    drops.sort(key=lambda pair: pair[0])
    for index, (first, _) in enumerate(drops):
        group = [s for at, s in drops[index:] if at - first <= TOGETHER]
        weight = sum(2 if s.info.device_class == "voltage" else 1 for s in group)
        if weight < MIN_METERS:
            continue
        group.sort(key=lambda s: s.info.device_class != "voltage")  # the supply's own first
        names = ", ".join(s.info.name or s.entity_id for s in group)
        at = first.astimezone(home.env.zone) if home.env.zone is not None else first
        yield SUPPLY_LOST.finding(
            evidence=tuple(s.entity_id for s in group),
            subject=HOME_SUBJECT,
            reasoning=f"{names} all fell to nothing at {at:%H:%M} and still read nothing: "
            "what feeds them all has gone (a tripped breaker or RCD, a blown fuse, the "
            "grid or a shore-power supply).",
            recommendation="Check the breakers and the supply; a fridge or freezer without "
            "power warms within hours.",
        )
        return
