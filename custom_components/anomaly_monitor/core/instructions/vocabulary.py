"""General English vocabulary for home devices, rooms, settings and verbs.

Canonical names are the keys; values are the phrases people use. Nothing here is specific
to one benchmark: it is the words a household uses for its devices.
"""

from __future__ import annotations

from functools import lru_cache
import re

# Device kinds → nouns (singular; plurals are matched too).
DEVICE_KINDS: dict[str, tuple[str, ...]] = {
    "light": ("light", "lamp", "bulb", "lighting", "lights"),
    "air_conditioner": ("air conditioner", "air conditioning", "air con", "aircon", "ac", "a/c"),
    "heater": ("heating system", "heating", "heater", "radiator", "heat pump"),
    "fan": ("ceiling fan", "fan"),
    "curtain": ("curtain", "drape"),
    "blinds": ("blinds", "blind", "shade", "shutter", "roller blind"),
    "garage_door": ("garage door", "garage gate"),
    "humidifier": ("humidifier",),
    "dehumidifier": ("dehumidifier",),
    "air_purifier": ("air purifier", "purifier", "air cleaner"),
    "water_heater": ("water heater", "boiler", "hot water heater", "geyser"),
    "media_player": (
        "media player",
        "media",
        "speaker",
        "music player",
        "stereo",
        "television",
        "tv",
    ),
    "vacuum": ("vacuum robot", "robot vacuum", "robotic vacuum", "vacuum cleaner", "vacuum"),
    "aromatherapy": (
        "aromatherapy device",
        "aromatherapy machine",
        "aromatherapy diffuser",
        "aromatherapy",
        "aroma diffuser",
        "essential oil diffuser",
        "diffuser",
    ),
    "trash": (
        "trash can",
        "trash bin",
        "garbage can",
        "garbage bin",
        "trash",
        "garbage",
        "rubbish",
    ),
    "thermostat": ("thermostat", "climate"),
    "lock": ("lock", "door lock"),
    # Not "switch": it is far more often the verb ("switch the fan to low").
    "switch": ("smart plug", "plug", "socket", "outlet"),
}

# Canonical attribute → phrases. Order in ATTRIBUTE_PRIORITY decides which wins when a clause
# names several ("auto swing mode" is a swing setting, not a mode).
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "fan_speed": ("fan speed", "fan mode", "fan level", "wind speed", "airflow"),
    "cleaning_area": ("cleaning area", "cleaning zone", "cleaning room", "area to clean"),
    "swing": ("swing", "oscillation", "fan direction", "airflow direction", "louver"),
    "brightness": ("brightness", "brightness level", "dimness", "light level"),
    "color": ("colour", "color"),
    "temperature": ("temperature", "temp", "setpoint", "set point"),
    "humidity": ("humidity", "target humidity", "moisture"),
    "position": ("position", "degree", "openness", "opening", "angle", "height"),
    "volume": ("volume", "sound level", "loudness"),
    "intensity": ("intensity", "strength", "concentration", "output level", "power level"),
    "interval": ("interval", "spray interval", "frequency"),
    "speed": ("speed",),
    "song": ("song", "track", "tune"),
    "artist": ("artist", "singer", "band"),
    "style": ("style", "genre", "music style"),
    "mode": ("mode", "setting", "preset", "program"),
}
ATTRIBUTE_PRIORITY = (
    "fan_speed",
    "cleaning_area",
    "swing",
    "brightness",
    "color",
    "temperature",
    "humidity",
    "position",
    "volume",
    "intensity",
    "interval",
    "speed",
    "song",
    "artist",
    "style",
    "mode",
)

# Which feature names an attribute word may land on, most specific first. A humidifier's
# "intensity" is its target humidity; a fan's "speed" may be its presets.
ATTRIBUTE_TARGETS: dict[str, tuple[str, ...]] = {
    "fan_speed": ("fan_speed", "speed"),
    "speed": ("speed", "fan_speed"),
    "intensity": ("intensity", "humidity"),
    "humidity": ("humidity", "intensity"),
    "position": ("position",),
    "mode": ("mode",),
}

