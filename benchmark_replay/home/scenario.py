"""Scenario files: YAML validated with voluptuous, refused whole with the file, line and key.

The format is documented in ``docs/home_scenarios.md``; keep the two in step. A scenario
either loads completely or raises :class:`ScenarioError`; nothing half-runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from homeassistant.exceptions import HomeAssistantError
from homeassistant.util.yaml.loader import parse_yaml
import voluptuous as vol

from .scenario_schema import (
    DAY_NAMES,
    DEFAULT_WITHIN,
    DEFAULT_WITHIN_SAFETY,
    FAHRENHEIT,
    SAFETY_CLASSES,
    SCHEMA,
    UNIT_DEFAULTS,
)


class ScenarioError(Exception):
    """A scenario file that cannot be run; the message names file, line and key."""


@dataclass(frozen=True, slots=True)
class Scenario:
    """A validated scenario; ``data`` is the schema's output (defaults filled in)."""

    path: Path
    data: Mapping[str, Any]

    @property
    def name(self) -> str:
        """Human name of the home."""
        return str(self.data["name"])

    @property
    def tz(self) -> tzinfo:
        """The home's time zone."""
        return ZoneInfo(self.data["timezone"]) if self.data["timezone"] != "UTC" else UTC

    def local(self, day: date, clock: time) -> datetime:
        """The moment of a local date and time of day, in UTC.

        Plans are built in UTC: arithmetic on a zone-aware datetime is wall-clock
        arithmetic in Python, which across a daylight-saving change makes local times
        that do not exist and compares out of time order. A time in the spring gap
        reads as the time after it (02:30 → 03:30); one in the autumn's repeated hour
        as its first occurrence.
        """
        return datetime.combine(day, clock, self.tz).astimezone(UTC)

    @property
    def start(self) -> datetime:
        """Midnight of day 1, local time (in UTC)."""
        return self.local(self.data["start"], time(0, 0))

    @property
    def end(self) -> datetime:
        """Midnight after the last day, local time (in UTC): a run across a daylight-saving
        change is an hour shorter or longer, and ``day N 23:30`` is always in it."""
        return self.local(self.data["start"] + timedelta(days=self.days), time(0, 0))

    def at(self, day_time: tuple[int, time]) -> datetime:
        """The moment of a ``day N HH:MM`` (in UTC)."""
        day, clock = day_time
        return self.local(self.data["start"] + timedelta(days=day - 1), clock)

    @property
    def days(self) -> int:
        """Simulated days."""
        return int(self.data["days"])

    def dates(self, weekdays: Sequence[int]) -> list[date]:
        """The run's calendar days that fall on ``weekdays`` (0 is Monday)."""
        every = (self.data["start"] + timedelta(days=n) for n in range(self.days))
        return [day for day in every if day.weekday() in weekdays]

    def entity(self, entity_id: str) -> Mapping[str, Any]:
        """The home's declaration of an entity."""
        return next(e for e in self.data["home"]["entities"] if e["entity_id"] == entity_id)


def load_scenario(path: Path) -> Scenario:
    """Read and validate one file; every problem raises :class:`ScenarioError`."""
    try:
        raw = parse_yaml(path.read_text(encoding="utf-8"))
    except (OSError, HomeAssistantError, UnicodeDecodeError) as err:
        raise ScenarioError(f"{path}: cannot read YAML: {err}") from err
    if not isinstance(raw, dict):
        raise ScenarioError(f"{path}: expected a mapping at the top level")
    try:
        data = SCHEMA(raw)
    except vol.MultipleInvalid as err:
        raise ScenarioError(_describe(path, raw, err.errors[0])) from err
    except vol.Invalid as err:
        raise ScenarioError(_describe(path, raw, err)) from err
    problems = list(_cross_check(data))
    if problems:
        key_path, message = problems[0]
        raise ScenarioError(_describe(path, raw, vol.Invalid(message, path=key_path)))
    _unit_defaults(data)
    return Scenario(path=path, data=data)


