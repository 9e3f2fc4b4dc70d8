"""Data the detection core works on: entities, their states, transitions and windows.

Everything here is plain Python so the integration, the replay and the tests share it.
A window's compressed sequence (``compressed_sequence.py``) and what a detector answers
(``verdict.py``: findings and verdicts) are named here too.
Values that come from a home (names, states, attributes) are untrusted text: they are
stored as given (clipped) and quoted wherever they are rendered into a prompt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
import math
from typing import Any, NamedTuple

from .compressed_sequence import CompressedSequence, LazySequence, SequenceEntry
from .verdict import (
    HOME_SUBJECT,
    MAX_CANDIDATES,
    AnomalyType,
    Finding,
    Label,
    Severity,
    Verdict,
    area_subject,
    identity,
    subject_area,
)

# Long state strings are clipped so a hostile or broken device cannot blow up memory or prompts.
MAX_TEXT_LENGTH = 255


def clip(text: object, limit: int = MAX_TEXT_LENGTH) -> str:
    """Return ``text`` as a single-line string of at most ``limit`` characters."""
    value = str(text).replace("\n", " ").replace("\r", " ")
    return value if len(value) <= limit else value[: limit - 1] + "…"


# Domains of entity ids: every analysis asks each entity's domain thousands of times.
_DOMAINS: dict[str, str] = {}
_DOMAINS_KEPT = 4096  # then forgotten at once: a bound, not a policy


def entity_domain(entity_id: str) -> str:
    """The domain of ``entity_id`` (``binary_sensor`` of ``binary_sensor.hall``)."""
    domain = _DOMAINS.get(entity_id)
    if domain is None:
        if len(_DOMAINS) >= _DOMAINS_KEPT:
            _DOMAINS.clear()
        domain = _DOMAINS[entity_id] = entity_id.partition(".")[0]
    return domain


@dataclass(frozen=True, slots=True)
class EntityInfo:
    """Static description of a watched entity, in Home Assistant's vocabulary."""

    entity_id: str
    name: str
    area: str | None = None
    device_class: str | None = None
    unit: str | None = None
    # HA's device registry id: the entities of one physical device (a plug's switch and
    # its power sensor) share it. Opaque, never shown; pairs entities without id words.
    device: str | None = None
    # What the homeowner says the device is (a ``device_roles.Role`` value, set in the
    # options flow); ``None``: the monitor works it out (``device_roles.py``).
    role: str | None = None
    # HA's registry says its device is a web service (``entry_type: service``: an air-raid
    # alert, a weather feed): no device in the home. Never shown.
    service: bool = False

    @property
    def domain(self) -> str:
        """The entity's domain, such as ``binary_sensor``."""
        return entity_domain(self.entity_id)


@dataclass(frozen=True, slots=True)
class EntityState:
    """Current state of one entity, with the few attributes detectors reason about."""

    info: EntityInfo
    state: str
    attributes: Mapping[str, Any] = field(default_factory=dict)
    last_changed: datetime | None = None

    @property
    def entity_id(self) -> str:
        """Shortcut to ``info.entity_id``."""
        return self.info.entity_id

    @property
    def domain(self) -> str:
        """Shortcut to ``info.domain``."""
        return self.info.domain

    @property
    def number(self) -> float | None:
        """The state as a finite number, or ``None`` when it is not one."""
        return parse_number(self.state)


# Parsed state strings: an analysis parses tens of thousands, mostly the same few hundred
# ("on", "off", a meter's readings), and a word raising ValueError each time was dear.
_PARSED: dict[str, float | None] = {}
_PARSED_KEPT = 4096  # then forgotten at once: a bound, not a policy
_UNPARSED = object()


def parse_number(value: object) -> float | None:
    """Return ``value`` as a finite float, or ``None``."""
    if type(value) is str:
        number = _PARSED.get(value, _UNPARSED)
        if number is _UNPARSED:
            if len(_PARSED) >= _PARSED_KEPT:
                _PARSED.clear()
            number = _PARSED[value] = _parse_text(value)
        return number  # type: ignore[return-value]  # (a float or None, never the marker)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        number = float(value)
    else:
        try:
            number = float(str(value).strip())
        except ValueError:
            return None
    return number if math.isfinite(number) else None


