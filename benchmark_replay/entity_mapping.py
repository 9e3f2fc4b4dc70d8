"""Turn a benchmark device name and its values into the Home Assistant entity a real home has.

The mapping is a table of name patterns and value kinds (``device_kinds.DEVICE_KINDS``,
in the words of ``device_vocab.py``), never a per-sample list: a device name is split
into an area ("Kitchen", "living_room") and device words ("gas leak sensor", "temp
sensor", "phone sleep confidence"); the first
table row whose pattern matches the device words (and whose value kind fits) decides
the domain, device_class and unit; a per-domain vocabulary turns the raw value into the
HA state. Unmatched devices fall back on their values: numbers with a unit suffix
become sensors with that unit, on/off vocabularies binary sensors, the rest text sensors.

``home_mapping.HomeMapping`` maps a whole sample this way. Design choices (see
docs/benchmarks.md for the full table):

- **One dataset device, one entity**, so evidence maps back exactly and the AL score
  stays honest. The single exception is a thermostat in a snapshot: an area with a
  *thermostat mode* device becomes one ``climate`` entity whose state is the hvac_mode,
  with ``hvac_action`` (from the *HVAC status* device), ``temperature`` (target) and
  ``current_temperature`` (copied from the area's temperature sensor, which stays its
  own entity). That is what a real thermostat looks like in HA; evidence on it maps
  back to the mode, target and status devices it was built from (SmartBench's own
  answers cite those three together). Traces are never merged: a transition is a state
  change, so each device keeps its own entity and its own transitions.
- **Faults**: "unavailable", "offline", "timeout"... become ``unavailable``; "unknown",
  "—", "-" become ``unknown``. The raw text stays in the ``raw_state`` attribute. A
  connectivity sensor is the exception: its "offline" is its real ``off`` state.
- States longer than HA's 255-character limit are clipped; the full text is kept in
  ``raw_state``.

Entity ids are slugs of area + device words (``binary_sensor.kitchen_gas_leak_sensor``,
``sensor.phone_sleep_confidence``); ids that already start with an HA domain keep it
(``light.livingRoom`` → ``light.living_room``, ``sun`` → ``sun.sun``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
import re
from typing import Any

from .device_kinds import (
    DEVICE_KINDS,
    DOMAIN_KINDS,
    FALLBACK_BINARY,
    FALLBACK_TEXT,
    DeviceKind,
    kind_row,
)
from .device_vocab import (
    ANNOTATION_PREFIXES,
    BINARY_VOCAB,
    UNAVAILABLE_MARKERS,
    UNIT_SUFFIXES,
    UNKNOWN_MARKERS,
)

MAX_STATE_LENGTH = 255  # Home Assistant refuses longer states

# Areas recognised at the start of a device name (longest first). General room names,
# not a list taken from one benchmark.
ROOM_NAMES: tuple[str, ...] = tuple(
    sorted(
        {
            "master bedroom",
            "guest bedroom",
            "kids bedroom",
            "living room",
            "dining room",
            "family room",
            "laundry room",
            "utility room",
            "home office",
            "front door",
            "back door",
            "front yard",
            "back yard",
            "backyard",
            "kitchen",
            "bathroom",
            "bedroom",
            "office",
            "study",
            "garage",
            "basement",
            "attic",
            "hallway",
            "hall",
            "entrance",
            "entryway",
            "foyer",
            "porch",
            "patio",
            "garden",
            "shed",
            "nursery",
            "balcony",
            "cellar",
            "loft",
            "toilet",
            "lounge",
        },
        key=lambda room: (-len(room), room),
    )
)

# Domains kept when a device id already starts with one ("light.livingRoom").
HA_DOMAINS = frozenset(
    {
        "alarm_control_panel",
        "automation",
        "binary_sensor",
        "camera",
        "climate",
        "cover",
        "device_tracker",
        "fan",
        "light",
        "lock",
        "media_player",
        "number",
        "person",
        "sensor",
        "sun",
        "switch",
        "vacuum",
        "weather",
    }
)

_NUMBER_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([a-zA-Z%°]*)\s*$")


@dataclass(frozen=True, slots=True)
class ParsedName:
    """A device name split into what HA keeps apart."""

    device: str  # the dataset's name, untouched
    area: str | None  # "Living Room"
    words: str  # lower-case device words without the area: "temp sensor"
    object_id: str  # slug for the entity id: "living_room_temp_sensor"
    friendly_name: str  # "Living Room Temp Sensor"
    domain_hint: str | None = None  # HA domain the id already carried


@dataclass(frozen=True, slots=True)
class EntitySpec:
    """A fake entity: what ``hass.states.async_set`` receives, plus area and sources."""

    entity_id: str
    state: str
    attributes: Mapping[str, Any]
    area: str | None = None
    sources: tuple[str, ...] = ()  # dataset device names this entity stands for

    @property
    def domain(self) -> str:
        """The entity's domain."""
        return self.entity_id.partition(".")[0]

    @property
    def name(self) -> str:
        """Friendly name."""
        return str(self.attributes.get("friendly_name") or self.entity_id)

    @property
    def device_class(self) -> str | None:
        """HA device class, if any."""
        value = self.attributes.get("device_class")
        return str(value) if value is not None else None

    @property
    def unit(self) -> str | None:
        """Unit of measurement, if any."""
        value = self.attributes.get("unit_of_measurement")
        return str(value) if value is not None else None


