"""A home's baselines as stored (``HomeBaselines.as_dict``/``from_dict``) and counted.

One versioned form; read back, it is untrusted: another version or garbage leaves the
baselines fresh, and each part drops what of its own is malformed. The counts are for
diagnostics: no entity ids, names or states.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, tzinfo
from typing import Any, Protocol

from .activity import ActivityProfile
from .away_normal import AwayNormal
from .bed_exits import BedExits
from .bed_returns import BedReturns
from .clock import format_time, parse_time
from .daily_rhythm import DailyRhythm
from .daily_routines import DailyRoutines
from .door_trips import DoorTrips
from .durations import StateDurations
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
from .recent_starts import RecentStarts
from .relations import Relations
from .room_quiet import RoomQuiet
from .room_returns import RoomReturns
from .routine_alerts import RoutineAlerts
from .stay_habits import StayHabits
from .supply_outages import SupplyOutages
from .untracked_life import UntrackedLife
from .used_from_inside import UsedFromInside
from .usual_drops import UsualDrops
from .usual_use import UsualUse

BASELINE_VERSION = 2
# Stored versions still read: 1 differs only in the hour profiles' form (``HourProfiles``).
_READ_VERSIONS = frozenset({1, BASELINE_VERSION})


class StoredParts(Protocol):
    """What the stored form reads and writes of a home's baselines (``HomeBaselines``)."""

    first_seen: datetime | None
    learned_until: datetime | None
    events: int
    upgraded: bool
    quiet: QuietSpells
    activity: ActivityProfile
    durations: StateDurations
    ranges: NumericRanges
    profiles: HourProfiles
    relations: Relations
    follow_ups: FollowUps
    recent: RecentStarts
    usual: UsualUse
    habits: StayHabits
    away: AwayNormal
    lonely: LonelyOpenings
    untracked: UntrackedLife
    rhythm: DailyRhythm
    drops: UsualDrops
    supply: SupplyOutages
    batteries: HomeBatteries
    meters: MeterHours
    routines: DailyRoutines
    runs: MeterRuns
    spells: LevelSpells
    falls: LevelFalls
    holds: ReadingHolds
    room_quiet: RoomQuiet
    inside: UsedFromInside
    door_trips: DoorTrips
    bed_exits: BedExits
    alerts: RoutineAlerts
    left_lights: LeftOnLights


def stored_form(baselines: StoredParts) -> dict[str, Any]:
    """JSON-serialisable, versioned form (bounded by each part's caps)."""
    return {
        "version": BASELINE_VERSION,
        "first_seen": format_time(baselines.first_seen),
        "learned_until": format_time(baselines.learned_until),
        "events": baselines.events,
        "quiet": baselines.quiet.as_dict(),
        "activity": baselines.activity.as_dict(),
        "durations": baselines.durations.as_dict(),
        "ranges": baselines.ranges.as_dict(),
        "profiles": baselines.profiles.as_dict(),
        "relations": baselines.relations.as_dict(),
        "follow_ups": baselines.follow_ups.as_dict(),
        "recent_starts": baselines.recent.as_dict(),
        "usual_use": baselines.usual.as_dict(),
        "stay_habits": baselines.habits.as_dict(),
        "away_normal": baselines.away.as_dict(),
        "lonely_openings": baselines.lonely.as_dict(),
        "untracked_life": baselines.untracked.as_dict(),
        "rhythm": baselines.rhythm.as_dict(),
        "usual_drops": baselines.drops.as_dict(),
        "supply_outages": baselines.supply.as_dict(),
        "home_batteries": baselines.batteries.as_dict(),
        "meter_hours": baselines.meters.as_dict(),
        "daily_routines": baselines.routines.as_dict(),
        "meter_runs": baselines.runs.as_dict(),
        "level_spells": baselines.spells.as_dict(),
        "level_falls": baselines.falls.as_dict(),
        "reading_holds": baselines.holds.as_dict(),
        "room_quiet": baselines.room_quiet.as_dict(),
        "room_returns": baselines.room_quiet.returns.as_dict(),
        "used_from_inside": baselines.inside.as_dict(),
        "door_trips": baselines.door_trips.as_dict(),
        "bed_exits": baselines.bed_exits.as_dict(),
        "bed_returns": baselines.bed_exits.returns.as_dict(),
        "routine_alerts": baselines.alerts.as_dict(),
        "left_on_lights": baselines.left_lights.as_dict(),
    }


