"""What each watched device is: the one place the core decides it (issue #25).

A role comes, strongest first, from the homeowner (the options flow's correction, carried
in ``EntityInfo.role``), Home Assistant's vocabulary (domain and device_class), the HA
device it shares with another watched entity (a plug's switch and its meter), and what
it does (a power meter that cycles). The friendly name is a hint only, matched as whole
words of a small multilingual list (``role_words.py``): "Tapo P110" says nothing, and
"Environment fan" holds no "iron". Entity ids are never read for words: homeowners
rarely rename them, and real integrations give ``switch.tapo_p110`` or
``binary_sensor.0x00158d0001a2b3c4_contact``.

``Source.NAME`` is the weakest: a check that would report a HIGH finding on a role the
name alone gave reports it as MEDIUM (``severity_for``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from .home import HomeView
from .keyed_doors import keeps_a_lock
from .models import EntityState, Severity, parse_number
from .power_units import RUNNING_WATTS, watts
from .role_words import name_role, says, words


class Role(StrEnum):
    """What a device is, in the homeowner's words."""

    EXTERIOR_DOOR = "exterior_door"
    INSIDE_DOOR = "inside_door"
    GARAGE_DOOR = "garage_door"
    WINDOW = "window"
    COLD_APPLIANCE = "cold_appliance"  # fridge, freezer
    HEATING_APPLIANCE = "heating_appliance"  # a space heater, an iron
    COOKING_APPLIANCE = "cooking_appliance"  # stove, oven, hob
    WATER = "water"  # a valve, a tap, a sprinkler, a water flow
    WASHING_APPLIANCE = "washing_appliance"  # washer, dishwasher, dryer
    PET_AREA = "pet_area"  # a motion sensor the pets set off
    MOTION_LEVEL = "motion_level"  # a camera's or radar's numeric motion score
    SLEEP_CONFIDENCE = "sleep_confidence"  # the phone app's sleep confidence
    DETECTED_ACTIVITY = "detected_activity"  # the phone app's activity recognition
    OTHER = "other"  # none of these (the homeowner says so, or nothing does)


# Appliances that heat and must not run unattended for hours.
HEAT_ROLES = frozenset({Role.HEATING_APPLIANCE, Role.COOKING_APPLIANCE})
# Roles the options flow offers per domain (the others are the monitor's own reading).
SWITCHABLE_ROLES = (
    Role.COLD_APPLIANCE,
    Role.HEATING_APPLIANCE,
    Role.COOKING_APPLIANCE,
    Role.WATER,
    Role.WASHING_APPLIANCE,
    Role.OTHER,
)
DOOR_ROLES = (Role.EXTERIOR_DOOR, Role.INSIDE_DOOR, Role.GARAGE_DOOR, Role.WINDOW, Role.OTHER)
MOTION_ROLES = (Role.PET_AREA, Role.OTHER)
# A meter of the same device reading this much: the appliance is running now.
WORKING_WATTS = 100.0
# Rests and runs seen in the window that make a meter a cycling (cold) appliance; a
# compressor draws tens to a few hundred watts (a heater or a washer's element, kW).
MIN_CYCLES = 3
MAX_COMPRESSOR_WATTS = 400.0


class Source(IntEnum):
    """Where a role came from, weakest first."""

    NAME = 0
    BEHAVIOUR = 1
    DEVICE = 2
    CLASS = 3
    HOMEOWNER = 4


@dataclass(frozen=True, slots=True)
class RoleGuess:
    """A role and what says it."""

    role: Role
    source: Source


def parse_role(value: object) -> Role | None:
    """A stored role (options, untrusted), or ``None`` when it is not one."""
    if value is None:
        return None  # (most entities: asked of each at every analysis, raising was dear)
    return _ROLES.get(str(value))


_ROLES: dict[str, Role] = {role.value: role for role in Role}


def homeowner_roles(stored: object) -> dict[str, str]:
    """The roles the homeowner set (stored options, untrusted), invalid ones dropped."""
    if not isinstance(stored, Mapping):
        return {}
    return {
        str(entity_id): role.value
        for entity_id, value in stored.items()
        if (role := parse_role(value)) is not None
    }


def class_role(state: EntityState) -> Role | None:
    """The role Home Assistant's own vocabulary gives (domain and device_class)."""
    domain, device_class = state.domain, state.info.device_class
    if domain == "binary_sensor":
        return {
            "door": Role.EXTERIOR_DOOR,
            "garage_door": Role.GARAGE_DOOR,
            "window": Role.WINDOW,
        }.get(device_class or "")
    if domain == "cover" and device_class in ("garage", "gate"):
        return Role.GARAGE_DOOR
    if domain == "valve" and device_class in (None, "water"):
        return Role.WATER
    if domain in ("binary_sensor", "switch") and device_class == "water":
        return Role.WATER
    return None


