"""A room a machine keeps cool, far warmer than anything it read, the heat coming in.

The mirror of ``cooled_rooms``. ``room_warmer_than_kept`` judges a room whose climate
entity is cooling, and ``room_too_hot`` waits for 35 °C; a room in a hot city whose air
conditioner hangs on a metering plug has neither. Set 45: an old woman with a pacemaker
naps with her room's air conditioner on (a plug drawing 870 W); its capacitor fails at
13:10 on a 40 °C afternoon, the plug still on at 0 W, and her room, never over 26 °C in
the days learned, climbs to 31.5 °C while nobody looks in. What this home learned says
it, with no word of a name or an id:

- a room thermometer (a temperature sensor with an area) reads ``RISE`` or more over the
  highest it read in the ``MIN_DAYS`` or more days learned (``reference.usual_range``: a
  new high settles only hours later, so the rise is judged against the days before it),
  and ``WARM_ROOM`` or more, every reading for ``SUSTAINED`` (a sun patch on the sensor, a
  shower's steam pass in minutes);
- it is cooler than the air outside: the heat comes in from the weather (a cooker, a
  heater or a fire heat a room above the outdoors, and have their own checks; a room
  warming towards a hotter outdoors is one whose cooling stopped or cannot keep up);
- the room has a cooler that ran here (``USED_RUNS`` runs learned of a power meter of
  its area), so the room's highest is what its cooling keeps, not the weather's: a home
  with no machine in the room follows the weather and is the weather's to tell.

Whether the cooler draws now is not asked: a unit that stopped (its plug on at 0 W) and
one that runs and no longer cools (a refrigerant leak) warm the room alike.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from ..rules.temperature_bands import COLD_ROOM, celsius_of, shown
from ..temperatures import to_celsius
from .clock import local
from .cooled_rooms import USED_RUNS, degrees_text, held_beyond
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .power import RUNNING
from .reference import usual_range

# Days of the room's readings learned before its highest says how it is kept: two days
# and nights, its cooler run on them (``USED_RUNS``), say what the cooling holds it to.
MIN_DAYS = 2.0
# °C over the highest it ever read, or more: far warmer than this home keeps the room.
RISE = 3.0
# Half a tenth of a degree: a reading of exactly the line (sensors report tenths) is on it.
ON_THE_LINE = 0.05
# Over this a room is warm to anyone resting in it (°C): heat strains the old, the very
# young and the ill well before ``room_too_hot``'s 35 °C.
WARM_ROOM = 28.0

ROOM_WARMED_FAR_ABOVE_EVER = FindingKind(
    "room_warmed_far_above_ever", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def _coolers(home: HomeView, baselines: HomeBaselines, area: str) -> list[str]:
    """The room's power meters that ran ``USED_RUNS`` times here, drawing now or not."""
    durations = baselines.durations
    return [
        state.entity_id
        for state in home.in_area(area)
        if state.domain == "sensor"
        and state.info.device_class == "power"
        and durations.whole_record(state.entity_id, RUNNING)[0] >= USED_RUNS
    ]


def room_warmed_far_above_ever(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A room far over the highest it ever read, cooler than outdoors, a cooler in it.

    Magnitude: °C over the highest it read before.
    """
    outdoor = home.env.outdoor_temperature  # °C
    if outdoor is None:
        return
    now = home.end
    for sensor in home.of("sensor", "temperature"):
        area = sensor.info.area
        celsius = celsius_of(sensor)
        if area is None or celsius is None or celsius >= outdoor:
            continue
        usual = usual_range(baselines, sensor.entity_id, now)
        if usual is None or usual.days < MIN_DAYS:
            continue
        highest = to_celsius(usual.highest, sensor.info.unit)
        lowest = to_celsius(usual.lowest, sensor.info.unit)
        if highest is None or lowest is None or lowest < COLD_ROOM:
            continue  # a fridge or a freezer warming is its own check's
        line = max(highest + RISE, WARM_ROOM)
        if celsius < line - ON_THE_LINE:
            continue
        since = held_beyond(home, sensor, line - ON_THE_LINE, below=False)
        if since is None:
            continue
        coolers = _coolers(home, baselines, area)
        if not coolers:
            continue
        yield ROOM_WARMED_FAR_ABOVE_EVER.finding(
            evidence=(sensor.entity_id, *coolers),
            subject=sensor.entity_id,
            reasoning=f"{sensor.info.name or sensor.entity_id} reads {shown(sensor)}, "
            f"far over anything {area} read in the {usual.days:.0f} days learned (never "
            f"over {degrees_text(highest, sensor)}), and over {degrees_text(line, sensor)} "
            f"since {local(since, home.env.zone):%H:%M} ({duration_text(now - since)}); it "
            f"is {degrees_text(outdoor, sensor)} outdoors, and the heat is coming in.",
            recommendation=f"Check the air conditioning of {area}: it may have stopped or "
            "no longer cool. Move anyone vulnerable to heat to a cooler room meanwhile.",
            magnitude=round(celsius - highest, 1),
        )