def read_stored(baselines: StoredParts, data: object, zone: tzinfo | None) -> bool:
    """Fill fresh ``baselines`` from stored ``data``; False (and nothing read) when it is
    not a stored form of a version still read."""
    if not isinstance(data, Mapping):
        return False
    version = data.get("version")
    if not isinstance(version, int) or version not in _READ_VERSIONS:
        return False
    baselines.first_seen = parse_time(data.get("first_seen"))
    baselines.learned_until = parse_time(data.get("learned_until"))
    events = data.get("events")
    if isinstance(events, int) and not isinstance(events, bool) and events >= 0:
        baselines.events = events
    baselines.quiet = QuietSpells.from_dict(data.get("quiet"), zone)
    baselines.activity = ActivityProfile.from_dict(data.get("activity"), zone)
    baselines.durations = StateDurations.from_dict(data.get("durations"), zone)
    baselines.ranges = NumericRanges.from_dict(data.get("ranges"))
    baselines.profiles = HourProfiles.from_dict(data.get("profiles"), zone)
    baselines.relations = Relations.from_dict(data.get("relations"), zone)
    baselines.follow_ups = FollowUps.from_dict(data.get("follow_ups"))
    baselines.recent = RecentStarts.from_dict(data.get("recent_starts"), zone)
    baselines.usual = UsualUse.from_dict(data.get("usual_use"), zone)
    baselines.habits = StayHabits.from_dict(data.get("stay_habits"), zone)
    baselines.away = AwayNormal.from_dict(data.get("away_normal"), zone)
    baselines.lonely = LonelyOpenings.from_dict(data.get("lonely_openings"), zone)
    baselines.untracked = UntrackedLife.from_dict(data.get("untracked_life"), zone)
    baselines.rhythm = DailyRhythm.from_dict(data.get("rhythm"), zone)
    baselines.drops = UsualDrops.from_dict(data.get("usual_drops"), zone)
    baselines.supply = SupplyOutages.from_dict(data.get("supply_outages"), zone)
    baselines.batteries = HomeBatteries.from_dict(data.get("home_batteries"))
    baselines.meters = MeterHours.from_dict(data.get("meter_hours"), zone)
    baselines.routines = DailyRoutines.from_dict(data.get("daily_routines"), zone)
    baselines.runs = MeterRuns.from_dict(data.get("meter_runs"))
    baselines.spells = LevelSpells.from_dict(data.get("level_spells"))
    baselines.falls = LevelFalls.from_dict(data.get("level_falls"))
    baselines.holds = ReadingHolds.from_dict(data.get("reading_holds"))
    baselines.room_quiet = RoomQuiet.from_dict(data.get("room_quiet"), zone)
    baselines.room_quiet.returns = RoomReturns.from_dict(data.get("room_returns"), zone)
    baselines.inside = UsedFromInside.from_dict(data.get("used_from_inside"), zone)
    baselines.door_trips = DoorTrips.from_dict(data.get("door_trips"), zone)
    baselines.bed_exits = BedExits.from_dict(data.get("bed_exits"), zone)
    baselines.bed_exits.returns = BedReturns.from_dict(data.get("bed_returns"), zone)
    baselines.alerts = RoutineAlerts.from_dict(data.get("routine_alerts"), zone)
    baselines.left_lights = LeftOnLights.from_dict(data.get("left_on_lights"), zone)
    baselines.upgraded = "usual_use" not in data
    return True


def stored_counts(baselines: StoredParts, now: datetime) -> dict[str, Any]:
    """Counts for diagnostics (no entity ids, names or states)."""
    return {
        "version": BASELINE_VERSION,
        "first_seen": format_time(baselines.first_seen),
        "learned_until": format_time(baselines.learned_until),
        "events_learned": baselines.events,
        "days_with_quiet_spells": baselines.quiet.days_seen(),
        "hours_of_day_learned": baselines.quiet.learned_hours(),
        "areas_with_activity": len(baselines.activity.counts),
        # Entities, not a meter's spells or running draws kept under their own key.
        "entities_with_durations": sum("#" not in key for key in baselines.durations.stays),
        "entities_with_ranges": sum("#" not in key for key in baselines.ranges.stats),
        "entities_with_hour_profiles": len(baselines.profiles.hours.keys() - {OUTDOOR}),
        "outdoor_hours_learned": baselines.profiles.days_learned(OUTDOOR),
        "meters_with_recent_starts": len(baselines.recent.days),
        "related_pairs": len(baselines.relations.pairs),
        "follow_up_pairs": len(baselines.follow_ups.pairs),
        "entities_watched": len(baselines.usual.since),
        "entities_still_learning": len(baselines.usual.learning_entities(now)),
        "entities_with_open_stays": len(baselines.usual.open_days),
        "entities_with_long_stay_habits": len(baselines.habits.stays),
        "entities_with_bursts": len(baselines.usual.burst_days),
        "entities_used_at_night": len(baselines.usual.nights),
        "entities_left_open_when_away": len(baselines.usual.away_open),
        "sensors_moving_while_away": len(baselines.away.motion),
        "entrances_used_while_away": len(baselines.away.entries),
        "openings_seen_unaccompanied": len(baselines.lonely.openings),
        "devices_with_learned_drops": len(baselines.drops.known()),
        "meters_with_learned_hours": baselines.meters.learned(),
        "meters_with_learned_runs": baselines.runs.learned(),
        "areas_with_learned_quiet": baselines.room_quiet.learned_areas(),
        "contacts_used_from_inside": len(baselines.inside.known()),
        # How long each reading held one value (``frozen_readings``, ``steady_load_stopped``).
        "readings_with_holds": len(baselines.holds.holds),
        # Why a ``safety``/``problem`` alert is told low (``routine_alert_judge``).
        "alerts_told_as_routine": baselines.alerts.routine_count(now),
    }
