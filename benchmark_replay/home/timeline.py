"""The whole run as a plan: routine, incidents, noise, restarts and feedback, in time order.

Incidents replace the routine of the entities they change for their duration and give
back the routine's state at the end. Noise overlays the result: an entity that goes
``unavailable`` (or a tracker ``unknown``) reports nothing meanwhile and its true state
when it comes back. Numeric readings get a little jitter. Pure Python, seeded.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
import random
from typing import Any

from .effects import Change, outdoor_at, routine_changes
from .habits import habit_changes
from .presence import household
from .scenario import Scenario
from .streams import Streams
from .visitors import visitor_changes

# An alarm up to this long after an incident ended is still about it.
GRACE = timedelta(minutes=15)
DEFAULT_STATES = {
    "binary_sensor": "off",
    "lock": "locked",
    "light": "off",
    "switch": "off",
    "sensor": "0",
    "climate": "heat",
    "cover": "closed",
    "alarm_control_panel": "disarmed",
    "person": "home",
    "device_tracker": "home",
}


@dataclass(frozen=True, slots=True)
class Restart:
    """Home Assistant is stopped and started again here."""

    when: datetime


@dataclass(frozen=True, slots=True)
class Outage:
    """A power cut: Home Assistant is down from ``when`` until ``until``."""

    when: datetime
    until: datetime


@dataclass(frozen=True, slots=True)
class Feedback:
    """A homeowner action on the notification of an incident."""

    when: datetime
    action: str
    incident: str


@dataclass(frozen=True, slots=True)
class IncidentSpan:
    """When an incident (or quiet event) happens and what it touches."""

    id: str
    start: datetime
    end: datetime
    entities: frozenset[str]
    spec: Mapping[str, Any]


@dataclass(slots=True)
class Plan:
    """Everything that will happen, sorted; ``initial`` is each entity's state at start."""

    initial: dict[str, tuple[str, Mapping[str, Any] | None]]
    steps: list[Change | Restart | Outage | Feedback]
    incidents: list[IncidentSpan]
    restarts: list[datetime]
    end: datetime
    outages: list[Outage] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)


class _History:
    """Each entity's changes, for "what was its state at t"."""

    def __init__(self, changes: Sequence[Change], initial: Mapping[str, Any]) -> None:
        self._times: dict[str, list[datetime]] = {}
        self._values: dict[str, list[tuple[str, Any]]] = {}
        for change in changes:
            self._times.setdefault(change.entity_id, []).append(change.when)
            self._values.setdefault(change.entity_id, []).append((change.state, change.attributes))
        self._initial = initial

    def at(self, entity_id: str, when: datetime) -> tuple[str, Any]:
        times = self._times.get(entity_id, [])
        index = bisect_right(times, when)
        if index == 0:
            return self._initial[entity_id]
        return self._values[entity_id][index - 1]


def initial_states(scenario: Scenario) -> dict[str, tuple[str, Mapping[str, Any] | None]]:
    """Every entity's state before the first change."""
    home = scenario.data["home"]
    states: dict[str, tuple[str, Mapping[str, Any] | None]] = {}
    for entity in home["entities"]:
        domain = entity["entity_id"].partition(".")[0]
        states[entity["entity_id"]] = (
            entity.get("state", DEFAULT_STATES.get(domain, "unknown")),
            None,
        )
    for person in home["persons"]:
        states[f"person.{person['id']}"] = ("home", None)
        states[person.get("tracker") or f"device_tracker.{person['id']}_phone"] = ("home", None)
    states.setdefault("sun.sun", ("below_horizon", {"friendly_name": "Sun"}))
    # A weather entity reports its temperature before the monitor is set up (without it,
    # the first analysis knew no outdoors until the weather's first change).
    unit = home["temperature_unit"]
    outdoor = {"temperature": round(outdoor_at(scenario, scenario.start), 1)}
    states.setdefault(
        home["weather"]["entity_id"], ("cloudy", {**outdoor, "temperature_unit": unit})
    )
    return states