def _unit_defaults(data: dict[str, Any]) -> None:
    """Temperatures left out get their defaults in the home's unit (21 °C or 70 °F)."""
    column = int(data["home"]["temperature_unit"] == FAHRENHEIT)
    weather = data["home"]["weather"]
    for key in ("mean", "swing"):
        weather.setdefault(key, UNIT_DEFAULTS[key][column])
    for climate in data["household"]["effects"]["climate"]:
        for key in ("comfort", "eco"):
            climate.setdefault(key, UNIT_DEFAULTS[key][column])


def scenario_files(target: Path) -> list[Path]:
    """The scenario at ``target``, or every ``*.yaml``/``*.yml`` in the folder."""
    if target.is_dir():
        files = sorted(p for p in target.iterdir() if p.suffix in (".yaml", ".yml"))
        if not files:
            raise ScenarioError(f"{target}: no *.yaml scenario in this folder")
        return files
    if not target.exists():
        raise ScenarioError(f"{target}: no such file or folder")
    return [target]


def _describe(path: Path, raw: Any, err: vol.Invalid) -> str:
    """``file:line: key.path: what was expected``."""
    keys = list(err.path)
    line = _line_of(raw, keys)
    where = f"{path}:{line}" if line else str(path)
    dotted = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")
    message = err.error_message or str(err)
    # voluptuous says "extra keys not allowed"; probatio (HA's voluptuous in 2026.10),
    # "not a valid option".
    if message in ("extra keys not allowed", "not a valid option"):
        message = "unknown key (see docs/home_scenarios.md)"
    elif message.startswith("required key not provided"):
        message = "required key missing"
    return f"{where}: {dotted or '(top level)'}: {message}"


def _line_of(raw: Any, keys: Sequence[Any]) -> int | None:
    """Line of the deepest node on ``keys`` that the YAML loader marked."""
    line, node = getattr(raw, "__line__", None), raw
    for key in keys:
        try:
            child = node[key]
        except (KeyError, IndexError, TypeError):
            if isinstance(node, dict):  # the key itself: the line of a sibling is close
                break
            break
        node = child
        line = getattr(node, "__line__", line)
    return line