def same_device(one: EntityState, other: EntityState) -> bool:
    """One physical device: HA's device registry says so, or, without a registry device,
    HA's naming of one device's entities (the meter's object id extends the switch's:
    ``switch.tapo_p110`` and ``sensor.tapo_p110_current_power``). No word is read."""
    if one.info.device is not None and other.info.device is not None:
        return one.info.device == other.info.device
    return named_as_one(one.entity_id, other.entity_id)


def named_after(meter: EntityState, owner: EntityState) -> bool:
    """The meter's friendly name holds the owner's whole name and more ("Plug 3" and
    "Plug 3 power", "Washing machine" and "Utility washing machine power"): a hint, for
    homes whose registry does not say which entities are one device (when it says they
    are two, they are)."""
    if meter.info.device is not None and owner.info.device is not None:
        return meter.info.device == owner.info.device
    return _name_holds(meter, owner)


def _name_holds(meter: EntityState, owner: EntityState) -> bool:
    own = words(owner.info.name)
    return 0 < len(own) < len(words(meter.info.name)) and says(meter.info.name, (owner.info.name,))


def own_meter(home: HomeView, switch: EntityState, meter: EntityState) -> bool:
    """``meter`` measures what ``switch`` switches. A device with one switch (a plug): its
    meters, all of them. A device with several (a multi-channel relay, a power strip): the
    meter of the switch's channel only, the one whose id extends the switch's (HA's
    ``..._switch_0`` and ``..._switch_0_power``) or whose name holds the switch's, and the
    most specific such switch of the device; a meter of none or of several (a strip's total)
    is paired with none: no finding rather than one about another channel's load."""
    if not same_device(switch, meter):
        return False
    device = switch.info.device
    if device is None or meter.info.device is None:
        return True  # paired by HA's naming already (``same_device``)
    siblings = [s for s in home.of(switch.domain) if s.info.device == device]
    if len(siblings) <= 1:
        return True
    by_id = [s for s in siblings if _id_extends(meter.entity_id, s.entity_id)]
    by_name = [s for s in siblings if _name_holds(meter, s)]
    channel = _most_specific(by_id, lambda s: len(s.entity_id)) or _most_specific(
        by_name, lambda s: len(words(s.info.name))
    )
    return channel is not None and channel.entity_id == switch.entity_id


def _id_extends(meter: str, switch: str) -> bool:
    a, b = meter.partition(".")[2], switch.partition(".")[2]
    return bool(a and b) and (a == b or _extends(a, b))


def _most_specific(
    candidates: list[EntityState], size: Callable[[EntityState], int]
) -> EntityState | None:
    """The one candidate longer than every other, or None (none, or a tie)."""
    ranked = sorted(candidates, key=size, reverse=True)
    if not ranked or (len(ranked) > 1 and size(ranked[1]) == size(ranked[0])):
        return None
    return ranked[0]


def named_as_one(one: str, other: str) -> bool:
    """HA's naming of one device's entities: the same object id in two domains, or one
    extending the other's (``binary_sensor.x`` and ``sensor.x_battery``). A structure of
    the ids, not a word in them."""
    a, b = one.partition(".")[2], other.partition(".")[2]
    if not a or not b or one == other:
        return False
    return a == b or _extends(b, a) or _extends(a, b)


def _extends(longer: str, shorter: str) -> bool:
    # ``tapo_p110_2_power`` is the second plug's (HA's ``_2``), not ``tapo_p110``'s.
    if not longer.startswith(f"{shorter}_"):
        return False
    return not longer[len(shorter) + 1 :].partition("_")[0].isdigit()


def cycles(home: HomeView, meter: EntityState) -> bool:
    """A power meter that started and rested again and again in the window (a compressor)."""
    if meter.domain != "sensor" or meter.info.device_class != "power":
        return False
    starts = 0
    running: bool | None = None
    for _, reading in home.numbers(meter.entity_id):
        value = watts(reading, meter.info.unit)
        if value is None or value > MAX_COMPRESSOR_WATTS:
            return False
        now_running = value >= RUNNING_WATTS
        if running is False and now_running:
            starts += 1
        running = now_running
    return starts >= MIN_CYCLES


_LEARNED_CYCLING = "learned_cycling"


def learned_cycling(home: HomeView, entity_ids: set[str]) -> None:
    """Tell the view which power meters the home's baselines learned cycling day and
    night (``baselines/cycles.py``): before any role is asked, once per analysis."""
    home.shared(_LEARNED_CYCLING, lambda: frozenset(entity_ids))


def _learned_cycling(home: HomeView, state: EntityState) -> bool:
    learned: frozenset[str] = home.shared(_LEARNED_CYCLING, frozenset)
    return state.entity_id in learned


_LEARNED_SHUT = "learned_shut_after_use"


def learned_openings(home: HomeView, shut_after_use: set[str]) -> None:
    """Tell the view which ``opening`` contacts the home's baselines learned as doors shut
    after each use (a gate, a fridge): ``baselines/used_from_inside.py``. Once per
    analysis, before any is judged."""
    home.shared(_LEARNED_SHUT, lambda: frozenset(shut_after_use))


