"""Deterministic instruction parser: general English vocabulary → ``Intent`` per operation.

It knows words for devices, rooms, settings, verbs and units (``vocabulary``) and the
home's own area names and option values. It never invents devices: whatever it reads is
checked later by ``validator``. Clauses it cannot read become intents without an action,
which the hybrid planner hands to the LLM.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
import re

from .capabilities import FeatureKind, HomeCapabilities
from .clauses import split_clauses
from .intents import DECREASE, INCREASE, SET, Intent
from .vocabulary import (
    ACTIONS,
    ATTRIBUTE_PRIORITY,
    ATTRIBUTES,
    DECREASE_VERBS,
    DEVICE_KINDS,
    INCREASE_VERBS,
    NUMBER_WORDS,
    OPTION_SYNONYMS,
    ROOM_SYNONYMS,
    SET_VERBS,
    UNITS,
    normalize,
    option_key,
    phrase_pattern,
    phrase_regex,
)

_NUMBER = re.compile(r"(?<![a-z0-9.])(-?\d+(?:\.\d+)?)(?![0-9])")
_UNKNOWN_ROOM = re.compile(
    r"\b(?:in|on|at|of) the ((?:[a-z]+ ){0,2}(?:room|bedroom|bathroom|kitchen|office|garden|"
    r"attic|basement|cellar|loft|porch|yard|patio|nursery|den|gym|laundry|closet|shed))\b"
)
_ANAPHORA = re.compile(r"\b(?:it|its|them|their|they)\b")
_HIGH_WORDS = ("maximum", "max", "highest", "full", "top")
_EXTREME = re.compile(
    r"\b(?:to|at) (?:the |its |their )?(maximum|max|highest|full|top|minimum|min|lowest|bottom)"
    r"\b(?! speed)"
)
_MAXIMIZE = "maximize"
_MINIMIZE = "minimize"
_MULTIWORD_OPTIONS = ("fan only", "fan-only", "energy saving", "energy-saving")


@dataclass(slots=True)
class _Match:
    start: int
    end: int
    key: str


@lru_cache(maxsize=1024)
def _unit_regex(phrase: str) -> re.Pattern[str]:
    """A unit right after a number ("20 percent"), compiled once (see ``phrase_regex``)."""
    return re.compile(r"\s*" + phrase_pattern(phrase, plural=False))


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


@lru_cache(maxsize=256)
def _longest_first(table: tuple[tuple[str, tuple[str, ...]], ...]) -> list[tuple[str, str]]:
    """(phrase, key) pairs of a table, longest phrases first: sorted once per table."""
    return sorted(
        ((phrase, key) for key, phrases in table for phrase in phrases),
        key=lambda item: -len(item[0]),
    )


def _find_phrases(text: str, table: dict[str, tuple[str, ...]]) -> list[_Match]:
    """Non-overlapping matches of any phrase, longest phrases first."""
    found: list[_Match] = []
    for phrase, key in _longest_first(tuple(table.items())):
        for m in phrase_regex(phrase).finditer(text):
            if any(m.start() < f.end and f.start < m.end() for f in found):
                continue
            found.append(_Match(m.start(), m.end(), key))
    return sorted(found, key=lambda f: f.start)


class InstructionParser:
    """Parses instructions for one home (its areas and option values)."""

    def __init__(self, home: HomeCapabilities) -> None:
        self._home = home
        self._area_table: dict[str, tuple[str, ...]] = {}
        for area in home.areas:
            names = {normalize(area.name), normalize(area.area_id), *map(normalize, area.aliases)}
            keys = {option_key(n) for n in names}
            for group in ROOM_SYNONYMS:
                if any(option_key(word) in keys for word in group):
                    names.update(group)
            names.update(n.replace(" ", "") for n in list(names))
            self._area_table[area.area_id] = tuple(sorted(n for n in names if n))
        options: dict[str, set[str]] = {k: set(v) for k, v in OPTION_SYNONYMS.items()}
        for device in home.devices:
            for feature in device.features:
                if feature.kind is FeatureKind.OPTION and "cleaning_area" not in feature.names:
                    for option in feature.options:
                        options.setdefault(option, set()).add(normalize(option))
        self._option_table = {k: tuple(sorted(v)) for k, v in options.items()}

    def parse(self, instruction: str) -> list[Intent]:
        """Return one intent per requested operation, in order."""
        intents: list[Intent] = []
        previous: Intent | None = None
        for clause in split_clauses(instruction):
            for intent in self._parse_clause(clause, previous):
                intents.append(intent)
                previous = intent
        return self._share_areas(intents)

    def _share_areas(self, intents: list[Intent]) -> list[Intent]:
        """A room named once covers neighbouring clauses that need one.

        "Turn on the humidifier and raise its intensity in the bedroom": the first clause
        names no room, and the home has several humidifiers, so it borrows the next
        clause's room (or, at the end, the previous one's).
        """
        counts: dict[str, int] = {}
        for device in self._home.devices:
            for kind in device.kinds:
                counts[kind] = counts.get(kind, 0) + 1
        shared = list(intents)
        for index, intent in enumerate(intents):
            if intent.area_id is not None or intent.unknown_area is not None:
                continue
            if intent.device_kind is None or counts.get(intent.device_kind, 0) < 2:
                continue
            later = [i.area_id for i in intents[index + 1 :] if i.area_id is not None]
            earlier = [i.area_id for i in intents[:index] if i.area_id is not None]
            area_id = later[0] if later else (earlier[-1] if earlier else None)
            if area_id is not None:
                shared[index] = replace(intent, area_id=area_id)
        return shared

    def _parse_clause(self, clause: str, previous: Intent | None) -> list[Intent]:
        text = normalize(clause)
        work = f" {text} "
        text = work

        # Multi-word option values that contain device words ("fan only") go first.
        option_hits: list[_Match] = []
        for phrase in _MULTIWORD_OPTIONS:
            for m in phrase_regex(phrase, plural=False).finditer(work):
                option_hits.append(_Match(m.start(), m.end(), normalize(phrase)))
                work = _blank(work, m.start(), m.end())

        # "18 degrees" is a unit, not the curtain's "degree" setting.
        for m in re.finditer(r"(?<=\d) ?(degrees?|°c?)(?![a-z])", work):
            work = _blank(work, m.start(), m.end())
        attributes = _find_phrases(work, ATTRIBUTES)
        for a in attributes:
            work = _blank(work, a.start, a.end)

        devices = _find_phrases(work, DEVICE_KINDS)
        device_kinds: list[str] = []
        value_from_device: str | None = None
        for d in devices:
            after = work[d.end : d.end + 6]
            before = work[max(0, d.start - 4) : d.start]
            others = [o for o in devices if o.key != d.key]
            if others and (after.startswith(" mode") or before.endswith("to ")):
                # "set the air conditioner to heating mode": a value, not a device.
                value_from_device = work[d.start : d.end].strip()
            elif d.key not in device_kinds:
                device_kinds.append(d.key)
            work = _blank(work, d.start, d.end)
        attribute_keys = [a.key for a in attributes]
        if not device_kinds and any(
            "fan" in text[a.start : a.end] for a in attributes if a.key in ("fan_speed", "swing")
        ):
            device_kinds.append("fan")  # "set the fan speed to high": the fan itself

        areas = self._find_areas(work)
        for a in areas:
            work = _blank(work, a.start, a.end)
        unknown_area = None
        if not areas:
            room = _UNKNOWN_ROOM.search(work)
            if room:
                unknown_area = room.group(1).strip()

        action, verb_end = self._action(text)
        number, unit, relative_word = self._number(text)
        extreme = _EXTREME.search(text)
        if action == "mute":
            # Muting is setting the volume to zero.
            action, attribute_keys, number, relative_word = SET, ["volume"], 0.0, "to"
        attribute = next((key for key in ATTRIBUTE_PRIORITY if key in attribute_keys), None)

        anaphoric = bool(_ANAPHORA.search(text))
        continues = False  # the same device as the previous clause, named there
        elliptical = action is None and number is not None
        if not device_kinds and previous is not None and elliptical and attribute is None:
            # "…to 23 degrees, then to 18": same device, setting and (unless named) room.
            device_kinds = [previous.device_kind] if previous.device_kind else []
            attribute = previous.attribute
            action = previous.action if previous.action in (SET, INCREASE, DECREASE) else None
            if not areas and previous.area_id:
                areas = [_Match(0, 0, previous.area_id)]
                continues = bool(device_kinds)
        if not device_kinds and previous is not None and (anaphoric or not areas):
            # "turn off the diffuser in the hall and lower the intensity": same device.
            device_kinds = [previous.device_kind] if previous.device_kind else []
            if not areas and previous.area_id:
                areas = [_Match(0, 0, previous.area_id)]
                continues = bool(device_kinds)
        if (
            not device_kinds
            and previous is not None
            and previous.device_kind
            and attribute is not None
            and attribute == previous.attribute
        ):
            # "lower the AC temperature here and the temperature there": the same kind.
            device_kinds = [previous.device_kind]

        value: float | str | None = number
        if number is None and extreme is not None and action not in (INCREASE, DECREASE):
            value, action = ("max" if extreme.group(1) in _HIGH_WORDS else "min"), SET
        elif number is None and action in (_MAXIMIZE, _MINIMIZE):
            value, action = ("max" if action == _MAXIMIZE else "min"), SET
        elif action in (_MAXIMIZE, _MINIMIZE):
            action = SET  # "maximize the volume to 90"
        relative = False
        steps = unit == "level"
        if action in (INCREASE, DECREASE, "open", "close") and number is not None:
            relative = relative_word != "to"
            if action == "open":
                action = INCREASE if relative else SET
            elif action == "close":
                action = DECREASE if relative else SET
        elif number is not None:
            if relative_word == "by":
                relative = True
                action = DECREASE if self._says_down(text) else INCREASE
            elif action not in (SET, INCREASE, DECREASE):
                action = SET
        elif isinstance(value, str):
            pass  # "to the maximum"
        elif action in (SET, INCREASE, DECREASE) or attribute is not None:
            option = self._option(work, text, verb_end, option_hits, value_from_device)
            if option is not None and action not in (INCREASE, DECREASE):
                value = option
                action = SET
            elif action in (INCREASE, DECREASE) and (steps or attribute is not None):
                steps = True
            if action is None:
                action = SET

        cleaning = action == "clean" or attribute == "cleaning_area"
        if "vacuum" in device_kinds and areas and not cleaning:
            # "set the vacuum robot to clean the kitchen": the room is where to clean.
            cleaning = bool(_find_phrases(text, {"clean": ACTIONS["clean"]}))
        if cleaning:
            # "clean the kitchen", "set the cleaning area to the foyer": the room is the value.
            cleaners = device_kinds or ["vacuum"]
            targets: list[str | None] = [self._home.area_name(a.key) for a in areas] or [None]
            return [
                Intent(
                    text=clause.strip(),
                    action=SET,
                    device_kind=cleaners[0],
                    attribute="cleaning_area",
                    value=target,
                    unknown_area=unknown_area,
                )
                for target in targets
            ]

        base = Intent(
            text=clause.strip(),
            action=action,
            attribute=attribute,
            value=value,
            relative=relative,
            steps=steps and relative_word != "to",
            unit=unit,
            unknown_area=unknown_area,
            continues=continues,
        )
        kinds: list[str | None] = list(device_kinds) or [None]
        area_ids: list[str | None] = [a.key for a in areas] or [None]
        return [
            replace(base, device_kind=kind, area_id=area_id)
            for kind in kinds
            for area_id in dict.fromkeys(area_ids)
        ]

    def _find_areas(self, text: str) -> list[_Match]:
        matches = _find_phrases(text, self._area_table)
        unique: list[_Match] = []
        for m in matches:
            if all(u.key != m.key for u in unique):
                unique.append(m)
        return unique

    @staticmethod
    def _action(text: str) -> tuple[str | None, int]:
        """The clause's main verb: the earliest verb phrase (longest on ties)."""
        table: dict[str, tuple[str, ...]] = dict(ACTIONS)
        table[SET] = SET_VERBS
        table[INCREASE] = INCREASE_VERBS
        table[DECREASE] = DECREASE_VERBS
        table["mute"] = ("mute", "silence")
        table[_MAXIMIZE] = ("maximize", "maximise", "max out")
        table[_MINIMIZE] = ("minimize", "minimise")
        matches = _find_phrases(text, {k: tuple(v) for k, v in table.items()})
        # "up"/"down" alone are directions, not verbs ("swing up").
        matches = [m for m in matches if text[m.start : m.end].strip() not in ("up", "down")]
        if not matches:
            return None, 0
        first = matches[0]
        return first.key, first.end

    @staticmethod
    def _says_down(text: str) -> bool:
        return bool(
            _find_phrases(text, {"d": DECREASE_VERBS})
            or re.search(r"\bdown by\b|\bclose\b|\bshut\b", text)
        )

    @staticmethod
    def _number(text: str) -> tuple[float | None, str | None, str | None]:
        """First number, its unit, and whether it follows "by" or "to"."""
        words = "|".join(sorted(map(re.escape, NUMBER_WORDS), key=len, reverse=True))
        text = re.sub(
            rf"\b(by|to|at) ({words})\b",
            lambda m: f"{m.group(1)} {NUMBER_WORDS[m.group(2)]}",
            text,
        )
        small = "|".join(w for w in NUMBER_WORDS if NUMBER_WORDS[w] <= 10 and " " not in w)
        text = re.sub(
            rf"\b({small}) (?=(?:[a-z]+ )?(?:levels?|steps?|notch(?:es)?|degrees?|percent))",
            lambda m: f"{NUMBER_WORDS[m.group(1)]} ",
            text,
        )
        m = _NUMBER.search(text)
        if m is None:
            return None, None, None
        number = float(m.group(1))
        tail = text[m.end() : m.end() + 20]
        unit = None
        for key, phrases in UNITS.items():
            if any(_unit_regex(p).match(tail) for p in phrases):
                unit = key
                break
        head = text[: m.start()].rstrip().split()
        relative_word = None
        for word in reversed(head[-3:]):
            if word in ("by", "to", "at", "of"):
                relative_word = "to" if word in ("to", "at", "of") else "by"
                break
        return number, unit, relative_word

    def _option(
        self,
        work: str,
        text: str,
        verb_end: int,
        multiword: list[_Match],
        value_from_device: str | None,
    ) -> str | None:
        """The option word the clause asks for, preferring words after "to"."""
        if multiword:
            return multiword[0].key
        hits = _find_phrases(work, self._option_table)
        hits = [h for h in hits if h.start >= verb_end]
        if not hits:
            return value_from_device
        to_pos = text.find(" to ")
        after_to = [h for h in hits if to_pos >= 0 and h.start > to_pos]
        chosen = (after_to or hits)[0]
        return work[chosen.start : chosen.end].strip()
