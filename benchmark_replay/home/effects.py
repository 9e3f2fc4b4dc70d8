"""What a household's presence does to the house: the routine state changes.

Trackers and persons follow people (the phone notices a departure a few minutes late
and an arrival just before the door); the entrance door is unlocked, opened, closed and
locked; motion sensors fire while someone is home and awake; lights burn from dusk while
someone is up; thermostats follow a comfort/eco schedule and the room temperature
answers; appliances run with power curves; the fridge cycles; the sun and the weather
move. Only changes of state are emitted. Pure Python (no Home Assistant).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
import math
import random
from typing import Any

from astral import Observer
from astral.sun import sunrise, sunset

from .presence import Interval, PersonTimeline, intersect, union
from .scenario import Scenario
from .scenario_schema import FAHRENHEIT
from .streams import DayStreams, Streams

# Power curves: (minutes, watts low, watts high) segments, sampled every 5 minutes.
CURVES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "washing_machine": ((15, 1900, 2100), (50, 150, 450), (10, 350, 500)),
    "dishwasher": ((20, 1700, 1900), (45, 60, 120), (15, 1700, 1900), (20, 5, 30)),
    "dryer": ((70, 2200, 2500), (15, 200, 400)),
    "oven": ((15, 2300, 2500), (45, 800, 1600)),
    "kettle": ((3, 2000, 2200),),
}
IDLE_WATTS = (0.5, 2.0)
FRIDGE_CYCLE = ((20, 70, 95), (40, 1, 3))  # compressor on, then off
SAMPLE = timedelta(minutes=5)
CLIMATE_STEP = timedelta(minutes=20)


@dataclass(frozen=True, slots=True)
class Change:
    """One state written to Home Assistant."""

    when: datetime
    entity_id: str
    state: str
    attributes: Mapping[str, Any] | None = None
    source: str = "routine"


@dataclass(slots=True)
class Effects:
    """Collects changes, dropping ones that repeat an entity's state."""

    changes: list[Change] = field(default_factory=list)

    def add(self, when: datetime, entity_id: str, state: str, attributes: Any = None) -> None:
        """Record a change."""
        self.changes.append(Change(when, entity_id, state, attributes))


def routine_changes(
    scenario: Scenario,
    people: Sequence[PersonTimeline],
    streams: Streams,
    incidents: Callable[[list[Change]], list[Change]] | None = None,
) -> list[Change]:
    """Every routine change of the whole run, in time order, without repeats.

    ``incidents`` lays the incidents over a list of changes: motion lights follow the
    motion the house really sees (an intruder's, not the routine's the incident blocked).
    """
    begin, end = scenario.start, scenario.end
    effects = scenario.data["household"]["effects"]
    out = Effects()
    dark = _dark_intervals(scenario, out)
    _weather(scenario, out, streams.named("weather"))
    awake = union([p.awake_home for p in people])
    for person in scenario.data["home"]["persons"]:
        timeline = next(p for p in people if p.person == person["id"])
        _presence(person, timeline, effects, out)
    for sensor in effects["motion"]:
        poisson_motion(
            sensor, awake, effects["motion_per_hour"], out, _by_day(streams, f"motion-{sensor}")
        )
    if "pets" in effects:
        pets, spans = effects["pets"], [Interval(begin, end)]
        if pets["leaves_with_household"]:
            spans = union([p.home for p in people])  # the dog goes along
        for sensor in pets["motion"]:
            poisson_motion(sensor, spans, pets["per_hour"], out, _by_day(streams, f"pet-{sensor}"))
    for light in effects["lights"]:
        for span in intersect(awake, dark):
            rng = streams.daily(f"light-{light}", span.start)
            if rng.random() < 0.85:
                out.add(span.start + timedelta(seconds=rng.uniform(5, 600)), light, "on")
                out.add(span.end, light, "off")
    for pair in effects["motion_lights"]:
        # Its own random stream: a home's other draws stay as they were without it.
        own = random.Random(f"{scenario.data['seed']}:{pair['light']}")
        seen = sorted(out.changes, key=lambda c: c.when)
        _motion_light(pair, dark, incidents(seen) if incidents else seen, out, own)
    for climate in effects["climate"]:
        _climate(scenario, climate, awake, out, _by_day(streams, f"climate-{climate['entity']}"))
    for appliance in effects["appliances"]:
        if appliance["program"] == "fridge":
            _fridge(appliance, begin, end, out, _by_day(streams, f"fridge-{appliance['power']}"))
        else:
            runs = _by_day(streams, f"runs-{appliance['power']}")
            _appliance_runs(scenario, appliance, awake, out, runs)
    return _without_repeats(sorted(out.changes, key=lambda c: c.when))


def _by_day(streams: Streams, name: str) -> DayStreams:
    return DayStreams(streams, name)


def _without_repeats(changes: list[Change]) -> list[Change]:
    """Drop changes that leave an entity as it was (HA would not fire them either)."""
    last: dict[str, tuple[str, Any]] = {}
    kept = []
    for change in changes:
        key = (change.state, change.attributes)
        if last.get(change.entity_id) == key:
            continue
        last[change.entity_id] = key
        kept.append(change)
    return kept


