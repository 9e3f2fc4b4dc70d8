"""A supply-status sensor off far longer than this home's supply is ever off.

A home battery's gateway (a Powerwall's grid status), a UPS, a generator changeover or a
shore-power pedestal report the supply as a ``binary_sensor`` of device class ``power``:
on, power is there; off, it has gone. Nothing judged one: ``supply_lost`` reads meters
falling to nothing, which a home on its battery never shows (set 14, Upwey: the grid off
for eight hours in a storm, the Powerwall run down to its reserve, never told).

Each such sensor's spells off are learned like a supply voltage's (``SupplyOutages``: the
day and length of every spell that ended with the supply back). Told when the sensor has
been off for longer than ``MIN_OFF`` and longer than this home's usual outages allow: a
supply seldom off learned none, so every outage past ``MIN_OFF`` is news; a grid that
goes every evening (load-shedding, a generator's changeover) is told only past ``FACTOR``
times its longest spell (and ``SLACK`` more). A spell under way is measured from its start
(``down_since``, or the window's own transitions; a restart of HA inside it does not
restart it). Judged only once the sensor has been read ``MIN_DAYS``, and only while it was
on for most of the time watched before this spell (``MOSTLY_OFF``): an appliance's power
state is off for most of the day, and a holiday's long spell off is no outage.

A home battery that carries the home meanwhile (a ``battery`` sensor in % of the same
device or area whose charge has fallen ``CARRYING_POINTS`` or more since the supply went)
is named with it, and its charge said: how long the home can go on is what the household
wants to know.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..device_roles import same_device
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, parse_number
from .clock import local
from .home_baselines import HomeBaselines
from .long_stays import duration_text

MIN_DAYS = 2.0
MIN_OFF = timedelta(minutes=10)
FACTOR = 1.5
SLACK = timedelta(minutes=30)
# A sensor off for more than this share of the time watched reports an appliance's power
# (a television, a washer), not a supply that is there nearly always.
MOSTLY_OFF = 0.5
# A battery that fell this many points (%) since the supply went carries the home (a
# door sensor's coin cell loses a point a month).
CARRYING_POINTS = 5.0
# A home battery at or under this share (%) has little left.
LOW_CHARGE = 20.0

SUPPLY_OFF_FAR_LONGER = FindingKind(
    "supply_off_far_longer_than_usual", AnomalyType.ENERGY, Severity.HIGH
)


def _off_since(home: HomeView, sensor: EntityState, learned: datetime | None) -> datetime | None:
    """When the spell off under way began: the window's last change from on, or the
    learned start when earlier (a restart inside the spell reads unknown, then off)."""
    since: datetime | None = None
    for transition in home.history.get(sensor.entity_id, []):
        if transition.state == "on":
            since = None
        elif transition.state == "off" and since is None:
            since = transition.when
    since = since or sensor.last_changed
    if learned is not None and (since is None or learned < since):
        return learned
    return since


def _battery(
    home: HomeView, sensor: EntityState, since: datetime
) -> tuple[str, float, float] | None:
    """(entity id, charge when the supply went, charge now) of the home battery that
    carries the home: a ``battery`` sensor in % of the same device or area, fallen since by
    ``CARRYING_POINTS`` or more."""
    for battery in home.of("sensor", "battery"):
        if battery.info.unit != "%" or battery.number is None:
            continue
        if not (
            same_device(battery, sensor)
            or (sensor.info.area is not None and battery.info.area == sensor.info.area)
        ):
            continue
        before = None
        for transition in home.history.get(battery.entity_id, []):
            if transition.when <= since and (value := parse_number(transition.state)) is not None:
                before = value
            elif transition.when > since and before is None:
                before = parse_number(transition.state)
        if before is not None and battery.number <= before - CARRYING_POINTS:
            return battery.entity_id, before, battery.number
    return None


def supply_off_far_longer(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A ``power`` binary sensor off past ``MIN_OFF`` and this home's usual outages.

    Magnitude: minutes off.
    """
    now = home.end
    supply = baselines.supply
    for sensor in home.of("binary_sensor", "power"):
        if sensor.state != "off":
            continue
        first = supply.first_read(sensor.entity_id)
        if first is None or (now - first) / timedelta(days=1) < MIN_DAYS:
            continue
        since = _off_since(home, sensor, supply.down_since(sensor.entity_id))
        if since is None:
            continue
        before = (since - first).total_seconds() / 60  # watched before this spell
        if supply.minutes_off(sensor.entity_id) > MOSTLY_OFF * before:
            continue  # off most of the time: an appliance's power state, no supply
        longest = timedelta(minutes=supply.longest(sensor.entity_id))
        limit = max(MIN_OFF, FACTOR * longest, longest + SLACK) if longest else MIN_OFF
        off = now - since
        if off <= limit:
            continue
        name = sensor.info.name or sensor.entity_id
        usual = (
            f"the longest it was off before was {duration_text(longest)}"
            if longest
            else "it was never off before"
        )
        evidence = [sensor.entity_id]
        carried = ""
        if (battery := _battery(home, sensor, since)) is not None:
            entity_id, before, charge = battery
            evidence.append(entity_id)
            carried = f" The home battery is down from {before:g} % to {charge:g} %" + (
                ": it is nearly empty." if charge <= LOW_CHARGE else "."
            )
        yield SUPPLY_OFF_FAR_LONGER.finding(
            evidence=tuple(evidence),
            subject=sensor.entity_id,
            reasoning=f"{name} has reported no power since "
            f"{local(since, home.env.zone):%H:%M} ({duration_text(off)}); {usual}.{carried}",
            recommendation="Check whether the grid (or the supply it watches) is down: keep "
            "fridges and freezers shut, switch off large loads the battery or generator "
            "cannot carry for long, and check the breakers if the neighbours have power.",
            magnitude=round(off.total_seconds() / 60, 1),
        )