def _own_guess(home: HomeView, state: EntityState) -> RoleGuess | None:
    if (homeowner := parse_role(state.info.role)) is not None:
        return RoleGuess(homeowner, Source.HOMEOWNER)
    if (by_class := class_role(state)) is not None:
        return RoleGuess(by_class, Source.CLASS)
    if keeps_a_lock(home, state):
        # An ``opening`` contact a lock keeps is the door it locks (``keyed_doors``).
        return RoleGuess(Role.EXTERIOR_DOOR, Source.DEVICE)
    by_name = name_role(state.info.name, state.domain, state.info.device_class)
    if by_name is not None:
        # A name the behaviour bears out ("Fridge" and a compressor's cycle) is more.
        if by_name == Role.COLD_APPLIANCE and (
            _learned_cycling(home, state) or cycles(home, state)
        ):
            return RoleGuess(Role.COLD_APPLIANCE, Source.BEHAVIOUR)
        return RoleGuess(Role(by_name), Source.NAME)
    # A meter cycling in the window is a compressor (a learned cycle alone is judged by
    # ``baselines/cycles.py``, which knows when a stop is explained).
    if cycles(home, state):
        return RoleGuess(Role.COLD_APPLIANCE, Source.BEHAVIOUR)
    return None


def _derive(home: HomeView) -> dict[str, RoleGuess]:
    states = list(home.window.snapshot)
    own = {s.entity_id: g for s in states if (g := _own_guess(home, s)) is not None}
    roles = dict(own)
    # A device's switch and meter are one appliance: what one of them is told (by the
    # homeowner, its name or its behaviour) holds for the other, unless it has its own.
    # (Only whole appliances can lend their role: the others are not compared.)
    lenders = [(s, g) for s in states if (g := own.get(s.entity_id)) and g.role in SHARED_ROLES]
    for state in states:
        if state.entity_id in own or state.domain not in ("switch", "sensor"):
            continue
        for other, guess in lenders:
            if other is not state and same_device(state, other):
                source = Source.DEVICE if guess.source >= Source.BEHAVIOUR else Source.NAME
                roles[state.entity_id] = RoleGuess(guess.role, source)
                break
    return roles


# Roles a whole appliance has (its switch and its meter alike).
SHARED_ROLES = frozenset(
    {
        Role.COLD_APPLIANCE,
        Role.HEATING_APPLIANCE,
        Role.COOKING_APPLIANCE,
        Role.WATER,
        Role.WASHING_APPLIANCE,
    }
)


def roles(home: HomeView) -> Mapping[str, RoleGuess]:
    """Every watched entity's role (entities with none left out), once per analysis."""
    return home.shared("device_roles", lambda: _derive(home))


def role_of(home: HomeView, entity_id: str) -> RoleGuess | None:
    """The role of one entity, ``None`` when nothing says one."""
    return roles(home).get(entity_id)


def has_role(home: HomeView, entity_id: str, *wanted: Role) -> bool:
    """The entity has one of ``wanted``."""
    guess = role_of(home, entity_id)
    return guess is not None and guess.role in wanted


def is_entry(home: HomeView, entity_id: str) -> bool:
    """A door through which a person enters the home (exterior or garage door)."""
    return has_role(home, entity_id, Role.EXTERIOR_DOOR, Role.GARAGE_DOOR)


def shut_after_use(home: HomeView, entity_id: str) -> bool:
    """A door that is shut after each use: an entrance (``is_entry``), or an ``opening``
    contact learned opened briefly and shut again nearly every time (a gate, a fridge, a
    cupboard; not a window aired): left open, it is worth telling (``entry_left_open``),
    as a ``door`` contact's would be."""
    if is_entry(home, entity_id):
        return True
    state = home.info(entity_id)
    learned: frozenset[str] = home.shared(_LEARNED_SHUT, frozenset)
    return (
        state is not None
        and state.domain == "binary_sensor"
        and state.info.device_class == "opening"
        and entity_id in learned
    )


def severity_for(home: HomeView, entity_ids: tuple[str, ...], severity: Severity) -> Severity:
    """``severity``, but never HIGH when a name is all that says what the devices are:
    a behaviour (its meter drawing power), the device class or the homeowner must agree."""
    if severity.rank < Severity.HIGH.rank:
        return severity
    guesses = [g for e in entity_ids if (g := role_of(home, e)) is not None]
    if any(g.source > Source.NAME for g in guesses) or _drawing(home, entity_ids):
        return severity
    return Severity.MEDIUM


def _drawing(home: HomeView, entity_ids: tuple[str, ...]) -> bool:
    """A meter of the same device reads a working load now (the appliance is running)."""
    for entity_id in entity_ids:
        state = home.info(entity_id)
        if state is None:
            continue
        for meter in home.of("sensor", "power"):
            value = parse_number(meter.state)
            if value is None or not same_device(state, meter):
                continue
            if (watts(value, meter.info.unit) or 0.0) >= WORKING_WATTS:
                return True
    return False
