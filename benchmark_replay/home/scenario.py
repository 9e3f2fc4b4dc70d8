"""Scenario files: YAML validated with voluptuous, refused whole with the file, line and key.

The format is documented in ``docs/home_scenarios.md``; keep the two in step. A scenario
either loads completely or raises :class:`ScenarioError`; nothing half-runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from pathlib import Path
import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from homeassistant.exceptions import HomeAssistantError
from homeassistant.util.yaml.loader import parse_yaml
import voluptuous as vol

# Classes whose incidents are safety incidents (target: every one notified within 2 min).
SAFETY_CLASSES = frozenset({"smoke", "carbon_monoxide", "gas", "leak"})
PROGRAMS = ("washing_machine", "dishwasher", "dryer", "oven", "kettle", "fridge")
ACTIONS = ("acknowledge", "false_alarm", "remove_mark")
DEFAULT_WITHIN_SAFETY = 2  # minutes
DEFAULT_WITHIN = 30

_ENTITY_ID = re.compile(r"^[a-z0-9_]+\.[a-z0-9_]+$")
_SLUG = re.compile(r"^[a-z0-9_]+$")
_HHMM = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
_DAY_TIME = re.compile(r"^day\s+(\d+)\s+([01]?\d|2[0-3]):([0-5]\d)$")


class ScenarioError(Exception):
    """A scenario file that cannot be run; the message names file, line and key."""


def _entity_id(value: Any) -> str:
    text = str(value).strip()
    if not _ENTITY_ID.match(text):
        raise vol.Invalid("expected an entity id such as binary_sensor.kitchen_smoke")
    return text


def _slug(value: Any) -> str:
    text = str(value).strip()
    if not _SLUG.match(text):
        raise vol.Invalid("expected lower-case letters, digits and underscores")
    return text


def _hhmm(value: Any) -> time:
    match = _HHMM.match(str(value).strip())
    if not match:
        raise vol.Invalid("expected a time of day HH:MM")
    return time(int(match.group(1)), int(match.group(2)))


def _day_time(value: Any) -> tuple[int, time]:
    """``day N HH:MM`` (day 1 is the start date)."""
    match = _DAY_TIME.match(str(value).strip())
    if not match or int(match.group(1)) < 1:
        raise vol.Invalid("expected 'day N HH:MM' with N >= 1, e.g. 'day 3 14:05'")
    return int(match.group(1)), time(int(match.group(2)), int(match.group(3)))


def _date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value).strip())
    except ValueError as err:
        raise vol.Invalid("expected a date YYYY-MM-DD") from err


def _timezone(value: Any) -> str:
    try:
        ZoneInfo(str(value))
    except (ZoneInfoNotFoundError, ValueError) as err:
        raise vol.Invalid("expected an IANA time zone such as Europe/Amsterdam") from err
    return str(value)


def _minutes_range(value: Any) -> tuple[float, float]:
    low, high = vol.Schema(vol.All([vol.Coerce(float)], vol.Length(min=2, max=2)))(value)
    if not 0 <= low <= high:
        raise vol.Invalid("expected [low, high] minutes with 0 <= low <= high")
    return low, high


def _text(value: Any) -> str:
    if value is None or isinstance(value, dict | list):
        raise vol.Invalid("expected text")
    return str(value)


_MINUTES = vol.All(vol.Coerce(float), vol.Range(min=0))
_PERIOD = vol.Schema({vol.Required("from"): _date, vol.Required("to"): _date})
_SCHEDULE = vol.Schema(
    {
        vol.Required("wake"): _hhmm,
        vol.Required("sleep"): _hhmm,
        vol.Inclusive("leave", "outing"): vol.Any(None, _hhmm),
        vol.Inclusive("return", "outing"): vol.Any(None, _hhmm),
    }
)
_ENTITY = vol.Schema(
    {
        vol.Required("entity_id"): _entity_id,
        vol.Optional("name"): _text,
        vol.Optional("device_class"): _text,
        vol.Optional("unit"): _text,
        vol.Optional("area"): _text,
        vol.Optional("state"): _text,
        vol.Optional("attributes", default={}): {str: object},
        vol.Optional("zigbee", default=False): bool,
        # Entities of one physical device share this key (a plug's switch and its meter):
        # registered as one device in HA's device registry.
        vol.Optional("device"): _slug,
    }
)
_PERSON = vol.Schema(
    {
        vol.Required("id"): _slug,
        vol.Optional("name"): _text,
        vol.Optional("tracker"): _entity_id,
    }
)
_APPLIANCE = vol.Schema(
    {
        vol.Required("power"): _entity_id,
        vol.Optional("switch"): _entity_id,
        vol.Required("program"): vol.In(PROGRAMS),
        vol.Optional("runs_per_week", default=3): vol.All(vol.Coerce(float), vol.Range(0, 21)),
        vol.Optional("at", default=["19:00"]): [_hhmm],
    }
)
_CLIMATE = vol.Schema(
    {
        vol.Required("entity"): _entity_id,
        vol.Optional("sensor"): _entity_id,
        vol.Optional("comfort", default=21.0): vol.Coerce(float),
        vol.Optional("eco", default=17.0): vol.Coerce(float),
    }
)
_MOTION_LIGHT = vol.Schema(
    {
        vol.Required("motion"): _entity_id,
        vol.Required("light"): _entity_id,
        vol.Optional("by", default="automation"): vol.In(("automation", "hand")),
        vol.Optional("share"): vol.All(vol.Coerce(float), vol.Range(0, 1)),
        vol.Optional("off_after", default=2.0): _MINUTES,
    }
)
_EFFECTS = vol.Schema(
    {
        vol.Optional("entrance"): vol.Schema(
            {vol.Required("door"): _entity_id, vol.Optional("lock"): _entity_id}
        ),
        vol.Optional("motion", default=[]): [_entity_id],
        vol.Optional("motion_per_hour", default=2.0): vol.All(vol.Coerce(float), vol.Range(0, 60)),
        vol.Optional("lights", default=[]): [_entity_id],
        vol.Optional("motion_lights", default=[]): [_MOTION_LIGHT],
        vol.Optional("climate", default=[]): [_CLIMATE],
        vol.Optional("appliances", default=[]): [_APPLIANCE],
        vol.Optional("pets"): vol.Schema(
            {
                vol.Required("motion"): [_entity_id],
                vol.Optional("per_hour", default=1.0): vol.All(vol.Coerce(float), vol.Range(0, 60)),
            }
        ),
    }
)
_PERSON_ROUTINE = vol.Schema(
    {
        vol.Required("person"): _slug,
        vol.Required("weekdays"): _SCHEDULE,
        vol.Optional("weekends"): _SCHEDULE,
        vol.Optional("jitter", default=15.0): _MINUTES,
        vol.Optional("holidays", default=[]): [_PERIOD],
    }
)
_CHANGE = vol.Schema(
    {
        vol.Required("entity"): _entity_id,
        vol.Required("state"): _text,
        vol.Optional("attributes", default={}): {str: object},
        vol.Optional("after", default=0.0): _MINUTES,
    }
)
_INCIDENT = vol.Schema(
    {
        vol.Required("id"): _slug,
        vol.Required("class"): _slug,
        vol.Required("at"): _day_time,
        vol.Required("duration"): vol.All(vol.Coerce(float), vol.Range(min=1)),
        vol.Required("changes"): vol.All([_CHANGE], vol.Length(min=1)),
        vol.Required("expect"): vol.In(("notify", "quiet")),
        vol.Optional("evidence", default=[]): [_entity_id],
        vol.Optional("within"): vol.All(vol.Coerce(float), vol.Range(min=0)),
        vol.Optional("while"): vol.In(("away", "home")),
        vol.Optional("description", default=""): _text,
    }
)
_FEEDBACK = vol.Schema(
    {
        vol.Required("at"): _day_time,
        vol.Required("action"): vol.In(ACTIONS),
        vol.Required("incident"): _slug,
    }
)
SCHEMA = vol.Schema(
    {
        vol.Required("name"): _text,
        vol.Optional("description", default=""): _text,
        vol.Optional("start", default=date(2026, 1, 5)): _date,
        vol.Optional("days", default=14): vol.All(vol.Coerce(int), vol.Range(1, 90)),
        vol.Optional("seed", default=0): vol.Coerce(int),
        vol.Optional("timezone", default="UTC"): _timezone,
        vol.Optional("latitude", default=52.37): vol.All(vol.Coerce(float), vol.Range(-90, 90)),
        vol.Optional("longitude", default=4.89): vol.All(vol.Coerce(float), vol.Range(-180, 180)),
        vol.Required("home"): vol.Schema(
            {
                vol.Required("areas"): vol.All([_text], vol.Length(min=1)),
                vol.Required("entities"): vol.All([_ENTITY], vol.Length(min=1)),
                vol.Optional("persons", default=[]): [_PERSON],
                vol.Optional("weather", default={}): vol.Schema(
                    {
                        vol.Optional("entity_id", default="weather.home"): _entity_id,
                        vol.Optional("mean", default=8.0): vol.Coerce(float),
                        vol.Optional("swing", default=4.0): vol.Coerce(float),
                    }
                ),
            }
        ),
        vol.Optional("household", default={}): vol.Schema(
            {
                vol.Optional("profile", default=""): _text,
                # Entities the homeowner adds to the monitor (options: include entities).
                vol.Optional("watch", default=[]): [_entity_id],
                vol.Optional("holidays", default=[]): [_PERIOD],
                vol.Optional("people", default=[]): [_PERSON_ROUTINE],
                vol.Optional("effects", default={}): _EFFECTS,
            }
        ),
        vol.Optional("noise", default={}): vol.Schema(
            {
                vol.Optional("tracker_unknown"): vol.Schema(
                    {
                        vol.Optional("per_day", default=0.5): _MINUTES,
                        vol.Optional("minutes", default=[2, 15]): _minutes_range,
                    }
                ),
                vol.Optional("unavailable"): vol.Schema(
                    {
                        vol.Optional("entities"): [_entity_id],
                        vol.Optional("per_day", default=1.0): _MINUTES,
                        vol.Optional("minutes", default=[1, 5]): _minutes_range,
                    }
                ),
                vol.Optional("jitter", default=0.2): _MINUTES,
                vol.Optional("restarts", default=[]): [_day_time],
                vol.Optional("unknown_after_restart", default=3.0): _MINUTES,
            }
        ),
        vol.Optional("incidents", default=[]): [_INCIDENT],
        vol.Optional("feedback", default=[]): [_FEEDBACK],
    }
)


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

    @property
    def start(self) -> datetime:
        """Midnight of day 1, local time."""
        return datetime.combine(self.data["start"], time(0, 0), tzinfo=self.tz)

    def at(self, day_time: tuple[int, time]) -> datetime:
        """The moment of a ``day N HH:MM``."""
        day, clock = day_time
        return datetime.combine(self.data["start"] + timedelta(days=day - 1), clock, self.tz)

    @property
    def days(self) -> int:
        """Simulated days."""
        return int(self.data["days"])

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
    return Scenario(path=path, data=data)


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
    if message == "extra keys not allowed":
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
    for index, climate in enumerate(effects["climate"]):
        for key in ("entity", "sensor"):
            if key in climate:
                need(["household", "effects", "climate", index, key], climate[key])
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