# Unit words → canonical unit, and the attribute a unit suggests when none is named.
UNITS: dict[str, tuple[str, ...]] = {
    "percent": ("percent", "percentage", "%", "per cent"),
    "degree": ("degrees celsius", "degrees", "degree", "°c", "°"),
    "second": ("seconds", "second", "secs", "sec", "s"),
    "minute": ("minutes", "minute", "mins", "min"),
    "level": ("levels", "level", "steps", "step", "notches", "notch", "settings"),
}
UNIT_HINTS: dict[str, tuple[str, ...]] = {
    "degree": ("temperature", "position"),
    "second": ("interval",),
    "minute": ("interval",),
}

# Canonical actions → verb phrases (checked longest first).
ACTIONS: dict[str, tuple[str, ...]] = {
    "turn_on": ("turn on", "switch on", "power on", "activate", "enable", "light up"),
    "turn_off": (
        "turn off",
        "switch off",
        "power off",
        "shut off",
        "shut down",
        "deactivate",
        "disable",
    ),
    "open": ("open up", "open", "roll up", "draw back"),
    "close": ("close", "shut", "roll down", "draw"),
    "play": ("play", "resume", "unpause"),
    "pause": ("pause",),
    "stop": ("stop", "halt"),
    "start": ("start", "begin", "launch"),
    "return_home": ("charge", "dock", "recharge", "return to base", "go home", "return home"),
    "pack": (
        "pack up",
        "pack",
        "compress",
        "compact",
        "empty",
        "take out",
        "bag",
        "dispose of",
        "throw away",
        "throw out",
    ),
    "clean": ("vacuum", "clean", "sweep", "tidy"),
}
# An action the device lacks may be done by a close equivalent.
ACTION_FALLBACKS: dict[str, tuple[str, ...]] = {
    "turn_on": ("turn_on", "open", "start", "play"),
    "turn_off": ("turn_off", "close", "stop"),
    "open": ("open", "turn_on"),
    "close": ("close", "turn_off"),
    "start": ("start", "turn_on", "play"),
    "play": ("play", "start", "turn_on"),
    "stop": ("stop", "turn_off", "pause"),
    "pause": ("pause", "stop"),
    "return_home": ("return_home",),
    "pack": ("pack",),
}

SET_VERBS = (
    "set",
    "adjust",
    "change",
    "switch",
    "put",
    "make",
    "configure",
    "tune",
    "modify",
    "select",
    "choose",
    "let",
    "keep",
    "update",
    "bring",
    "move",
    "point",
    "direct",
    "tilt",
    "turn",
)
INCREASE_VERBS = (
    "turn up",
    "bump up",
    "bump",
    "crank up",
    "increase",
    "raise",
    "boost",
    "brighten",
    "enhance",
    "up",
    "raise up",
    "lift",
    "heighten",
    "amplify",
    "intensify",
    "strengthen",
    "warm up",
    "higher",
    "louder",
    "brighter",
    "extend",
    "lengthen",
)
DECREASE_VERBS = (
    "turn down",
    "decrease",
    "lower",
    "reduce",
    "dim",
    "cut",
    "drop",
    "diminish",
    "weaken",
    "cool down",
    "soften",
    "quieter",
    "dimmer",
    "shorten",
    "lessen",
    "down",
)

# Option words people say → forms a device may list.
OPTION_SYNONYMS: dict[str, tuple[str, ...]] = {
    "auto": ("auto", "automatic", "automatically", "autopilot", "smart"),
    "low": ("low", "lowest", "gentle", "minimum"),
    "medium": ("medium", "mid", "moderate", "middle speed"),
    "high": ("high", "highest", "maximum speed", "max speed", "turbo", "full speed"),
    "cool": ("cool", "cooling", "cold"),
    "heat": ("heat", "heating", "warm", "warming"),
    "fan_only": ("fan only", "fan-only", "fan_only", "ventilation", "ventilate", "fan"),
    "dry": ("dry", "drying", "dehumidify", "dehumidifying"),
    "sleep": ("sleep", "sleeping", "night", "quiet", "silent"),
    "eco": ("eco", "economy", "energy saving", "energy-saving", "green"),
    "strong": ("strong", "powerful", "power", "max", "boost", "intense"),
    "up": ("up", "upward", "upwards", "top"),
    "middle": ("middle", "center", "centre", "mid", "medium"),
    "down": ("down", "downward", "downwards", "bottom"),
    "heating": ("heating", "heat"),
    "forward": ("forward", "forwards"),
    "reverse": ("reverse", "backward", "backwards"),
}