def _cross_check(data: Mapping[str, Any]) -> list[tuple[list[Any], str]]:
    """References between sections: every entity, area, person and incident must exist."""
    problems: list[tuple[list[Any], str]] = []
    home = data["home"]
    areas = set(home["areas"])
    entities: set[str] = set()
    for index, entity in enumerate(home["entities"]):
        if entity["entity_id"] in entities:
            problems.append((["home", "entities", index, "entity_id"], "declared twice"))
        entities.add(entity["entity_id"])
        if entity.get("area") is not None and entity["area"] not in areas:
            problems.append(
                (["home", "entities", index, "area"], f"expected one of home.areas {sorted(areas)}")
            )
    persons = {p["id"] for p in home["persons"]}
    known = entities | {f"person.{p}" for p in persons}
    known |= {p.get("tracker") or f"device_tracker.{p['id']}_phone" for p in home["persons"]}
    known.add(home["weather"]["entity_id"])  # an incident may change the weather (a cold snap)

    def need(key_path: list[Any], entity_id: str) -> None:
        if entity_id not in known:
            problems.append((key_path, f"{entity_id} is not declared in home.entities"))

    household = data["household"]
    for index, routine in enumerate(household["people"]):
        if routine["person"] not in persons:
            problems.append(
                (["household", "people", index, "person"], "expected an id from home.persons")
            )
        missing = [
            name
            for number, name in enumerate(DAY_NAMES)
            if name not in routine
            and "weekdays" not in routine
            and not (number >= 5 and "weekends" in routine)
        ]
        if missing:
            problems.append(
                (
                    ["household", "people", index, "weekdays"],
                    f"required unless every day has its own routine (missing {', '.join(missing)})",
                )
            )
    for index, habit in enumerate(household["habits"]):
        where = ["household", "habits", index]
        if "person" in habit and habit["person"] not in persons:
            problems.append(([*where, "person"], "expected an id from home.persons"))
        for number, step in enumerate(habit["steps"]):
            need([*where, "steps", number, "entity"], step["entity"])
    for index, visitor in enumerate(household["visitors"]):
        where = ["household", "visitors", index]
        for key in ("door", "lock"):
            if key in visitor:
                need([*where, key], visitor[key])
        if "lock" in visitor and "door" not in visitor:
            problems.append(([*where, "lock"], "a lock needs its door (door:)"))
        for number, value in enumerate(visitor["motion"]):
            need([*where, "motion", number], value)
    for index, value in enumerate(household["watch"]):
        need(["household", "watch", index], value)
    effects = household["effects"]
    if "entrance" in effects:
        for key, value in effects["entrance"].items():
            need(["household", "effects", "entrance", key], value)
    for key in ("motion", "lights"):
        for index, value in enumerate(effects[key]):
            need(["household", "effects", key, index], value)
    for index, pair in enumerate(effects["motion_lights"]):
        for key in ("motion", "light"):
            need(["household", "effects", "motion_lights", index, key], pair[key])
    unit = home["temperature_unit"]
    for index, climate in enumerate(effects["climate"]):
        for key in ("entity", "sensor"):
            if key in climate:
                need(["household", "effects", "climate", index, key], climate[key])
        sensor = next((e for e in home["entities"] if e["entity_id"] == climate.get("sensor")), {})
        if sensor.get("unit") not in (None, unit):
            problems.append(
                (
                    ["household", "effects", "climate", index, "sensor"],
                    f"{sensor['entity_id']} reads {sensor['unit']}, expected {unit} "
                    "(home.temperature_unit)",
                )
            )
    for index, appliance in enumerate(effects["appliances"]):
        for key in ("power", "switch"):
            if key in appliance:
                need(["household", "effects", "appliances", index, key], appliance[key])
    for index, value in enumerate(effects.get("pets", {}).get("motion", [])):
        need(["household", "effects", "pets", "motion", index], value)
    for index, value in enumerate(data["noise"].get("unavailable", {}).get("entities", [])):
        need(["noise", "unavailable", "entities", index], value)
    days = data["days"]
    for index, restart in enumerate(data["noise"]["restarts"]):
        if restart[0] > days:
            problems.append((["noise", "restarts", index], f"expected a day <= days ({days})"))
    for index, outage in enumerate(data["noise"]["outages"]):
        if outage["at"][0] > days:
            problems.append((["noise", "outages", index, "at"], f"expected a day <= days ({days})"))
    incident_ids: dict[str, str] = {}
    for index, incident in enumerate(data["incidents"]):
        where = ["incidents", index]
        if incident["id"] in incident_ids:
            problems.append(([*where, "id"], "incident id used twice"))
        incident_ids[incident["id"]] = incident["expect"]
        for number, change in enumerate(incident["changes"]):
            need([*where, "changes", number, "entity"], change["entity"])
            if change["after"] >= incident["duration"]:
                problems.append(([*where, "changes", number, "after"], "expected < duration"))
        for number, value in enumerate(incident["evidence"]):
            need([*where, "evidence", number], value)
        if incident["expect"] == "notify" and not incident["evidence"]:
            problems.append(([*where, "evidence"], "expect: notify needs the evidence entities"))
        if incident["expect"] == "quiet" and incident["evidence"]:
            problems.append(([*where, "evidence"], "expect: quiet takes no evidence"))
        if incident["at"][0] > days:
            problems.append(([*where, "at"], f"expected a day <= days ({days})"))
    for index, item in enumerate(data["feedback"]):
        expect = incident_ids.get(item["incident"])
        if expect is None:
            problems.append((["feedback", index, "incident"], "expected an id from incidents"))
        elif expect != "notify":
            problems.append((["feedback", index, "incident"], "expected a notify incident"))
    return problems


def within_minutes(incident: Mapping[str, Any]) -> float:
    """How soon the incident must be notified to count as on time."""
    if "within" in incident:
        return float(incident["within"])
    return DEFAULT_WITHIN_SAFETY if incident["class"] in SAFETY_CLASSES else DEFAULT_WITHIN