def _parse_text(value: str) -> float | None:
    # Tried as is, since float() skips surrounding whitespace itself; only a string that
    # fails and has more to strip (str.strip also removes \x1c-\x1f, which float()
    # refuses) retries.
    try:
        number = float(value)
    except ValueError:
        stripped = value.strip()
        return None if len(stripped) == len(value) else _parse_text(stripped)
    return number if math.isfinite(number) else None


class Transition(NamedTuple):
    """One state change of a watched entity.

    A named tuple rather than a dataclass: thousands sit in the buffer, and tuples of
    atomic values are untracked by the garbage collector, which keeps per-event cost low.
    """

    when: datetime
    entity_id: str
    state: str
    area: str | None = None


@dataclass(frozen=True, slots=True)
class Environment:
    """What surrounds the home at analysis time."""

    # Now, on the home's clock (``home_clock.on_home_clock``: a fixed offset, so that it
    # and the transitions order and subtract as instants).
    local_time: datetime
    season: str | None = None
    weather: str | None = None
    outdoor_temperature: float | None = None  # °C, whatever unit the weather entity uses
    daylight: bool | None = None
    light_level: float | None = None  # 0 (dark) to 1 (full daylight), when known
    persons_home: int | None = None
    persons_total: int | None = None
    # Persons whose whereabouts are unknown (unknown/unavailable): never counted as away.
    persons_unknown: int = 0
    # The home's unit system's temperature unit ("°C" or "°F"): the unit of climate
    # entities' temperature attributes, and the one a homeowner reads.
    temperature_unit: str = "°C"
    # When the sun last rose (``daylight``) or set (not), when known.
    sun_changed: datetime | None = None
    # The home's time zone (``None``: ``local_time``'s own): the local hour of any instant,
    # on either side of a clock change.
    time_zone: tzinfo | None = None
    # HA's last start when the monitor came up with it: its first state's moment and when
    # it said it had started (None while it starts); None after a reload (``start_settling``).
    ha_started: tuple[datetime, datetime | None] | None = None

    @property
    def zone(self) -> tzinfo | None:
        """The zone local hours, days and words are taken in."""
        return self.time_zone if self.time_zone is not None else self.local_time.tzinfo

    def daylight_at(self, when: datetime) -> bool | None:
        """Whether the sun was up at ``when`` within the last half day; None: unknown."""
        if self.daylight is None or self.sun_changed is None:
            return None
        return self.daylight if when >= self.sun_changed else not self.daylight

    @property
    def weekday(self) -> str:
        """Lower-case day name, e.g. ``monday``."""
        return self.local_time.strftime("%A").lower()

    @property
    def is_weekend(self) -> bool:
        """Saturday or Sunday."""
        return self.local_time.weekday() >= 5

    @property
    def nobody_home(self) -> bool:
        """True only when every person is known to be away."""
        return self.persons_home == 0 and self.persons_unknown == 0

    @property
    def is_night(self) -> bool:
        """Between 23:00 and 06:00 local time."""
        return self.local_time.hour >= 23 or self.local_time.hour < 6


@dataclass(frozen=True, slots=True)
class ContextWindow:
    """Everything a detector sees: current states, environment and the recent sequence."""

    snapshot: tuple[EntityState, ...]
    environment: Environment
    sequence: CompressedSequence | LazySequence
    transitions: tuple[Transition, ...] = ()
    profile: str = ""
    start: datetime | None = None
    end: datetime | None = None
    # How many people live here without a tracked phone, as the homeowner set it (None: not
    # set, the profile is read: ``phoneless_residents``).
    phoneless_residents: int | None = None

    def by_id(self) -> dict[str, EntityState]:
        """Snapshot indexed by entity id."""
        return {state.entity_id: state for state in self.snapshot}

    @property
    def entity_ids(self) -> frozenset[str]:
        """Every entity id a verdict may cite as evidence."""
        ids = {state.entity_id for state in self.snapshot}
        ids.update(transition.entity_id for transition in self.transitions)
        return frozenset(ids)


__all__ = [
    "HOME_SUBJECT",
    "MAX_CANDIDATES",
    "MAX_TEXT_LENGTH",
    "AnomalyType",
    "CompressedSequence",
    "ContextWindow",
    "EntityInfo",
    "EntityState",
    "Environment",
    "Finding",
    "Label",
    "LazySequence",
    "SequenceEntry",
    "Severity",
    "Transition",
    "Verdict",
    "area_subject",
    "clip",
    "entity_domain",
    "identity",
    "parse_number",
    "subject_area",
]
