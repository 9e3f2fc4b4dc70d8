"""Turn Home Assistant's current states into the core's snapshot and environment."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from homeassistant.const import ATTR_DEVICE_CLASS, ATTR_FRIENDLY_NAME, ATTR_UNIT_OF_MEASUREMENT
from homeassistant.core import HomeAssistant, State
from homeassistant.util import dt as dt_util

from ..core.baselines.start_blinks import may_be_blinking
from ..core.home_clock import on_home_clock
from ..core.models import EntityInfo, EntityState, Environment, Transition, clip, parse_number
from ..core.occupancy import count_presence
from ..core.state_blips import BLIP_LIMIT
from ..core.temperatures import to_celsius
from ..core.window import season_of

# Attributes a detector may reason about; everything else stays out of the window.
KEPT_ATTRIBUTES = frozenset(
    {
        "hvac_action",
        "hvac_mode",
        "hvac_modes",  # whether a unit can heat at all (an air conditioner that only cools)
        "temperature",
        "current_temperature",
        "target_temp_high",
        "target_temp_low",
        "humidity",
        "current_humidity",
        "current_position",
        "brightness",
        "percentage",
        "battery_level",
        "action",
        "operation_mode",
        "is_volume_muted",
        "media_content_type",
        "raw_state",
        "state_class",  # a counter (total_increasing) reads new highs by design
    }
)


# Per entity: the HA state seen, its (area, device, role) and the view made of them.
type SnapshotCache = dict[
    str, tuple[State, tuple[str | None, str | None, str | None, bool], EntityState]
]


class StateReader(Protocol):
    """Where states are read: ``hass.states``, or a replay entry's own table."""

    def get(self, entity_id: str) -> State | None:
        """The state of one entity, if it exists."""

    def async_all(self, domain_filter: str) -> list[State]:
        """Every state of a domain."""


def entity_state(
    state: State,
    area: str | None,
    device: str | None = None,
    role: str | None = None,
    service: bool = False,
) -> EntityState:
    """Core view of one HA state; strings are clipped, attributes filtered."""
    attributes = state.attributes
    info = EntityInfo(
        entity_id=state.entity_id,
        name=clip(attributes.get(ATTR_FRIENDLY_NAME) or state.object_id, 100),
        area=clip(area, 100) if area else None,
        device_class=_text_or_none(attributes.get(ATTR_DEVICE_CLASS)),
        unit=_text_or_none(attributes.get(ATTR_UNIT_OF_MEASUREMENT)),
        device=device,
        role=role,
        service=service,
    )
    kept = {key: _plain(value) for key, value in attributes.items() if key in KEPT_ATTRIBUTES}
    # On the home's clock, as the transitions are: a check names it ("open since 06:34").
    since = on_home_clock(state.last_changed, dt_util.get_default_time_zone())
    return EntityState(info=info, state=clip(state.state), attributes=kept, last_changed=since)


def build_snapshot(
    hass: HomeAssistant,
    entity_ids: Iterable[str],
    areas: Mapping[str, str | None],
    states: StateReader | None = None,
    *,
    devices: Mapping[str, str] | None = None,
    roles: Mapping[str, str] | None = None,
    services: Collection[str] = (),
    known: SnapshotCache | None = None,
) -> list[EntityState]:
    """Current states of the watched entities that exist (in ``states``, default HA's),
    but for persons HA cannot locate (``can_be_located``).

    ``devices``: the HA device each entity belongs to, when it has one; ``roles``: what
    the homeowner said a device is (options flow), when they did; ``services``: the
    entities whose registry device is a web service (``EntityInfo.service``). ``known``: the views
    of the last snapshot, reused for every state that is the very same one (HA's states
    are immutable: most of a home's did not change since the last analysis); it is
    replaced by this snapshot's.
    """
    reader = hass.states if states is None else states
    devices = devices or {}
    roles = roles or {}
    before = known if known is not None else {}  # (each entry is read before it is replaced)
    snapshot = []
    for entity_id in entity_ids:
        state = reader.get(entity_id)
        if state is not None and (state.domain != "person" or can_be_located(state)):
            # A person HA cannot locate (onboarding's owner without trackers) is no one's
            # whereabouts: in the window it kept every "while nobody is home" check quiet.
            where = (
                areas.get(entity_id),
                devices.get(entity_id),
                roles.get(entity_id),
                entity_id in services,
            )
            last = before.get(entity_id)
            if last is not None and last[0] is state and last[1] == where:
                view = last[2]
            else:
                view = entity_state(state, *where)
                if known is not None:
                    known[entity_id] = (state, where, view)
            snapshot.append(view)
    if known is not None and len(known) != len(snapshot):  # only this snapshot's are kept
        for gone in known.keys() - {s.entity_id for s in snapshot}:
            del known[gone]
    return snapshot