def _dark_intervals(scenario: Scenario, out: Effects) -> list[Interval]:
    """Night-time intervals, and ``sun.sun`` going up and down."""
    observer = Observer(latitude=scenario.data["latitude"], longitude=scenario.data["longitude"])
    tz = scenario.tz
    first: date = scenario.data["start"]
    dark: list[Interval] = []
    previous_set = scenario.start - timedelta(hours=6)
    out.add(scenario.start, "sun.sun", "below_horizon", {"friendly_name": "Sun"})
    for offset in range(scenario.days + 1):
        day = first + timedelta(days=offset)
        try:
            rise = sunrise(observer, day, tzinfo=tz).astimezone(UTC)
            down = sunset(observer, day, tzinfo=tz).astimezone(UTC)
        except ValueError:  # polar day or night: keep it simple, twelve hours each
            rise = scenario.local(day, time(6, 0))
            down = rise + timedelta(hours=12)
        dark.append(Interval(previous_set, rise))
        out.add(rise, "sun.sun", "above_horizon", {"friendly_name": "Sun"})
        out.add(down, "sun.sun", "below_horizon", {"friendly_name": "Sun"})
        previous_set = down
    return dark


def _weather(scenario: Scenario, out: Effects, rng: random.Random) -> None:
    weather = scenario.data["home"]["weather"]
    entity = weather["entity_id"]
    condition = "cloudy"
    hours = round((scenario.end - scenario.start) / timedelta(hours=1))
    for hour in range(hours + 1):
        when = scenario.start + timedelta(hours=hour)
        if hour % 6 == 0:
            condition = rng.choice(("cloudy", "partlycloudy", "sunny", "cloudy", "fog"))
        temperature = outdoor_at(scenario, when) + rng.gauss(0, 0.5 * degree(scenario))
        out.add(
            when,
            entity,
            condition,
            {
                "friendly_name": "Home",
                "temperature": round(temperature, 1),
                "temperature_unit": scenario.data["home"]["temperature_unit"],
            },
        )


def outdoor_at(scenario: Scenario, when: datetime) -> float:
    """The weather's temperature at ``when`` (the home's unit): its mean and daily swing,
    warmest at 15:00."""
    weather = scenario.data["home"]["weather"]
    hour = when.astimezone(scenario.tz).hour
    return float(weather["mean"] + weather["swing"] * math.sin((hour - 9) / 24 * 2 * math.pi))


def degree(scenario: Scenario) -> float:
    """One °C in the home's temperature unit (1.0 or 1.8)."""
    return 1.8 if scenario.data["home"]["temperature_unit"] == FAHRENHEIT else 1.0


def _presence(
    person: Mapping[str, Any], timeline: PersonTimeline, effects: Mapping[str, Any], out: Effects
) -> None:
    tracker = person.get("tracker") or f"device_tracker.{person['id']}_phone"
    door = effects.get("entrance")
    hall = effects["motion"][0] if effects["motion"] else None
    for action in timeline.actions:
        t = action.when
        if action.kind == "leave":
            entrance(door, t, out)
            if hall:
                out.add(t - timedelta(minutes=1), hall, "on")
                out.add(t + timedelta(minutes=1), hall, "off")
            for entity in (tracker, f"person.{person['id']}"):
                out.add(t + timedelta(minutes=3), entity, "not_home")
        elif action.kind == "return":
            for entity in (tracker, f"person.{person['id']}"):
                out.add(t - timedelta(minutes=1), entity, "home")
            entrance(door, t, out)
            if hall:
                out.add(t + timedelta(seconds=10), hall, "on")  # steps in
                out.add(t + timedelta(minutes=3), hall, "off")


def entrance(door: Mapping[str, str] | None, t: datetime, out: Effects) -> None:
    """Unlock, open 8 s later, close, lock 55 s after unlocking."""
    if not door:
        return
    lock = door.get("lock")
    if lock:
        out.add(t, lock, "unlocked")
    out.add(t + timedelta(seconds=8), door["door"], "on")
    out.add(t + timedelta(seconds=35), door["door"], "off")
    if lock:
        out.add(t + timedelta(seconds=55), lock, "locked")


def poisson_motion(
    sensor: str,
    spans: Sequence[Interval],
    per_hour: float,
    out: Effects,
    rng: random.Random | DayStreams,
) -> None:
    """``sensor`` fires at random (``per_hour``) inside ``spans``, clearing after 1-4 min.

    ``rng`` is one stream, or one stream per local day: then each day's part of a span
    draws from that day's stream, so a changed day re-draws that day alone.
    """
    if per_hour <= 0:
        return
    cleared = None  # the last firing's end: the next one starts after it
    for span in spans:
        pieces = rng.pieces(span) if isinstance(rng, DayStreams) else [(span, rng)]
        for piece, stream in pieces:
            t = piece.start if cleared is None else max(piece.start, cleared)
            while True:
                t += timedelta(hours=stream.expovariate(per_hour))
                if t >= piece.end:
                    break
                out.add(t, sensor, "on")
                t += timedelta(minutes=stream.uniform(1.0, 4.0))
                out.add(t, sensor, "off")
                cleared = t


