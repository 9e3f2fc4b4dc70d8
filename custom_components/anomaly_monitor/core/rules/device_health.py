"""Rules about devices that stopped working or report contradicting telemetry."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..device_roles import named_after, own_meter
from ..finding_kind import FindingKind
from ..home import DEVICE_DOMAINS, HomeView, is_on, is_opening, is_unavailable
from ..models import AnomalyType, EntityState, Finding, Severity
from ..offline import OFFLINE_ADVICE, is_safety_device, offline_long_enough, offline_since
from .context import (
    ANGLE_TOLERANCE,
    FLOOR_WET_PERCENT,
    HAZARD_PPM_ELEVATED,
    ROOM_DRY_HUMIDITY,
    angle_sensor_for,
    entry_point,
    ids,
    level_sensor_for,
    motion_in,
)
from .one_device import one_per_device

# An outlet or appliance that is off should draw (almost) nothing: at most its standby
# electronics (an oven's clock, a Wi-Fi module: 1-3 W) and the meter's own noise. A stuck
# relay shows the load, tens of watts or more.
OFF_STANDBY_WATTS = 5.0
# A plug's meter reports the draw of its opened relay seconds after the switch reads off
# (set 5's pump, set 6's aquarium heater: 0 W three and six seconds later). A draw read
# before the switch went off, that recent, is the draw of before, not a stuck relay.
METER_LAG = timedelta(minutes=2)


def device_unavailable(home: HomeView) -> Iterator[Finding]:
    """A device cannot be read (unavailable) or reports a value it cannot have (unknown).

    Only once the spell has lasted its grace (``core/offline.py``): a radio blip is not told.
    The entities of one device offline together are one finding, and so are devices
    that dropped at the same moment (``one_device``).
    """
    found: list[tuple[EntityState, Finding]] = []
    since: dict[str, datetime | None] = {}
    for state in home.window.snapshot:
        if state.domain not in DEVICE_DOMAINS or not is_unavailable(state):
            continue
        if not offline_long_enough(home, state):
            continue
        if (
            state.state.lower() == "unknown"
            and state.domain == "sensor"
            and not (state.info.device_class or state.info.unit)
        ):
            continue  # a text sensor (activity, status) legitimately knows nothing yet
        context: list[EntityState] = []
        if state.domain == "camera" and home.nobody_home:
            context = entry_point(home) + home.of("alarm_control_panel")
        safety = is_safety_device(state.domain, state.info.device_class)
        finding = Finding(
            rule="device_unavailable",
            evidence=ids(state, context),
            context=ids(context),
            reasoning=f"{state.info.name} is {state.state}: it cannot be read right now.",
            anomaly_type=AnomalyType.DEVICE_MALFUNCTION
            if state.domain != "sensor" or state.state.lower() == "unavailable"
            else AnomalyType.PHYSICAL_VIOLATION,
            severity=Severity.HIGH if safety else Severity.MEDIUM,
            recommendation=OFFLINE_ADVICE,
        )
        found.append((state, finding))
        # Past the window's start, HA's own last change (the drop) keeps them together.
        since[state.entity_id] = offline_since(home, state) or state.last_changed
    yield from one_per_device(found, since)


OPENING_CONTRADICTS_ANGLE = FindingKind(
    "opening_contradicts_angle", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def opening_contradicts_angle(home: HomeView) -> Iterator[Finding]:
    """A door or window contact and its angle sensor disagree (closed but ajar, or the reverse).

    Magnitude: the angle (°) of a contact that says closed; none for "open but flat".
    """
    for opening in home.of("binary_sensor"):
        if not is_opening(opening):
            continue
        angle = angle_sensor_for(home, opening)
        if angle is None or angle.number is None:
            continue
        closed_but_ajar = not is_on(opening) and angle.number > ANGLE_TOLERANCE
        open_but_flat = is_on(opening) and angle.number == 0
        if not (closed_but_ajar or open_but_flat):
            continue
        area = opening.info.area
        locks = [s for s in home.in_area(area) if s.domain == "lock"]
        context: list[EntityState] = []
        if home.nobody_home and locks:
            context = motion_in(home, area) + [
                s for s in home.in_area(area) if s.domain == "camera"
            ]
            context += home.of("alarm_control_panel")
        yield OPENING_CONTRADICTS_ANGLE.finding(
            evidence=ids(opening, angle, locks, context),
            context=ids(locks, context),
            reasoning=f"{opening.info.name} reports {'closed' if closed_but_ajar else 'open'} "
            f"but {angle.info.name} reads {angle.state}°.",
            recommendation="Check whether it is really closed, then the contact's alignment.",
            magnitude=angle.number if closed_but_ajar else None,
        )


OUTLET_OFF_BUT_DRAWING_POWER = FindingKind(
    "outlet_off_but_drawing_power", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def outlet_off_but_drawing_power(home: HomeView) -> Iterator[Finding]:
    """A switched-off outlet or appliance still reports power draw.

    Magnitude: the power drawn (W).
    """
    for switch in home.of("switch") + home.of("media_player"):
        if switch.state.lower() != "off" or not switch.info.area:
            continue
        meters = [
            s
            for s in home.sensors("power", switch.info.area)
            # HA's device registry pairs a plug with its meter (on a multi-channel
            # relay, the meter of the switch's channel); without it, HA's naming of one
            # device's entities (the meter's id extends the switch's, its name holds the
            # switch's) does.
            if own_meter(home, switch, s)
            or (None in (s.info.device, switch.info.device) and named_after(s, switch))
        ]
        for meter in meters:
            limit = OFF_STANDBY_WATTS if switch.domain == "switch" else 15.0
            if _not_reported_since(home, switch, meter):
                continue
            if meter.number is not None and meter.number > limit:
                yield OUTLET_OFF_BUT_DRAWING_POWER.finding(
                    evidence=(switch.entity_id, meter.entity_id),
                    reasoning=f"{switch.info.name} is off but {meter.info.name} reads "
                    f"{meter.state} W.",
                    recommendation="The relay may be stuck or the meter miscalibrated.",
                    magnitude=meter.number,
                )


def _not_reported_since(home: HomeView, switch: EntityState, meter: EntityState) -> bool:
    """The switch went off under ``METER_LAG`` ago and its meter has not reported since."""
    off, read = switch.last_changed, meter.last_changed
    return off is not None and home.end - off < METER_LAG and (read is None or read < off)


DETECTOR_CONTRADICTS_LEVEL = FindingKind(
    "detector_contradicts_level", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def detector_contradicts_level(home: HomeView) -> Iterator[Finding]:
    """A detector reports clear while its own level reading is raised (occupied home).

    With nobody home the safety family reports the same situation as a hazard.
    Magnitude: the level reading (ppm, or the sensor's unit).
    """
    if home.nobody_home:
        return
    for detector in home.of("binary_sensor", "gas", "smoke"):
        level = level_sensor_for(home, detector)
        if is_on(detector) or level is None or level.number is None:
            continue
        if level.number < HAZARD_PPM_ELEVATED:
            continue
        yield DETECTOR_CONTRADICTS_LEVEL.finding(
            evidence=(detector.entity_id, level.entity_id),
            reasoning=f"{detector.info.name} says clear but {level.info.name} reads "
            f"{level.state} {level.info.unit or ''}.",
            recommendation="Test the detector and check the area.",
            magnitude=level.number,
        )


def leak_alarm_without_water(home: HomeView) -> Iterator[Finding]:
    """A leak sensor alarms but the floor moisture and room humidity say it is dry."""
    for leak in home.of("binary_sensor", "moisture"):
        if not is_on(leak):
            continue
        level = level_sensor_for(home, leak)
        if level is None or level.number is None or level.number >= FLOOR_WET_PERCENT / 5:
            continue
        area = leak.info.area
        humidity = home.sensors("humidity", area)
        very_dry = any(h.number is not None and h.number < ROOM_DRY_HUMIDITY for h in humidity)
        lights = [s for s in home.in_area(area) if s.domain == "light" and is_on(s)]
        yield Finding(
            rule="leak_alarm_without_water",
            evidence=ids(leak, level, humidity, motion_in(home, area), [] if very_dry else lights),
            context=ids(motion_in(home, area), lights),
            reasoning=f"{leak.info.name} reports a leak but {level.info.name} reads "
            f"{level.state}%: probably a false alarm.",
            anomaly_type=AnomalyType.PHYSICAL_VIOLATION
            if very_dry
            else AnomalyType.DEVICE_MALFUNCTION,
            severity=Severity.MEDIUM,
            recommendation="Dry and test the leak sensor's probes.",
        )