def build_environment(
    hass: HomeAssistant,
    weather_entity: str | None = None,
    *,
    states: StateReader | None = None,
    now: datetime | None = None,
    latitude: float | None = None,
    started: tuple[datetime, datetime | None] | None = None,
) -> Environment:
    """Time, season, weather, daylight and occupancy as HA knows them now.

    A replay entry passes its own ``states``, its sample's ``now`` and home ``latitude``.
    ``local_time`` is now on the home's clock (``core.home_clock``), the zone beside it.
    ``started``: HA's last start (its first state's moment, and when it said it had
    started) when the monitor came up with it: a person away since then for seconds may
    be a tracker's blink, unknown until a minute tells (``start_blinks``).
    """
    reader = hass.states if states is None else states
    zone = dt_util.get_default_time_zone()
    now = on_home_clock(dt_util.utcnow() if now is None else now, zone)
    latitude = hass.config.latitude if latitude is None else latitude
    weather = pick_weather(reader, weather_entity)
    home_unit = hass.config.units.temperature_unit
    sun = reader.get("sun.sun")
    home, unknown, total = count_presence(
        "unknown" if may_be_blinking(p.state, p.last_changed, started, now) else p.state
        for p in reader.async_all("person")
        if can_be_located(p)
    )
    return Environment(
        local_time=now,
        season=season_of(now.date(), southern_hemisphere=latitude < 0),
        weather=clip(weather.state, 40) if weather else None,
        outdoor_temperature=outdoor_celsius(weather.attributes, home_unit) if weather else None,
        daylight=(sun.state == "above_horizon") if sun else None,
        sun_changed=_sun_changed(sun, now),
        persons_home=home if total else None,
        persons_total=total or None,
        persons_unknown=unknown,
        temperature_unit=home_unit,
        time_zone=zone,
        ha_started=started,
    )


def outdoor_celsius(attributes: Mapping[str, Any], home_unit: str) -> float | None:
    """A weather entity's temperature in °C: in its ``temperature_unit`` (HA writes it),
    else in the home's unit system's ``home_unit``."""
    value = parse_number(attributes.get("temperature"))
    unit = attributes.get("temperature_unit")
    return (
        None if value is None else to_celsius(value, unit if isinstance(unit, str) else home_unit)
    )


def _sun_changed(sun: State | None, now: datetime) -> datetime | None:
    """When the sun last rose or set. ``last_changed`` is that, unless HA started since
    (then it is the start): a day before the next rising (or setting) says it then."""
    if sun is None or sun.state not in ("above_horizon", "below_horizon"):
        return None
    key = "next_rising" if sun.state == "above_horizon" else "next_setting"
    changed = sun.last_changed
    following = dt_util.parse_datetime(str(sun.attributes.get(key) or ""))
    if following is not None and following.tzinfo is not None:
        previous = following - timedelta(days=1)
        if previous <= now:
            changed = min(changed, previous)
    return changed


def located_only(hass: HomeAssistant, transitions: Sequence[Transition]) -> list[Transition]:
    """``transitions`` less those of persons HA cannot locate now (``can_be_located``):
    the snapshot leaves such a person out, and its ``unknown`` at start-up, read back from
    the recorder into the window, kept "nobody home" from ever holding (walk 10)."""
    hidden = {p.entity_id for p in hass.states.async_all("person") if not can_be_located(p)}
    if not hidden:
        return list(transitions)
    return [t for t in transitions if t.entity_id not in hidden]


def can_be_located(person: State) -> bool:
    """Whether HA has any source for where this person is.

    A person without device trackers (e.g. the one onboarding creates for the owner) is
    ``unknown`` forever: counting it would make "nobody home" impossible to know.
    """
    trackers = person.attributes.get("device_trackers")
    return not (isinstance(trackers, list) and not trackers and person.state == "unknown")


def start_blink_ends(
    hass: HomeAssistant, started: tuple[datetime, datetime | None] | None, now: datetime
) -> datetime | None:
    """When the persons now read ``unknown`` as a start's blink (``may_be_blinking``) are
    read as they are again; None while none is. The glue analyses again then: the first
    analysis after a restart, with everybody out, lost the while-away finding of the front
    door they left open, and nothing judged again for 15 min (walk 45)."""
    ends = [
        person.last_changed + BLIP_LIMIT
        for person in hass.states.async_all("person")
        if can_be_located(person)
        and may_be_blinking(person.state, person.last_changed, started, now)
    ]
    return min(ends, default=None)


def pick_weather(states: StateReader, weather_entity: str | None) -> State | None:
    """The chosen weather entity, else the first one (by entity id)."""
    if weather_entity:
        return states.get(weather_entity)
    candidates = states.async_all("weather")
    return min(candidates, key=lambda s: s.entity_id) if candidates else None


def _text_or_none(value: Any) -> str | None:
    return clip(value, 60) if value is not None else None


def _plain(value: Any) -> Any:
    """Numbers and booleans as they are; anything else as clipped text."""
    if isinstance(value, bool | int | float) or value is None:
        return value
    return clip(value, 100)