def split_words(text: str) -> str:
    """``"hue.motionSensor.motion"`` → ``"hue motion sensor motion"``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    spaced = re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", " ", spaced)
    spaced = re.sub(r"(?<=[a-z]{3})(?=[0-9])", " ", spaced)  # "Lamp2" → "Lamp 2", not "co2"
    spaced = re.sub(r"[^A-Za-z0-9%]+", " ", spaced)
    return " ".join(spaced.lower().split())


def slugify(text: str) -> str:
    """An HA object id: lower-case ascii letters, digits and single underscores."""
    slug = re.sub(r"[^a-z0-9]+", "_", split_words(text).replace("%", " percent "))
    return slug.strip("_") or "device"


def parse_name(device: str) -> ParsedName:
    """Find the area and the device words in a dataset device name."""
    words = split_words(device)
    domain_hint: str | None = None
    head, dot, rest = device.partition(".")
    if dot and head in HA_DOMAINS and rest:
        domain_hint = head
        words = split_words(rest)
    elif not dot and device.strip().lower() in HA_DOMAINS:
        domain_hint = device.strip().lower()  # "sun" → sun.sun
    area: str | None = None
    for room in ROOM_NAMES:
        if words == room or words.startswith(room + " "):
            area = room.title()
            break
    device_words = words[len(area) :].strip() if area else words
    if not device_words:
        device_words = words
    if " " in device.strip() and not re.search(r"[._]", device):
        friendly = " ".join(device.split())  # already a display name ("Kitchen Gas Leak Sensor")
    else:
        friendly = " ".join(_display_word(w) for w in words.split()) or device
    return ParsedName(
        device=device,
        area=area,
        words=device_words,
        object_id=slugify(words) if words else "device",
        friendly_name=friendly,
        domain_hint=domain_hint,
    )


_ACRONYMS = frozenset({"hvac", "tv", "co", "co2", "ev", "ip", "ac", "usb", "led", "rssi"})


def _display_word(word: str) -> str:
    return word.upper() if word in _ACRONYMS else word.capitalize()


def normalise_value(raw: str) -> tuple[str, bool]:
    """Strip annotation prefixes ("FAILURE_START:OFFLINE") and blanks; tell if changed."""
    text = raw.strip()
    head, sep, tail = text.partition(":")
    if sep and head.strip().lower() in ANNOTATION_PREFIXES:
        return tail.strip(), True
    return text, text != raw


def fault_state(value: str) -> str | None:
    """``unavailable`` / ``unknown`` for fault markers and dashes, else ``None``."""
    lowered = value.strip().lower()
    if lowered in UNAVAILABLE_MARKERS:
        return "unavailable"
    if lowered in UNKNOWN_MARKERS or re.fullmatch(r"[\s\-—–_.?]+", lowered):
        return "unknown"
    return None


def parse_number_with_unit(value: str) -> tuple[float, str] | None:
    """``"21.0C"`` → ``(21.0, "c")``; ``"SETPOINT:21.0C"`` → ``(21.0, "c")``."""
    text = value.strip()
    head, sep, tail = text.partition(":")
    if sep and not _NUMBER_RE.match(text) and re.fullmatch(r"[A-Za-z_]+", head.strip()):
        text = tail  # a labelled reading such as SETPOINT:21.0C
    match = _NUMBER_RE.match(text)
    if match is None:
        return None
    return float(match.group(1)), match.group(2).lower()


def _format_number(number: float) -> str:
    return str(int(number)) if number.is_integer() and abs(number) < 1e15 else repr(number)


def value_kind(values: Iterable[str]) -> str:
    """ "numeric" when every non-fault value is a number, "text" when one is not,
    "unknown" when every value is a fault marker."""
    seen = False
    for raw in values:
        value, _ = normalise_value(raw)
        if fault_state(value) is not None:
            continue
        seen = True
        if parse_number_with_unit(value) is None:
            return "text"
    return "numeric" if seen else "unknown"


def classify(name: ParsedName, values: Sequence[str]) -> DeviceKind:
    """The table row for a device, given every value it takes in the sample."""
    # A trace repeats a device's few values hundreds of times; only which occur (and the
    # first occurrence of each, for the numeric fallback) decides.
    values = tuple(dict.fromkeys(values))
    kind = value_kind(values)
    hinted = DOMAIN_KINDS.get(name.domain_hint or "")
    if hinted is not None and _fits(hinted, values):
        return hinted
    for row in DEVICE_KINDS:
        if row.values == "numeric" and kind != "numeric":
            continue
        if row.values == "text" and kind == "numeric":
            continue
        if row.pattern.search(name.words) and _fits(row, values):
            return row
    if kind == "numeric":
        return _numeric_fallback(values)
    lowered = {normalise_value(v)[0].lower() for v in values}
    lowered = {v for v in lowered if fault_state(v) is None}
    if lowered and lowered <= set(BINARY_VOCAB):
        return FALLBACK_BINARY
    return FALLBACK_TEXT


def _fits(row: DeviceKind, values: Sequence[str]) -> bool:
    """A row with a vocabulary only takes devices whose readings are all in it (or faults):
    "maintenance time window" reading a JSON text is no window contact."""
    if row.vocab is None:
        return True
    for raw in values:
        value = normalise_value(raw)[0]
        key = re.sub(r"\s+", "_", value.lower())
        if key in row.vocab or key.split(":")[0] in row.vocab or fault_state(value) is not None:
            continue
        return False
    return True


def _numeric_fallback(values: Sequence[str]) -> DeviceKind:
    for raw in values:
        parsed = parse_number_with_unit(normalise_value(raw)[0])
        if parsed and parsed[1] in UNIT_SUFFIXES:
            device_class, unit = UNIT_SUFFIXES[parsed[1]]
            return kind_row(f"numeric_{parsed[1]}", "", "sensor", device_class, unit)
    return kind_row("numeric", "", "sensor")


def convert_state(kind: DeviceKind, raw: str) -> tuple[str, dict[str, Any]]:
    """The HA state for ``raw`` under ``kind``, and extra attributes (raw text, brightness)."""
    value, annotated = normalise_value(raw)
    extra: dict[str, Any] = {}
    lowered = value.lower()
    lowered_key = re.sub(r"\s+", "_", lowered)
    if kind.vocab is not None and lowered_key in kind.vocab:
        state = kind.vocab[lowered_key]
    elif (
        kind.vocab is not None
        and kind.domain == "light"
        and lowered_key.split(":")[0] in (kind.vocab)
    ):
        # "ON:60%:NEUTRAL": the state, then brightness and colour mode.
        parts = value.split(":")
        state = kind.vocab[parts[0].lower()]
        for part in parts[1:]:
            parsed = parse_number_with_unit(part)
            if parsed and parsed[1] == "%":
                extra["brightness"] = round(parsed[0] * 255 / 100)
    elif (fault := fault_state(value)) is not None:
        state = fault
    elif (
        kind.domain in ("sensor", "number")
        and kind.values != "text"
        and (parsed := parse_number_with_unit(value))
    ):
        state = _format_number(parsed[0])
    elif kind.domain in ("sensor",):
        state = value if not value.isupper() else lowered
    else:
        # A value the domain has no word for: keep it, lower-cased like HA states.
        state = lowered_key
    if len(state) > MAX_STATE_LENGTH:
        state = state[: MAX_STATE_LENGTH - 1] + "…"
        annotated = True
    if annotated or (state in ("unavailable", "unknown") and lowered != state):
        extra["raw_state"] = raw
    return state, extra


# Ids the environment uses; a device never takes them.
WEATHER_ENTITY = "weather.home"
SUN_ENTITY = "sun.sun"
LIGHT_LEVEL_ENTITY = "sensor.outdoor_light_level"
PERSON_PREFIX = "person.resident_"
RESERVED_ENTITY_IDS = frozenset({WEATHER_ENTITY, LIGHT_LEVEL_ENTITY})