def _motion_light(
    pair: Mapping[str, Any],
    dark: Sequence[Interval],
    changes: Sequence[Change],
    out: Effects,
    rng: random.Random,
) -> None:
    """A light that comes on with motion after dark: by an automation (within a second or
    two, every time unless ``share`` says otherwise; off ``off_after`` minutes after the
    motion clears) or by a person entering (2-12 s later, on ``share`` of the times, 80 %
    by default; off soon after leaving, or left on for a while one time in seven)."""
    by_hand = pair["by"] == "hand"
    share = pair.get("share", 0.8 if by_hand else 1.0)
    lit, off_at = False, None
    for change in changes:
        if change.entity_id != pair["motion"]:
            continue
        when = change.when
        if lit and off_at is not None and off_at <= when:
            out.add(off_at, pair["light"], "off")
            lit, off_at = False, None
        if change.state == "on":
            if lit:
                off_at = None  # still somebody there
            elif any(s.start <= when < s.end for s in dark) and rng.random() < share:
                delay = rng.uniform(2, 12) if by_hand else rng.uniform(0.3, 1.5)
                out.add(when + timedelta(seconds=delay), pair["light"], "on")
                lit = True
        elif lit and off_at is None:
            if by_hand and rng.random() < 1 / 7:
                off_at = when + timedelta(minutes=rng.uniform(30, 120))
            elif by_hand:
                off_at = when + timedelta(minutes=rng.uniform(0.2, 1.5))
            else:
                off_at = when + timedelta(minutes=pair["off_after"])
    if lit and off_at is not None:
        out.add(off_at, pair["light"], "off")


def _climate(
    scenario: Scenario,
    climate: Mapping[str, Any],
    awake: Sequence[Interval],
    out: Effects,
    days: DayStreams,
) -> None:
    """A comfort/eco heating schedule, and a room that warms and cools with it."""
    entity, sensor = climate["entity"], climate.get("sensor")
    t, end = scenario.start, scenario.end
    mean = scenario.data["home"]["weather"]["mean"]
    k = degree(scenario)  # the model's steps are in °C
    room = climate["eco"]
    index = 0
    last: tuple[float, str, float] | None = None
    while t < end:
        while index < len(awake) and awake[index].end <= t:
            index += 1
        occupied = index < len(awake) and awake[index].start <= t
        target = climate["comfort"] if occupied else climate["eco"]
        heating = room < target - 0.2 * k
        drift = (target + 0.3 * k - room) * 0.35 if heating else (mean + 8 * k - room) * 0.04
        room = round(room + drift + days(t).gauss(0, 0.05 * k), 1)
        action = "heating" if heating else "idle"
        if sensor:
            out.add(t, sensor, f"{room:.1f}")
        if last is None or last[0] != target or last[1] != action or abs(last[2] - room) >= 0.5 * k:
            out.add(
                t,
                entity,
                "heat",
                {"hvac_action": action, "temperature": target, "current_temperature": room},
            )
            last = (target, action, room)
        t += CLIMATE_STEP


def _curve_samples(
    curve: Sequence[tuple[float, float, float]], start: datetime, rng: random.Random
) -> Iterator[tuple[datetime, float]]:
    t = start
    for minutes, low, high in curve:
        segment_end = t + timedelta(minutes=minutes)
        while t < segment_end:
            yield t, rng.uniform(low, high)
            t += min(SAMPLE, segment_end - t)
    yield t, rng.uniform(*IDLE_WATTS)


def _fridge(
    appliance: Mapping[str, Any], begin: datetime, end: datetime, out: Effects, days: DayStreams
) -> None:
    t = begin
    while t < end:
        rng = days(t)
        for minutes, low, high in FRIDGE_CYCLE:
            out.add(t, appliance["power"], f"{rng.uniform(low, high):.1f}")
            t += timedelta(minutes=minutes * rng.uniform(0.8, 1.2))


def _appliance_runs(
    scenario: Scenario,
    appliance: Mapping[str, Any],
    awake: Sequence[Interval],
    out: Effects,
    days: DayStreams,
) -> None:
    """Runs started by someone at home, at one of the appliance's usual times."""
    power, switch = appliance["power"], appliance.get("switch")
    out.add(scenario.start, power, f"{days(scenario.start).uniform(*IDLE_WATTS):.1f}")
    chance = appliance["runs_per_week"] / 7 / max(1, len(appliance["at"]))
    for offset in range(scenario.days):
        day = scenario.data["start"] + timedelta(days=offset)
        rng = days(scenario.local(day, time(12, 0)))
        for clock in appliance["at"]:
            if rng.random() >= chance:
                continue
            start = scenario.local(day, clock)
            start += timedelta(minutes=rng.uniform(-30, 30))
            if not any(span.start <= start < span.end for span in awake):
                continue
            if switch:
                out.add(start, switch, "on")
            last = start
            for when, watts in _curve_samples(CURVES[appliance["program"]], start, rng):
                out.add(when, power, f"{watts:.1f}")
                last = when
            if switch:
                out.add(last, switch, "off")
