"""Everything learned about one home's normal, fed one transition at a time.

The same transitions the buffer keeps (``models.Transition``: time, entity, state, area)
teach five baselines: quiet spells while someone is home (``QuietSpells``), activity per
area and hour of the week (``ActivityProfile``), state durations by time of day
(``StateDurations``; a power meter's running and idle spells too, its cycle), numeric
ranges (``NumericRanges``), room sensors' hour-of-day profiles (``HourProfiles``) and the
cause → effect relations of each area (``Relations``: a switch and its meter, the heating
and the room's temperature, a door and the motion behind it, motion and its light) and
what follows a meter starting anywhere in the home (``FollowUps``: a pump and its tank).
Whether an entity is a motion sensor, a door or a light comes from HA's vocabulary
(domain and device_class, given by ``describe``), never from its name.

What a numeric reading teaches is ``reading_learning``'s; how a device is used (the
openings' and locks' habits) is ``use_learning``'s.

Feeding must be in time order per source (recorder history, then the live stream);
``advance`` accounts the time that passed without events. ``as_dict``/``from_dict`` are the
stored form, versioned (``stored_form.py``); stored data is untrusted and a malformed part
is simply dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from ..current_as_power import EUROPEAN_MAINS_VOLTS, CurrentMeters, as_power_info, watts_text
from ..home import (
    DEVICE_DOMAINS,
    UNAVAILABLE_STATES,
)
from ..models import EntityInfo, Transition
from ..occupancy import presence_of
from ..state_blips import BlipHold
from ..statistics.toggles import STORM_GAP
from .activity import ActivityProfile
from .away_normal import AwayNormal
from .bed_exits import BedExits
from .change_facts import ChangeFacts
from .daily_rhythm import DailyRhythm
from .daily_routines import DailyRoutines, contact_state, routine_state
from .door_trips import DoorTrips
from .draw_spells import DrawSpells
from .durations import StateDurations
from .first_readings import seed_first_reading
from .follow_ups import FollowUps
from .home_batteries import HomeBatteries
from .hour_profiles import OUTDOOR, HourProfiles
from .left_on_lights import LeftOnLights
from .level_falls import LevelFalls
from .level_spells import LevelSpells
from .lonely_openings import LonelyOpenings
from .meter_hours import MeterHours
from .meter_runs import MeterRuns
from .quiet_spells import QuietSpells
from .ranges import NumericRanges
from .reading_holds import ReadingHolds
from .reading_learning import learn_reading, unreadable
from .recent_starts import RecentStarts
from .relations import Relations
from .room_quiet import RoomQuiet
from .routine_alerts import RoutineAlerts
from .sign_learning import learn_sign
from .start_blinks import blinks_away, lock_blinks
from .stay_habits import StayHabits
from .stored_form import BASELINE_VERSION, read_stored, stored_counts, stored_form
from .supply_outages import SupplyOutages
from .unlock_passages import UnlockPassages
from .untracked_life import UntrackedLife
from .use_learning import learn_use, open_now
from .used_from_inside import UsedFromInside
from .usual_drops import SUPPLY_LINK, UsualDrops
from .usual_use import LEARN_DAYS, UsualUse

# Entities whose last state is remembered (to tell a change from a repeat).
MAX_TRACKED = 1_000
# Domains whose numeric states are readings, not discrete states.
_NUMERIC_DOMAINS = frozenset({"sensor", "number", "input_number"})


class HomeBaselines:
    """The learned normal of one home."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        # Current-only meters, learned as power at the mains voltage (``current_as_power``).
        self._amps = CurrentMeters()
        self.mains_volts = EUROPEAN_MAINS_VOLTS
        self.quiet = QuietSpells(zone)
        self.activity = ActivityProfile(zone)
        self.durations = StateDurations(zone)
        self.ranges = NumericRanges()
        self.profiles = HourProfiles(zone)
        self.relations = Relations(zone)
        self.follow_ups = FollowUps()  # what follows a meter starting, learned home-wide
        self.recent = RecentStarts(zone)  # a power meter's starts, day by day
        self.usual = UsualUse(zone)  # how each device is used, day by day (habit checks)
        self.habits = StayHabits(zone)  # each door's and lock's long stays, day and week
        self.away = AwayNormal(zone)  # what moves and who comes in while nobody is home
        self.lonely = LonelyOpenings(zone)  # openings nobody is seen making, and when
        self.untracked = UntrackedLife(zone)  # when each sensor moves, home or empty
        self.rhythm = DailyRhythm(zone)  # when the household gets up
        self.drops = UsualDrops(zone)  # how often and how long each device drops off
        self.supply = SupplyOutages(zone)  # how often and how long each supply goes to nothing
        self.batteries = HomeBatteries()  # each home battery, its supply input, its lowest
        self.meters = MeterHours(zone)  # at which hours each meter draws, day by day
        self.routines = DailyRoutines(zone)  # when each entity is armed, locked, on
        self.runs = MeterRuns()  # each meter's last runs: when they began, how long
        self.draws = DrawSpells()  # each meter's runs joined across its thermostat's rests
        self.spells = LevelSpells()  # how long each thermometer ever stayed at each level
        self.falls = LevelFalls()  # how far each stored level ever fell within an hour
        self.holds = ReadingHolds()  # how long each reading ever held one value
        self.room_quiet = RoomQuiet(zone)  # how long the home is quiet after each room
        self.inside = UsedFromInside(zone)  # contacts used from inside (a fridge's door)
        self.door_trips = DoorTrips(zone)  # how long a trip through each door takes back
        self.bed_exits = BedExits(zone)  # how soon after a bed is left somebody shows elsewhere
        self.alerts = RoutineAlerts(zone)  # generic alerts that go on and clear by routine
        self.left_lights = LeftOnLights(zone)  # lights left on with nobody in their room
        self._infos: dict[str, EntityInfo] = {}
        self.first_seen: datetime | None = None
        self.learned_until: datetime | None = None
        # The span before this start of HA that nothing was watched (``watch_gaps``): set
        # by whoever loads the stored baselines at a start; not stored.
        self.unwatched: tuple[datetime, datetime] | None = None
        # When learning resumed at this start (not stored): a tracker's blink then is no
        # departure (``start_blinks``).
        self.resumed: datetime | None = None
        self.events = 0
        # Each lock's last unlock and the household's last movement before it (not stored):
        # whether somebody inside was up to turn it (``lock_in_use``).
        self.unlocks: dict[str, tuple[datetime, datetime | None]] = {}
        # The door each lock's last unlock was for (not stored): ``lock_in_use``.
        self.passages = UnlockPassages()
        self._last_state: dict[str, str] = {}
        self._blips = BlipHold()  # no-states not yet known to be more than a blip
        self._facts = ChangeFacts()  # each entity id's domain, each state text's facts
        self._occupied: bool | None = None  # ``quiet.occupied``, kept as persons change
        # Stored before usage was learned: every device was watched since ``first_seen``.
        self.upgraded = False

    @property
    def infos(self) -> Mapping[str, EntityInfo]:
        """What each entity is, as last described (``describe``, ``describe_one``)."""
        return self._infos

    def describe(self, infos: Iterable[EntityInfo]) -> None:
        """What each entity is (domain, device_class, area): read from HA, not stored."""
        self._infos = {info.entity_id: info for info in infos}
        self._amps.forget()

    def describe_one(self, info: EntityInfo) -> None:
        """One entity more (or described anew): seen changing for the first time."""
        self._infos[info.entity_id] = info
        self._amps.forget()

    def state_of(self, entity_id: str) -> str | None:
        """The last state learned of ``entity_id`` (None: never seen)."""
        return self._last_state.get(entity_id)

    def states(self) -> Mapping[str, str]:
        """Each watched entity's last state seen (what a blip returns to)."""
        return self._last_state

    def watching(self, entity_ids: Iterable[str], when: datetime) -> None:
        """These entities are watched from ``when`` on (or earlier, if already seen): a
        door that never changes is still being learned, and then known to stay shut.
        Baselines stored before usage was learned watched them since they began."""
        if self.upgraded and self.first_seen is not None:
            when = min(when, self.first_seen)
        for entity_id in entity_ids:
            self.usual.seen(entity_id, when)

    def unlocated(self, person: str) -> None:
        """``person`` cannot be located (no tracker): who is home is known without it
        (stored before it was left out, its never-known place kept "everybody away"
        from ever being known)."""
        self.quiet.forget(person)

    # --- learning ----------------------------------------------------------------------

    def learn(self, transition: Transition) -> None:
        """Learn from one transition."""
        self.observe(transition.when, transition.entity_id, transition.state, transition.area)

    def observe(self, when: datetime, entity_id: str, state: str, area: str | None = None) -> None:
        """``entity_id`` reported ``state`` at ``when`` (repeats are ignored).

        A blip (``unknown`` for seconds at a restart, ``core/state_blips.py``) is no
        change: its no-state is held back until it proves longer, so a stay, a spell or a
        cycle goes on across it; so is a tracker's away just after a start
        (``start_blinks``).
        """
        if (amps := self._amps.of(self.infos, entity_id)) is not None:
            state = watts_text(state, amps.unit, self.mains_volts)  # as the window reads it
        held_back = self._facts.state(state).no_state
        if not held_back and self.resumed is not None:  # just after a start: a blink?
            domain, before = self._facts.domain(entity_id), self._before(entity_id)
            held_back = blinks_away(self.resumed, when, domain, state, before) or (
                entity_id not in self._blips
                and lock_blinks(self.resumed, when, domain, state, before)
            )
        if not self._blips and not held_back:
            self._observe(when, entity_id, state, area)  # nearly every change: nothing held
            return
        before = self._before(entity_id)
        for at, reported in self._blips.feed(when, entity_id, state, before, held_back=held_back):
            self._observe(at, entity_id, reported, area)

    def _before(self, entity_id: str) -> str | None:
        """The state learned last; a person's, not stored, is where the stored quiet
        spells last had them (a blink at the start's first change is one too)."""
        before = self._last_state.get(entity_id)
        if before is None and self.quiet.presence.get(entity_id) is True:
            return "home"
        return before

    def _observe(self, when: datetime, entity_id: str, state: str, area: str | None) -> None:
        domain = self._facts.domain(entity_id)
        previous = self._last_state.get(entity_id)
        if domain == "person":
            was, placed = self._occupied, self.quiet.presence.get(entity_id)
            if placed is not None and presence_of(state) is (not placed):
                left = presence_of(state) is False  # left or back: out at night?
                self.usual.night.used(entity_id, when, person=True, left=left)
            self.quiet.presence_changed(entity_id, presence_of(state), when)
            self._occupied = occupied = self.quiet.occupied
            if occupied != was:
                self.holds.presence(occupied, when)
            if was is not False and occupied is False:
                self.usual.everybody_left(when, open_now(self.durations, self.infos))
                self.room_quiet.everybody_left()
                self.door_trips.everybody_left()
                self.bed_exits.everybody_left()
            self.away.presence(when, empty=occupied is False)
            self.lonely.presence(when, presence_of(state), presence_of(previous or ""))
            if (now_in := presence_of(state)) is not None and now_in != presence_of(previous or ""):
                self.inside.presence(when)  # somebody came or went: by which door?
            self.rhythm.presence(occupied, when)
            self.meters.presence(occupied is False, when)
            self.routines.presence(occupied is False, when)
            self._seen(when)
            if previous is not None or len(self._last_state) < MAX_TRACKED:
                self._last_state[entity_id] = state  # what a blip returns to
            return
        if previous == state:
            return
        if previous is not None or len(self._last_state) < MAX_TRACKED:
            self._last_state[entity_id] = state
        self._seen(when)
        self.events += 1
        info = self.infos.get(entity_id)
        if info is not None and self._amps.of(self.infos, entity_id) is not None:
            info = as_power_info(info)
        if domain in DEVICE_DOMAINS and previous is not None:
            self._learn_drop(entity_id, when, state, previous, info)
        if info is not None:
            self.relations.observe(when, info, state, self.infos, self._occupied)
        numeric = domain in _NUMERIC_DOMAINS
        if numeric and (number := self._facts.state(state).number) is not None:
            learn_reading(self, entity_id, when, number, domain=domain, info=info)
            return
        if numeric:
            unreadable(self, entity_id, when)
        self.durations.state(entity_id, state, when)
        if domain == "lock" and state == "unlocked":
            if len(self.unlocks) < MAX_TRACKED:
                self.unlocks[entity_id] = (when, self.rhythm.last_move)
            self.passages.unlocked(entity_id, when)
        elif info is not None and state == "on":
            self.passages.opened(info, when, self.infos)
        self.usual.seen(entity_id, when)
        device_class = info.device_class if info else None
        if (domain, device_class) == ("binary_sensor", "power") and state in ("on", "off"):
            # A supply's status: its outages (``supply_off``); unknown at a restart is none.
            self.supply_reading(entity_id, 1.0 if state == "on" else 0.0, when)
        if domain == "binary_sensor":
            self.alerts.state(entity_id, device_class, state, when)
        routine = routine_state(domain, device_class, state)
        if routine is None:
            routine = contact_state(domain, device_class, state)
        if routine is not None or entity_id in self.routines.slots:
            self.routines.state(entity_id, routine, when)
        if state in UNAVAILABLE_STATES or previous in UNAVAILABLE_STATES:
            return  # a device coming back is nobody's doing
        learn_use(
            self.usual,
            self.habits,
            (entity_id, when, state),
            device_class=device_class,
            previous=previous,
            arrivals=self.quiet.came_home_at,
        )
        area = area or (info.area if info else None)
        learn_sign(
            self,
            (entity_id, when, state, previous),
            area,
            domain,
            device_class,
            maybe_home=self._occupied is not False,
        )

    def _learn_drop(
        self, entity_id: str, when: datetime, state: str, previous: str, info: EntityInfo | None
    ) -> None:
        """A device stopped reading, or reads again (``UsualDrops``)."""
        device_class = info.device_class if info else None
        away = self._facts.away(state, device_class)
        was_away = self._facts.away(previous, device_class)
        if away and not was_away:
            self.drops.went_away(entity_id, when)
            if self.supply.lost_near(when, SUPPLY_LINK):  # it went with the supply
                self.drops.with_supply.add(entity_id)
        elif was_away and not away:
            self.drops.came_back(entity_id, when)

    def supply_reading(self, entity_id: str, value: float | None, when: datetime) -> None:
        """A supply (a grid-status sensor, a supply voltage, a home battery's input) read
        ``value`` (``SupplyOutages.reading``); the devices that dropped as it went to
        nothing went with it (``UsualDrops.supply_lost``)."""
        was = self.supply.down_since(entity_id)
        self.supply.reading(entity_id, value, when)
        if was is None and (down := self.supply.down_since(entity_id)) is not None:
            self.drops.supply_lost(down)

    def seed_reading(self, entity_id: str, state: str, since: datetime) -> None:
        """The current state of an entity unchanged since set-up (``first_readings``)."""
        seed_first_reading(self, self._last_state, entity_id, state, since)

    def outdoor(self, value: float | None, when: datetime) -> None:
        """The outdoor temperature (the weather entity's) reads ``value`` from ``when`` on:
        its hours are learned like a room sensor's, so a cold snap can be told from a fault."""
        self.profiles.reading(OUTDOOR, value, when)

    def advance(self, now: datetime) -> None:
        """Time has passed without events: account quiet hours and watched hours."""
        for entity_id, when, state in self._blips.due(now):  # no blip: a no-state after all
            self._observe(when, entity_id, state, None)
        self.quiet.account(now)
        self.activity.watch(now)
        self.profiles.advance(now)
        self.relations.expire(now)
        self.follow_ups.expire(now)
        self.usual.advance(now, STORM_GAP)
        self.away.advance(now)
        self.lonely.advance(now)
        self.meters.advance(now)
        self.routines.advance(now)
        self._seen(now)

    def _seen(self, when: datetime) -> None:
        if self.first_seen is None or when < self.first_seen:
            self.first_seen = when
        if self.learned_until is None or when > self.learned_until:
            self.learned_until = when

    # --- reading -----------------------------------------------------------------------

    def learning_until(self, entity_id: str) -> datetime | None:
        """When ``entity_id``'s normal is known: ``LEARN_DAYS`` after it was first watched
        (or after the baselines began, for an entity they never saw change)."""
        until = self.usual.learning_until(entity_id)
        if until is None and self.first_seen is not None:
            until = self.first_seen + timedelta(days=LEARN_DAYS)
        return until

    def learning(self, entity_id: str, now: datetime) -> bool:
        """Whether ``entity_id``'s normal is still being learned at ``now``."""
        until = self.learning_until(entity_id)
        return until is None or now < until

    def summary(self) -> dict[str, Any]:
        """Counts for diagnostics (no entity ids, names or states)."""
        return stored_counts(self, self._now())

    def _now(self) -> datetime:
        return self.learned_until or self.first_seen or datetime.now(UTC)

    # --- storage (``stored_form.py``) -------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable, versioned form (bounded by each part's caps)."""
        return stored_form(self)

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> HomeBaselines:
        """Rebuild from stored data: another version or garbage gives a fresh baseline."""
        baselines = cls(zone)
        if not read_stored(baselines, data, zone):
            return baselines
        for entity_id, (state, _) in baselines.durations.current.items():
            baselines._last_state[entity_id] = state
        baselines._occupied = baselines.quiet.occupied
        return baselines


__all__ = ["BASELINE_VERSION", "OUTDOOR", "HomeBaselines"]
