"""A meter running far below every draw it ever ran at: its appliance runs, but not as it
does (a pump running dry, a compressor that lost its gas, a heater with one element gone).

A pump lifting water draws 760 W on every morning's run; dry, with nothing to lift, it
whines at 405 W and is told only once it runs past its routine (set 17 b, 1 h 30 min late).
Each meter's *running* draws are learned apart from its readings at rest
(``NumericRanges`` under ``running_key``: every reading of ``RUNNING_WATTS`` or more), so
their lowest is the least this appliance draws while it runs; a new lowest settles only
hours later (``ranges.SETTLE``), so a reading is judged against the runs before it. A meter
drawing at least ``MIN_DRAW`` but under ``FAR_BELOW`` of that lowest (and ``SHORTFALL``
less), every reading for ``HOLD``, over ``MIN_RUNS`` runs learned and ``MIN_DAYS`` days,
is told. A meter whose running draws vary (a washer's phases, an inverter, a TV) has a low
lowest and is never far below it; a fridge's lamp alone (a few watts) is no draw.

In its first days (fewer than ``MIN_RUNS`` runs or ``MIN_DAYS`` days, ``EARLY_LEARNED`` at
least) it is told only when a thermometer of its area rose ``ROOM_RISE`` since it went
below: an air conditioner whose compressor gave up blows its fan at 72 W while the room
climbs (set 25 d, the second night: a window unit on a metering plug, 870 W the night
before, an 86-year-old's room from 25.6 to 31 °C; set 24 d the same with a split unit).

A meter under every draw it ran at by ``STEADY_DROP``, not "far" (an air conditioner whose
thermostat idles its compressor blows its fan at 95 W between cycles, so its lowest running
draw is a fan's), is told the same way when its room says it: risen ``ROOM_RISE`` since, and
``ROOM_RISE`` above the highest it read in a day learned or more (set 28: a window unit on
a metering plug, its compressor gone at 01:20, the fan at 62 W, a dialysis patient's room
from 77 to 90 °F; the learned fan phase hid it).

"Far" is the meter's own: a motor whose running draws agree within a few per cent (a well
pump at 745-750 W, run after run) drawing ``STEADY_DROP`` less, and ``SPREAD_TIMES`` its
learned spread, is not doing its work (set 19 d: 515 W, its prime lost, told only at the
timed floor as 0.69 of its draw). Not for a heating load (``HEATING_WATTS``): an element's
draw follows the supply's voltage, a tenth lower drawing a fifth less.
No word of an id or a name is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, parse_number
from ..rules.temperature_bands import celsius_of, shown
from ..temperatures import to_celsius
from .clock import ONE_HOUR, hour_start, local
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .power import HEATING_WATTS, RUNNING, running_key, watts
from .reference import usual_range

FAR_BELOW = 0.6
# A motor whose running draws agree: this share less, and this many times their spread.
STEADY_DROP = 0.2
SPREAD_TIMES = 3.0
SHORTFALL = 50.0
MIN_DRAW = 20.0
HOLD = timedelta(minutes=10)
MIN_RUNS = 5
MIN_DAYS = 3
# Before that, told only with a thermometer of its area risen this much (°C) since it went
# below (an air conditioner on fan only: its room climbs), once it ran this long ago.
ROOM_RISE = 2.0
EARLY_LEARNED = timedelta(hours=12)
# Days of a room's readings learned before its highest says what its cooling keeps.
ROOM_DAYS = 1.0

RUNNING_FAR_BELOW_ITS_DRAW = FindingKind(
    "running_far_below_its_draw", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def far_below(lowest: float, highest: float) -> float:
    """Under this a meter whose running draws were ``lowest`` to ``highest`` watts does
    not run as it does: ``FAR_BELOW`` of its lowest, nearer for a steady motor."""
    far = FAR_BELOW * lowest
    if highest < HEATING_WATTS:
        far = max(far, lowest - max(STEADY_DROP * lowest, SPREAD_TIMES * (highest - lowest)))
    return min(far, lowest - SHORTFALL)


def _below_since(home: HomeView, meter: EntityState, limit: float) -> datetime | None:
    """Since when every reading has drawn power but less than ``limit`` watts."""
    since = meter.last_changed
    for transition in reversed(home.history.get(meter.entity_id, [])):
        value = parse_number(transition.state)
        reading = watts(value, meter.info.unit) if value is not None else None
        if reading is None or not MIN_DRAW <= reading < limit:
            break
        since = transition.when if since is None else min(since, transition.when)
    return since


def _runs_text(runs: int) -> str:
    """ "in the 18 runs learned", "in the run learned", "since first seen running"."""
    if runs == 0:
        return "since it was first seen running"
    return "in the run learned" if runs == 1 else f"in the {runs} runs learned"


def _room_warming(
    baselines: HomeBaselines, home: HomeView, meter: EntityState, since: datetime
) -> tuple[EntityState, float] | None:
    """A thermometer of the meter's area reading ``ROOM_RISE`` or more above its mean of
    the hour before the meter went below (``since``), with that mean."""
    area = meter.info.area
    if not area:
        return None
    before = hour_start(since) - ONE_HOUR
    for sensor in home.in_area(area):
        celsius = celsius_of(sensor)
        if celsius is None:
            continue
        mean, _ = baselines.profiles.same_hour(sensor.entity_id, before)
        if mean is None:
            continue
        then = to_celsius(mean, sensor.info.unit)
        if then is not None and celsius - then >= ROOM_RISE:
            return sensor, round(mean, 1)
    return None


def _hotter_than_ever(baselines: HomeBaselines, sensor: EntityState, now: datetime) -> bool:
    """The thermometer reads ``ROOM_RISE`` above the highest it read in the day or more
    learned before now (a new highest settles only hours later)."""
    usual = usual_range(baselines, sensor.entity_id, now)
    celsius = celsius_of(sensor)
    highest = None if usual is None else to_celsius(usual.highest, sensor.info.unit)
    if celsius is None or highest is None or usual is None or usual.days < ROOM_DAYS:
        return False
    return celsius - highest >= ROOM_RISE


def running_far_below_its_draw(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A meter running far below the least it ever drew running, for ``HOLD``.

    Magnitude: watts below the learned lowest running draw, negative (below: as every
    reading's, so that a run again as far below is read as the same trouble,
    ``told_unchanged``).
    """
    now = home.end
    for meter in home.of("sensor", "power"):
        value = meter.number
        drawn = watts(value, meter.info.unit) if value is not None else None
        if drawn is None or drawn < MIN_DRAW:
            continue
        key = running_key(meter.entity_id)
        usual = baselines.ranges.usual(key, now)
        first = baselines.ranges.since(key)
        if usual is None or first is None or now - first < EARLY_LEARNED:
            continue
        runs, _ = baselines.durations.whole_record(meter.entity_id, RUNNING)
        lowest = usual[3]
        limit = far_below(lowest, usual[4])
        far = drawn < limit
        if not far:  # under every draw it ran at, not far: told only as its room says
            limit = (1.0 - STEADY_DROP) * lowest
            if drawn >= limit:
                continue
        since = _below_since(home, meter, limit)
        if since is None or now - since < HOLD:
            continue
        early = runs < MIN_RUNS or now - first < timedelta(days=MIN_DAYS)
        warming = _room_warming(baselines, home, meter, since) if early or not far else None
        if (early or not far) and warming is None:
            continue
        if not far and warming is not None and not _hotter_than_ever(baselines, warming[0], now):
            continue
        name = meter.info.name or meter.entity_id
        drew = f"{lowest:,.0f}"
        if f"{usual[4]:,.0f}" != drew:
            drew += f" to {usual[4]:,.0f}"
        room = ""
        evidence: tuple[str, ...] = (meter.entity_id,)
        if warming is not None:
            sensor, then = warming
            evidence = (meter.entity_id, sensor.entity_id)
            room = (
                f" {sensor.info.name or sensor.entity_id} reads {shown(sensor)}, up from "
                f"{then:g} in the hour before: it does not cool its room."
            )
        yield RUNNING_FAR_BELOW_ITS_DRAW.finding(
            evidence=evidence,
            reasoning=f"{name} has drawn {drawn:,.0f} W since "
            f"{local(since, home.env.zone):%H:%M} ({duration_text(now - since)}); "
            f"{_runs_text(runs)} it always drew {drew} W while running: it runs, but not "
            f"as it usually does.{room}",
            recommendation=(
                "Check the air conditioner: its compressor may have stopped while its fan "
                "runs. Keep anyone in the room cool meanwhile."
                if room
                else "Check the appliance: a pump running dry or blocked, a compressor or "
                "an element failing."
            ),
            magnitude=round(drawn - lowest, 1),
        )