# Rooms: general synonyms so "storage room" finds a "Store room" area.
ROOM_SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("store room", "storeroom", "storage room", "storage", "stock room", "pantry"),
    ("dining room", "dinning room", "dining area", "dining"),
    ("living room", "lounge", "sitting room", "family room", "livingroom"),
    ("corridor", "hallway", "hall", "passage"),
    ("foyer", "entrance", "entryway", "entry", "entrance hall", "hall entrance"),
    ("study room", "study", "office", "home office"),
    ("bathroom", "bath room", "washroom", "restroom", "toilet"),
    ("balcony", "terrace", "veranda"),
    ("master bedroom", "main bedroom", "primary bedroom"),
    ("guest bedroom", "guest room", "spare bedroom", "spare room"),
    ("kitchen", "cookhouse"),
    ("garage", "car port", "carport"),
)

NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "a hundred": 100,
    "one hundred": 100,
    "half": 50,
    "full": 100,
    "maximum": 100,
    "max": 100,
    "minimum": 0,
    "min": 0,
}


def normalize(text: str) -> str:
    """Lower-case, unify separators and quotes, keep words, digits, % and °."""
    text = text.lower().replace("_", " ").replace("’", "'")
    text = re.sub(r"[\"'`“”]", " ", text)
    text = re.sub(r"(\d)\s*%", r"\1 percent", text)
    text = re.sub(r"[^a-z0-9%°/\-., ]", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def phrase_pattern(phrase: str, plural: bool = True) -> str:
    """Regex for a phrase as whole words, optionally with a plural ending."""
    body = r"\s+".join(re.escape(part) for part in phrase.split())
    suffix = r"(?:s|es)?" if plural else ""
    return rf"(?<![a-z0-9]){body}{suffix}(?![a-z0-9])"


@lru_cache(maxsize=8192)
def phrase_regex(phrase: str, plural: bool = True) -> re.Pattern[str]:
    """:func:`phrase_pattern`, compiled once.

    Why: the vocabulary and a home's names are thousands of phrases, more than ``re``'s own
    cache holds (512), so matching them with ``re.search(pattern, ...)`` compiled every
    phrase again on every instruction: most of the parser's time.
    """
    return re.compile(phrase_pattern(phrase, plural))


# Longest nouns first, so "ceiling fan" is one fan and not a fan in a "ceiling" (sorted once:
# names of every entity go through kinds_in_name on every check).
_NOUNS_LONGEST_FIRST = sorted(
    ((noun, kind) for kind, words in DEVICE_KINDS.items() for noun in words),
    key=lambda item: -len(item[0]),
)


def kinds_in_name(name: str) -> set[str]:
    """Device kinds whose nouns appear in a device or entity name."""
    text = normalize(name)
    found: set[str] = set()
    spans: list[tuple[int, int]] = []
    for noun, kind in _NOUNS_LONGEST_FIRST:
        for match in phrase_regex(noun).finditer(text):
            if any(match.start() < end and start < match.end() for start, end in spans):
                continue
            spans.append(match.span())
            found.add(kind)
    return found


def attributes_in_name(name: str) -> set[str]:
    """Canonical attributes whose phrases appear in a name ("Diffuser Interval" → interval)."""
    text = normalize(name)
    return {
        attribute
        for attribute, phrases in ATTRIBUTES.items()
        if any(phrase_regex(p).search(text) for p in phrases)
    }


def option_key(value: str) -> str:
    """Comparable form of an option: lower case, no spaces, dashes or underscores."""
    return re.sub(r"[\s_\-]+", "", value.lower())
