"""A learned follow-up that did not come: a switch whose meter stays flat, heating that
does not warm its room.

``Relations`` learned, per area, how often a cause's effect followed and how soon. Only a
pair that followed at least ``MIN_SHARE`` of at least ``MIN_ONSETS`` onsets is an
expectation (a follow-up seen 60 % of the time is not one). When such a cause is on now,
has been on for longer than ``FACTOR`` times the longest delay learned (never less than the
relation's floor) and its effect has not come, the link is broken:

- **switched on, no power** (``switched_on_without_power``): a switch on whose area's
  power meter always rose within seconds still reads what it read before: the appliance
  does not draw (unplugged, its own switch off, a blown fuse or element, the plug's
  relay failing). Floor ``SWITCH_FLOOR``. A switch and a meter the device registry puts
  on one device (a metering plug or relay) need ``MIN_ONSETS_ONE_DEVICE`` onsets: a pool
  pump's relay switched on once a day is learned in a week, not ten days; or
  ``FEW_ONSETS`` that all rose, judged from ``FEW_ONSETS_FLOOR`` (a water heater's relay
  switched on every morning, its element burnt out on the fifth). Not a meter that has
  run ``RUNS_PER_ONSET`` times as often as its switch was switched on: it starts by itself
  while switched on (a water heater's or a fridge's thermostat), so a switch-on is leave
  to draw, not an order; its water already hot, it draws nothing (set 24 a: a water heater
  switched back on after a night of heating, told as not drawing 23 min later).
- **heating that does not warm** (``heating_not_warming``): a climate entity has been
  heating for longer than the room ever took to warm by 0.5 °C, and the room's
  thermometer has not risen: the heat is not arriving (a boiler or heat pump fault, a
  radiator valve stuck shut, air in the system). Floor ``HEATING_FLOOR``. Not judged when
  the room is already within ``RISE`` of the set point (nothing to warm: a heat pump
  holding its set point heats for hours without a rise), nor when something in the area
  explains it and has its own check: a door or window of the area open since the heating
  started (``hvac_with_opening_open``), another climate entity of the area cooling
  (``heating_and_cooling_in_one_area``).

Both read the window's current states (the cause still on, the effect readable) and the
baselines' pending onsets; no entity id's words.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import OPENING_DEVICE_CLASSES, HomeView
from ..hvac_state import action_from_state as climate_action, action_of
from ..models import AnomalyType, EntityState, Finding, Severity
from ..temperatures import attribute_celsius, in_unit
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .power import RUNNING, watts
from .relation_kinds import HEATING_WARMS, SWITCH_POWER, rise_needed
from .relations import PairStats

MIN_ONSETS = 10
# A switch and a meter that HA's device registry says are one device (a smart plug, a
# relay with metering): the meter measures that switch, so fewer onsets make the habit.
MIN_ONSETS_ONE_DEVICE = 5
MIN_SHARE = 0.9
FACTOR = 3.0
SWITCH_FLOOR = timedelta(minutes=15)
# A metering relay or plug whose meter rose within its first onsets every time is known
# from this many, judged only after ``FEW_ONSETS_FLOOR`` without a rise: fewer onsets, more
# patience (set 15: a water heater's relay switched on every morning, its element burnt
# out on the fifth, four onsets learned; cold showers, never told).
FEW_ONSETS = 3
FEW_ONSETS_FLOOR = timedelta(hours=1)
HEATING_FLOOR = timedelta(hours=1)
# A meter that ran this many times as often as its switch was switched on runs on its
# own thermostat while switched on.
RUNS_PER_ONSET = 2


def one_device(switch: EntityState, meter: EntityState) -> bool:
    """The registry puts both on one device (not a guess from names or ids)."""
    return switch.info.device is not None and switch.info.device == meter.info.device


def _limit(stats: PairStats, floor: timedelta) -> timedelta:
    return max(floor, FACTOR * timedelta(seconds=max(stats.delays or (0.0,))))


def _delay_text(stats: PairStats) -> str:
    """The longest delay learned: ``8 s`` or ``25 min``."""
    seconds = max(stats.delays or (0.0,))
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    return duration_text(timedelta(seconds=seconds))


def _learned(baselines: HomeBaselines, cause: str, effect: str, stats: PairStats) -> str:
    """How often it followed before this onset (whose miss may be counted already)."""
    onsets = stats.onsets - ((cause, effect) in baselines.relations.missed)
    return f"{stats.followed} of {onsets} times learned"


def _heating(climate: EntityState) -> bool:
    return action_of(climate.attributes, climate.state) == "heating"


def _explained(home: HomeView, climate: EntityState, since: datetime) -> bool:
    """An opening of the area open, or another unit cooling it, at any time since ``since``."""
    area = climate.info.area
    if not area:
        return False
    for other in home.in_area(area):
        if other.domain == "binary_sensor" and other.info.device_class in OPENING_DEVICE_CLASSES:
            active = {"on"}
        elif other.domain == "climate" and other.entity_id != climate.entity_id:
            active = {"cooling"}
            if other.attributes.get("hvac_action") == "cooling":
                return True
        else:
            continue
        if other.state in active or any(
            change.when >= since
            and (change.state if other.domain != "climate" else climate_action(change.state))
            in active
            for change in home.changes(other.entity_id)
        ):
            return True
    return False


SWITCHED_ON_WITHOUT_POWER = FindingKind(
    "switched_on_without_power", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def switched_on_without_power(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A switch on whose power meter always rose, and now has not.

    Magnitude: minutes on without the meter rising.
    """
    now = home.end
    for cause, effect, onset, reference in baselines.relations.waiting(SWITCH_POWER):
        switch, meter = home.info(cause), home.info(effect)
        if switch is None or meter is None or switch.state != "on" or reference is None:
            continue
        floor = SWITCH_FLOOR
        needed = MIN_ONSETS_ONE_DEVICE if one_device(switch, meter) else MIN_ONSETS
        stats = baselines.relations.expectation(cause, effect, needed, MIN_SHARE)
        if stats is None and one_device(switch, meter):
            stats = baselines.relations.expectation(cause, effect, FEW_ONSETS, 1.0)
            floor = FEW_ONSETS_FLOOR
        if stats is None or (value := meter.number) is None:
            continue
        if (reading := watts(value, meter.info.unit)) is None:
            continue
        if reading - reference >= rise_needed(SWITCH_POWER, meter.info):
            continue  # it rose: the baselines just have not seen it yet
        if baselines.durations.whole_record(effect, RUNNING)[0] >= RUNS_PER_ONSET * stats.onsets:
            continue  # its own thermostat starts it: switched on, it may have nothing to do
        since = max(onset, switch.last_changed or onset)
        limit = _limit(stats, floor)
        if now - since <= limit:
            continue
        usual, learned = _delay_text(stats), _learned(baselines, cause, effect, stats)
        yield SWITCHED_ON_WITHOUT_POWER.finding(
            evidence=(cause, effect),
            reasoning=f"{cause} has been on for {duration_text(now - since)}, but {effect} "
            f"still reads {reading:g} W; in this home it draws power within {usual} of being "
            f"switched on ({learned}): the appliance is not drawing.",
            recommendation="Check the appliance on this switch: plugged in, its own switch "
            "on, not broken.",
            magnitude=round((now - since).total_seconds() / 60, 1),
        )