def build_plan(scenario: Scenario, seed: int | None = None, days: int | None = None) -> Plan:
    """The seeded plan of one run (``days`` may shorten the scenario)."""
    if days is not None and days != scenario.days:
        scenario = Scenario(scenario.path, {**scenario.data, "days": days})
    if seed is not None and seed != scenario.data["seed"]:
        scenario = Scenario(scenario.path, {**scenario.data, "seed": seed})
    streams = Streams(scenario.data["seed"], scenario.tz)
    begin, end = scenario.start, scenario.end
    people = household(scenario, streams)
    initial = initial_states(scenario)
    # Habits and visitors have their own random streams: without them, a home's plan is
    # what it was before they existed.
    extra = sorted([*habit_changes(scenario, people), *visitor_changes(scenario)], key=_when)

    def overlay(changes: list[Change]) -> list[Change]:
        seen = sorted([*changes, *extra], key=_when)
        return _apply_incidents(scenario, seen, _History(seen, initial), end)[1]

    routine = sorted([*routine_changes(scenario, people, streams, overlay), *extra], key=_when)
    history = _History(routine, initial)
    incidents, changes = _apply_incidents(scenario, routine, history, end)
    changes = _apply_noise(scenario, changes, initial, streams, end)
    changes = [c for c in changes if begin <= c.when < end]
    steps: list[Change | Restart | Outage | Feedback] = list(changes)
    restarts = [scenario.at(r) for r in scenario.data["noise"]["restarts"]]
    steps += [Restart(r) for r in restarts if r < end]
    outages = [o for o in _outages(scenario) if o.when < end]
    steps += outages
    for item in scenario.data["feedback"]:
        when = scenario.at(item["at"])
        if when < end:
            steps.append(Feedback(when, item["action"], item["incident"]))
    order = {Change: 0, Restart: 1, Outage: 1, Feedback: 2}
    steps.sort(key=lambda s: (s.when, order[type(s)]))
    return Plan(
        initial=initial,
        steps=steps,
        incidents=[i for i in incidents if i.start < end],
        restarts=[r for r in restarts if r < end],
        end=end,
        outages=outages,
        stats={
            "changes": len(changes),
            "skipped_incidents": sum(i.start >= end for i in incidents),
        },
    )


def _when(change: Change) -> datetime:
    return change.when


def _outages(scenario: Scenario) -> list[Outage]:
    return [
        Outage(scenario.at(o["at"]), scenario.at(o["at"]) + timedelta(minutes=o["minutes"]))
        for o in scenario.data["noise"]["outages"]
    ]


def _apply_incidents(
    scenario: Scenario, routine: list[Change], history: _History, end: datetime
) -> tuple[list[IncidentSpan], list[Change]]:
    spans: list[IncidentSpan] = []
    added: list[Change] = []
    blocked: dict[str, list[tuple[datetime, datetime]]] = {}
    for incident in scenario.data["incidents"]:
        start = scenario.at(incident["at"])
        stop = start + timedelta(minutes=incident["duration"])
        touched = {c["entity"] for c in incident["changes"]}
        spans.append(
            IncidentSpan(
                id=incident["id"],
                start=start,
                end=stop,
                entities=frozenset(touched | set(incident["evidence"])),
                spec=incident,
            )
        )
        source = f"{incident['expect']}:{incident['id']}"
        for change in incident["changes"]:
            added.append(
                Change(
                    start + timedelta(minutes=change["after"]),
                    change["entity"],
                    change["state"],
                    change["attributes"] or None,
                    source,
                )
            )
        for entity in sorted(touched):  # the same order in every process
            blocked.setdefault(entity, []).append((start, stop))
            state, attributes = history.at(entity, stop)
            added.append(Change(stop, entity, state, attributes, f"end:{incident['id']}"))
    kept = [
        c for c in routine if not any(a <= c.when <= b for a, b in blocked.get(c.entity_id, ()))
    ]
    return spans, sorted([*kept, *added], key=lambda c: c.when)


