"""The scenario format's schema: voluptuous validators, defaults and the names it knows.

Documented in ``docs/home_scenarios.md``; keep the two in step. References between the
sections (entities, persons, incidents) are checked in :mod:`.scenario` once the schema
has passed.
"""

from __future__ import annotations

from datetime import date, datetime, time
import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import voluptuous as vol

# Classes whose incidents are safety incidents (target: every one notified within 2 min).
SAFETY_CLASSES = frozenset({"smoke", "carbon_monoxide", "gas", "leak"})
PROGRAMS = ("washing_machine", "dishwasher", "dryer", "oven", "kettle", "fridge")
ACTIONS = ("acknowledge", "false_alarm", "remove_mark")
EXPECTS = ("notify", "quiet", "either")
DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
HABIT_WHEN = ("home", "awake", "asleep", "away", "any")
CELSIUS, FAHRENHEIT = "°C", "°F"
# Defaults given in the home's temperature unit: (°C, °F).
UNIT_DEFAULTS = {
    "mean": (8.0, 46.4),
    "swing": (4.0, 7.2),
    "comfort": (21.0, 70.0),
    "eco": (17.0, 63.0),
}
DEFAULT_WITHIN_SAFETY = 2  # minutes
DEFAULT_WITHIN = 30

_ENTITY_ID = re.compile(r"^[a-z0-9_]+\.[a-z0-9_]+$")
_SLUG = re.compile(r"^[a-z0-9_]+$")
_HHMM = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
_DAY_TIME = re.compile(r"^day\s+(\d+)\s+([01]?\d|2[0-3]):([0-5]\d)$")


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


def _days(value: Any) -> tuple[int, ...]:
    """``daily``, ``weekdays``, ``weekends`` or a list of ``mon``…``sun``: weekday numbers."""
    named = {"daily": range(7), "weekdays": range(5), "weekends": range(5, 7)}
    if isinstance(value, str) and value.strip() in named:
        return tuple(named[value.strip()])
    if isinstance(value, list) and value and all(str(v).strip() in DAY_NAMES for v in value):
        return tuple(sorted({DAY_NAMES.index(str(v).strip()) for v in value}))
    raise vol.Invalid("expected daily, weekdays, weekends or a list of mon, tue, … sun")


def _times_of_day(value: Any) -> list[time]:
    """One ``HH:MM`` or a list of them."""
    items = value if isinstance(value, list) else [value]
    if not items:
        raise vol.Invalid("expected one or more times of day HH:MM")
    return [_hhmm(item) for item in items]


def _range(value: Any, kind: type = float) -> tuple[float, float]:
    """``[low, high]`` (or one number for both), 0 <= low <= high."""
    pair = value if isinstance(value, list) else [value, value]
    low, high = vol.Schema(vol.All([vol.Coerce(kind)], vol.Length(min=2, max=2)))(pair)
    if not 0 <= low <= high:
        raise vol.Invalid("expected [low, high] with 0 <= low <= high")
    return low, high


def _count_range(value: Any) -> tuple[int, int]:
    low, high = _range(value, int)
    if low < 1:
        raise vol.Invalid("expected [low, high] runs with 1 <= low <= high")
    return int(low), int(high)


def _text(value: Any) -> str:
    if value is None or isinstance(value, dict | list):
        raise vol.Invalid("expected text")
    return str(value)


_MINUTES = vol.All(vol.Coerce(float), vol.Range(min=0))
_PERIOD = vol.Schema({vol.Required("from"): _date, vol.Required("to"): _date})
_FRACTION = vol.All(vol.Coerce(float), vol.Range(0, 1))
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
        # Defaults depend on home.temperature_unit (UNIT_DEFAULTS).
        vol.Optional("comfort"): vol.Coerce(float),
        vol.Optional("eco"): vol.Coerce(float),
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
                vol.Optional("leaves_with_household", default=False): bool,
            }
        ),
    }
)
_PERSON_ROUTINE = vol.Schema(
    {
        vol.Required("person"): _slug,
        vol.Optional("weekdays"): _SCHEDULE,
        vol.Optional("weekends"): _SCHEDULE,
        **{vol.Optional(day): _SCHEDULE for day in DAY_NAMES},
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
_HABIT = vol.Schema(
    {
        vol.Required("name"): _text,
        vol.Optional("person"): _slug,
        vol.Optional("days", default="daily"): _days,
        vol.Required("at"): _times_of_day,
        vol.Optional("jitter", default=15.0): _MINUTES,
        vol.Optional("probability", default=1.0): _FRACTION,
        vol.Optional("when", default="home"): vol.In(HABIT_WHEN),
        vol.Optional("repeat"): vol.Schema(
            {vol.Required("count"): _count_range, vol.Required("gap"): _range}
        ),
        vol.Required("steps"): vol.All([_CHANGE], vol.Length(min=1)),
    }
)
_VISITOR = vol.Schema(
    {
        vol.Required("name"): _text,
        vol.Optional("days", default="daily"): _days,
        vol.Required("at"): _hhmm,
        vol.Optional("jitter", default=15.0): _MINUTES,
        vol.Required("stay"): _range,
        vol.Optional("door"): _entity_id,
        vol.Optional("lock"): _entity_id,
        vol.Optional("motion", default=[]): [_entity_id],
        vol.Optional("motion_per_hour", default=6.0): vol.All(vol.Coerce(float), vol.Range(0, 60)),
    }
)
_OUTAGE = vol.Schema(
    {
        vol.Required("at"): _day_time,
        vol.Required("minutes"): vol.All(vol.Coerce(float), vol.Range(min=1)),
    }
)
_INCIDENT = vol.Schema(
    {
        vol.Required("id"): _slug,
        vol.Required("class"): _slug,
        vol.Required("at"): _day_time,
        vol.Required("duration"): vol.All(vol.Coerce(float), vol.Range(min=1)),
        vol.Required("changes"): vol.All([_CHANGE], vol.Length(min=1)),
        vol.Required("expect"): vol.In(EXPECTS),
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
                vol.Optional("temperature_unit", default=CELSIUS): vol.In((CELSIUS, FAHRENHEIT)),
                vol.Optional("weather", default={}): vol.Schema(
                    {
                        vol.Optional("entity_id", default="weather.home"): _entity_id,
                        # Defaults depend on temperature_unit (UNIT_DEFAULTS).
                        vol.Optional("mean"): vol.Coerce(float),
                        vol.Optional("swing"): vol.Coerce(float),
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
                vol.Optional("habits", default=[]): [_HABIT],
                vol.Optional("visitors", default=[]): [_VISITOR],
            }
        ),
        vol.Optional("noise", default={}): vol.Schema(
            {
                vol.Optional("tracker_unknown"): vol.Schema(
                    {
                        vol.Optional("per_day", default=0.5): _MINUTES,
                        vol.Optional("minutes", default=[2, 15]): _range,
                    }
                ),
                vol.Optional("unavailable"): vol.Schema(
                    {
                        vol.Optional("entities"): [_entity_id],
                        vol.Optional("per_day", default=1.0): _MINUTES,
                        vol.Optional("minutes", default=[1, 5]): _range,
                    }
                ),
                vol.Optional("jitter", default=0.2): _MINUTES,
                vol.Optional("restarts", default=[]): [_day_time],
                vol.Optional("outages", default=[]): [_OUTAGE],
                vol.Optional("unknown_after_restart", default=3.0): _MINUTES,
            }
        ),
        vol.Optional("incidents", default=[]): [_INCIDENT],
        vol.Optional("feedback", default=[]): [_FEEDBACK],
    }
)