HEATING_NOT_WARMING = FindingKind(
    "heating_not_warming", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def heating_not_warming(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """Heating for longer than the room ever took to warm, and the room has not warmed.

    Magnitude: minutes of heating without the room warming.
    """
    now = home.end
    for cause, effect, onset, reference in baselines.relations.waiting(HEATING_WARMS):
        climate, sensor = home.info(cause), home.info(effect)
        if climate is None or sensor is None or reference is None or not _heating(climate):
            continue
        stats = baselines.relations.expectation(cause, effect, MIN_ONSETS, MIN_SHARE)
        if stats is None or (value := sensor.number) is None:
            continue
        rise = rise_needed(HEATING_WARMS, sensor.info)
        if value - reference >= rise:
            continue
        # The set point, in the home's unit (HA's), as the sensor reads.
        target_c = attribute_celsius(climate.attributes, "temperature", home.env.temperature_unit)
        target = None if target_c is None else in_unit(target_c, sensor.info.unit)
        if target is not None and value >= target - rise:
            continue  # at its set point: nothing to warm
        limit = _limit(stats, HEATING_FLOOR)
        if now - onset <= limit or _explained(home, climate, onset):
            continue
        unit = f" {sensor.info.unit}" if sensor.info.unit else ""
        usual = _delay_text(stats)
        wanted = f", set to {target:g}{unit}" if target is not None else ""
        yield HEATING_NOT_WARMING.finding(
            evidence=(cause, effect),
            reasoning=f"{cause} has been heating for {duration_text(now - onset)}{wanted}, "
            f"but {effect} has not risen ({reference:g} then, {value:g}{unit} now); in this "
            f"home the room warms by {rise:g}{unit} within {usual} of the heating starting "
            f"({_learned(baselines, cause, effect, stats)}): the heat is not arriving.",
            recommendation="Check the boiler or heat pump and the room's radiators (valves "
            "open, no air in them).",
            magnitude=round((now - onset).total_seconds() / 60, 1),
        )