def _apply_noise(
    scenario: Scenario,
    changes: list[Change],
    initial: Mapping[str, Any],
    streams: Streams,
    end: datetime,
) -> list[Change]:
    noise = scenario.data["noise"]
    begin = scenario.start
    span_minutes = (end - begin).total_seconds() / 60
    outages: list[tuple[str, datetime, datetime, str]] = []
    if "tracker_unknown" in noise:
        config = noise["tracker_unknown"]
        for person in scenario.data["home"]["persons"]:
            tracker = person.get("tracker") or f"device_tracker.{person['id']}_phone"
            rng = streams.named("tracker-unknown", person["id"])
            for _ in range(_poisson(rng, config["per_day"] * scenario.days)):
                start = begin + timedelta(minutes=rng.uniform(0, span_minutes))
                length = timedelta(minutes=rng.uniform(*config["minutes"]))
                outages.append((tracker, start, start + length, "unknown"))
                outages.append((f"person.{person['id']}", start, start + length, "unknown"))
    if "unavailable" in noise:
        config = noise["unavailable"]
        pool = config.get("entities") or [
            e["entity_id"] for e in scenario.data["home"]["entities"] if e["zigbee"]
        ]
        rng = streams.named("unavailable")
        for _ in range(_poisson(rng, config["per_day"] * scenario.days) if pool else 0):
            entity = rng.choice(pool)
            start = begin + timedelta(minutes=rng.uniform(0, span_minutes))
            length = timedelta(minutes=rng.uniform(*config["minutes"]))
            outages.append((entity, start, start + length, "unavailable"))
    # Phones read unknown while HA starts again: after a restart and after a power cut.
    starts = [scenario.at(r) for r in noise["restarts"]] + [o.until for o in _outages(scenario)]
    for at in starts:
        length = timedelta(minutes=noise["unknown_after_restart"])
        for person in scenario.data["home"]["persons"]:
            tracker = person.get("tracker") or f"device_tracker.{person['id']}_phone"
            for entity in (tracker, f"person.{person['id']}"):
                outages.append((entity, at, at + length, "unknown"))
    history = _History(changes, initial)
    silenced: dict[str, list[tuple[datetime, datetime]]] = {}
    extra: list[Change] = []
    for entity, start, stop, state in outages:
        silenced.setdefault(entity, []).append((start, stop))
        extra.append(Change(start, entity, state, None, "noise"))
        true_state, attributes = history.at(entity, stop)
        extra.append(Change(stop, entity, true_state, attributes, "noise"))
    kept = [c for c in changes if not any(a < c.when < b for a, b in silenced.get(c.entity_id, ()))]
    jitter = noise["jitter"]
    if jitter:
        kept = [_jittered(c, jitter, streams) for c in kept]
    return sorted([*kept, *extra], key=lambda c: c.when)


def _jittered(change: Change, amount: float, streams: Streams) -> Change:
    """Numeric readings wobble a little, as real sensors do (incident values stay exact)."""
    if change.source != "routine" or not change.entity_id.startswith("sensor."):
        return change
    try:
        value = float(change.state)
    except ValueError:
        return change
    decimals = len(change.state.partition(".")[2])
    # Each reading its own draw: a reading added or dropped elsewhere moves no other one.
    rng = streams.once("jitter", change.entity_id, change.when.isoformat())
    wobbled = round(value + rng.uniform(-amount, amount), max(1, decimals))
    return Change(change.when, change.entity_id, f"{wobbled}", change.attributes, change.source)


def _poisson(rng: random.Random, mean: float) -> int:
    """A Poisson-distributed count (Knuth's method; the means here are small)."""
    if mean <= 0:
        return 0
    count, threshold, product = 0, pow(2.718281828459045, -mean), rng.random()
    while product > threshold:
        count += 1
        product *= rng.random()
    return count
