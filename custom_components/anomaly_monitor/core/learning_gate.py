"""A cold start the homeowner understands: while a device's normal is still being learned,
only what cannot wait is pushed.

The detector's verdict is unchanged (it judges the window, and says in a finding's
reasoning when the default limit judged because the normal is not known yet). What is
*pushed* to the homeowner (an anomaly opened: notification, repair issue, event) waits
for the normal, except:

- a safety hazard (smoke, gas, CO, heat, a leak) or anything critical;
- anything rated high, and a protective device offline (a detector, lock, alarm panel,
  camera or siren: ``offline.is_safety_device``), whatever its finding's rating; so is a
  motion sensor offline, or a door's contact for two hours (``watcher_offline``), and a
  plug that powers a load offline for six hours and more (``powered_load_offline``);
- a security finding while nobody is home (an entry into an empty home) or one that
  holds only while nobody is home, but not a door "left open" (``entry_left_open``: an
  interior door stands open for hours, the entry itself is told by the while-away
  rules); and not a door without a lock that stood open since
  well before everybody left (``STOOD_OPEN``): that is how an interior door is left, and
  whether this one is, is what the learned departures tell (``usual_judge``). The front
  door left ajar on the way out opened minutes before the home became empty: pushed.
  Who was home when an opening happened decides, not who is home when it is judged: one
  made and shut while somebody was home (``Finding.home_then``: the dog let out before
  everybody left) is the household's, and waits.
- a garage door or gate open for longer than an hour, a door opened in the empty home
  and open that long with still nobody home, and a door opened in the small hours while
  the household is home, standing open with nothing moving since (``cold_start_openings``).

But a way in used in the empty home as the household comes and goes (the last tracker
leaving within minutes of it, or somebody without a tracker moving inside by day), shut
again or opened only minutes ago, waits for what follows (``first_days_passage``): it is
told once it stands open (not a balcony's or a back kitchen's door kept open by whoever was
seen inside: ``kept_open_by_whoever_is_in``), and an entry into a home nobody is known to be
in is told at once.
A home whose profile says somebody lives there without a tracked phone (``phoneless_residents``)
shows them by their motion inside by day, even where a pet lives; the word alone does not
say who stays home (a child without a phone is at school with the rest).

Motion while every tracker is away waits, though rated high, while nobody came into the
empty home (``cold_start_motion``): whether somebody without a tracker lives here is what
the first days teach.

A finding pushed while its devices are still learned says so (``still_learning``).

A finding that exists only because the device's own normal is known is not held: a meter
whose run stopped part-way is judged against the runs it made at that time of day
(``meter_run_cut_short``), which is the learned normal the gate waits for (a dialysis
cycler that lost power on the third night, a pool pump that failed on the second day),
nor one judged against the stays of its own timer or routine (``left_on_past_its_routine``:
a salon's hood dryer, 25 min per client, left blowing after the last one on day two), nor
an element drawing longer than any of its own runs with nobody moving
(``heat_load_left_on_unattended``: a hob left on at bedtime on the third day), nor a door
open since before the household's rest, longer than it ever stood open
(``open_while_asleep``: the shed door left open on the second night), nor a cooled
room climbing far above what its own readings kept (``room_warmer_than_kept``: its hours,
or a day and more of it under cooling that never stopped; a Dubai kids' room on the
second afternoon), nor a room a machine keeps cool far warmer than anything it read, the
heat coming in (``room_warmed_far_above_ever``: two days of its readings, three runs of its
cooler), nor a reading held far longer than its own holds ever were
(``reading_frozen_far_longer_than_ever``) or a load at rest that never rested before
(``steady_load_stopped``: a heat cable failed on the third night), nor a meter running far
below every draw of its own runs (``running_far_below_its_draw``: in its first days only
with its room climbing, a window air conditioner on fan only the second night): each waits
for its own days (``MIN_DAYS``, ``MIN_STEADY``, ``running_draw.EARLY_LEARNED``). Nor is a
lock unlocked far longer than its own stays, once it has been turned often enough for them
to be known (``lock_stays_known``).

Everything else about devices that are all still being learned (``HomeBaselines.learning``:
watched for fewer than ``LEARN_DAYS`` days) waits; once any device of its evidence is known,
it is judged and told as usual. Reading the recorder's history at set-up makes most
devices known at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta

from .baselines.cover_part_way import COVER_STOPPED_PART_WAY
from .baselines.far_beyond_range import READING_FAR_BEYOND_ITS_RANGE
from .baselines.frozen_readings import READING_FROZEN
from .baselines.heat_load_unattended import HEAT_LOAD_LEFT_ON_UNATTENDED
from .baselines.home_baselines import HomeBaselines
from .baselines.open_at_rest import OPEN_WHILE_ASLEEP
from .baselines.run_cut_short import METER_RUN_CUT_SHORT
from .baselines.running_draw import RUNNING_FAR_BELOW_ITS_DRAW
from .baselines.steady_load_stopped import STEADY_LOAD_STOPPED
from .baselines.timed_stays import LEFT_ON_PAST_ITS_ROUTINE
from .baselines.uncooled_rooms import ROOM_WARMED_FAR_ABOVE_EVER
from .baselines.warm_rooms import ROOM_WARMER_THAN_KEPT
from .baselines.way_out import left_by_another_door
from .cold_start_motion import waits_for_life_while_away
from .cold_start_openings import (
    LEFT_OPEN_RULES,
    garage_left_open,
    left_open_in_the_night,
    opened_in_empty_home,
)
from .feedback import is_hazard
from .first_days_passage import household_passage
from .home import ENTRY_DEVICE_CLASSES, OCCUPANCY_DEVICE_CLASSES
from .lock_stays_known import lock_stays_known
from .models import AnomalyType, Finding, Severity
from .offline import is_safety_device
from .rules.lock_jammed import LOCK_JAMMED

_OFFLINE_RULES = frozenset({"device_unavailable", "device_went_offline"})
# Rules judged only against the device's own learned runs, or on what the device itself
# reports (a lock saying it is jammed, a cover stopped between its ends): nothing of the
# home's normal is needed to tell them.
_OWN_NORMAL_RULES = frozenset(
    {
        METER_RUN_CUT_SHORT.rule,
        LEFT_ON_PAST_ITS_ROUTINE.rule,
        HEAT_LOAD_LEFT_ON_UNATTENDED.rule,
        READING_FAR_BEYOND_ITS_RANGE.rule,
        LOCK_JAMMED.rule,
        COVER_STOPPED_PART_WAY.rule,
        OPEN_WHILE_ASLEEP.rule,
        ROOM_WARMER_THAN_KEPT.rule,
        ROOM_WARMED_FAR_ABOVE_EVER.rule,
        READING_FROZEN.rule,
        STEADY_LOAD_STOPPED.rule,
        RUNNING_FAR_BELOW_ITS_DRAW.rule,
    }
)
# A plug offline this long is past every radio blip and reconnection the first days could
# teach (the home's drops, pooled, judged it already: ``drop_judge``), and past a block of
# scheduled load shedding (2 to 4 h: a Kyiv boiler's plug dark from 08:00 to 12:00 on the
# first morning is the grid's schedule, not the plug).
LONG_OUTAGE = timedelta(hours=6)
# A door's contact offline this long is past the drops of a flaky mesh (45 min at most).
ENTRY_OUTAGE = timedelta(hours=2)
# A door open this long before everybody left was not the way out.
STOOD_OPEN = timedelta(minutes=30)


def pushed_at_once(finding: Finding, someone_home: bool) -> bool:
    """Whether ``finding`` is pushed even while its devices are still being learned."""
    if is_hazard(finding.anomaly_type, finding.severity):
        return True
    if finding.severity.rank >= Severity.HIGH.rank:
        return True
    if finding.anomaly_type != AnomalyType.SECURITY:
        return False
    # A door "left open" for hours while nobody is home is how an interior door is left,
    # until learned otherwise; the entry into the empty home is the while-away rules'.
    # An opening made (and shut) while somebody was home is the household's, though
    # everybody left before it was judged (the dog let out at 07:01, pushed at the 07:54
    # departure): who was home when it happened decides, not who is home now.
    home = someone_home or finding.home_then is True
    return finding.while_away or (not home and finding.rule not in LEFT_OPEN_RULES)


def protective_offline(finding: Finding, baselines: HomeBaselines) -> bool:
    """A device the home's safety relies on has gone offline."""
    if finding.rule not in _OFFLINE_RULES:
        return False
    infos = baselines.infos
    return any(
        (info := infos.get(entity_id)) is not None
        and is_safety_device(info.domain, info.device_class)
        for entity_id in finding.evidence
    )


def watcher_offline(finding: Finding, baselines: HomeBaselines, now: datetime) -> bool:
    """A motion sensor gone offline: what sees the household move (their stillness, a
    fall) or anybody inside the empty home is blind from then on, whatever this home's
    drops turn out to be (a kitchen PIR's battery gone on the third morning of a busy
    flat, told only once the home was learned, 18 h later). Whoever is home: held while
    the flat is empty, it was told again when somebody came in. So is a door's contact
    offline for ``ENTRY_OUTAGE``: entries through it are unseen (a back door off the mesh
    on the third morning, told 15 h later once learned); shorter, a mesh that drops its
    devices for up to 45 minutes ten times a day is still the home's to learn."""
    if finding.rule not in _OFFLINE_RULES:
        return False
    infos, drops = baselines.infos, baselines.drops
    for entity_id in finding.evidence:
        info = infos.get(entity_id)
        if info is None or info.domain != "binary_sensor":
            continue
        if info.device_class in OCCUPANCY_DEVICE_CLASSES:
            return True
        if info.device_class in ENTRY_DEVICE_CLASSES:
            since = drops.down_since(entity_id)
            if since is not None and now - since >= ENTRY_OUTAGE:
                return True
    return False


def powered_load_offline(finding: Finding, baselines: HomeBaselines, now: datetime) -> bool:
    """A plug (its switch or its power meter) offline for ``LONG_OUTAGE`` or more: what it
    powers (a sump pump, a freezer) runs unseen and unswitchable from then on, whatever
    this home's drops turn out to be (a sump pump's plug off the Wi-Fi after a modem swap
    on the second day, 30 h in a storm, waited for the learning and was never told). A
    light is left out: a bulb switched off at the wall is unavailable every night."""
    if finding.rule not in _OFFLINE_RULES:
        return False
    infos, drops = baselines.infos, baselines.drops
    for entity_id in finding.evidence:
        info = infos.get(entity_id)
        if info is None or not _powers_a_load(info.domain, info.device_class):
            continue
        since = drops.down_since(entity_id)
        if since is not None and now - since >= LONG_OUTAGE:
            return True
    return False


def _powers_a_load(domain: str, device_class: str | None) -> bool:
    return domain == "switch" or (domain == "sensor" and device_class == "power")


def stood_open_before_leaving(finding: Finding, baselines: HomeBaselines) -> bool:
    """A door without a lock, "open while nobody is home", that stood open since well
    before everybody left: no entry into the empty home, and not the way out."""
    if finding.rule != "entry_unsecured_while_away":
        return False
    if any(e.partition(".")[0] == "lock" for e in finding.evidence):
        return False
    usual = baselines.usual
    door, departed = finding.subject, usual.departed
    if departed is None or door not in usual.open_at_departure:
        return False
    since = usual.open_since(door)
    if since is None:
        return False
    # Open well before the departure, or the household went out by another door it shut.
    return departed - since >= STOOD_OPEN or left_by_another_door(baselines, door)


def held_while_learning(
    finding: Finding,
    baselines: HomeBaselines,
    now: datetime,
    someone_home: bool,
    pets: bool = False,
    *,
    phoneless: bool = False,
) -> bool:
    """Whether ``finding`` waits: not urgent, and every device it cites still learning.
    ``pets``: the profile names a pet (its motion is no person's); ``phoneless``: it names
    somebody living here without a tracked phone (every tracker away is no empty home)."""
    if not finding.evidence or finding.rule in _OWN_NORMAL_RULES:
        return False
    if (
        pushed_at_once(finding, someone_home)
        and not stood_open_before_leaving(finding, baselines)
        and not waits_for_life_while_away(finding, baselines, pets, phoneless=phoneless)
        and (
            is_hazard(finding.anomaly_type, finding.severity)
            or not household_passage(finding, baselines, now, pets, phoneless=phoneless)
        )
    ):
        return False
    if protective_offline(finding, baselines) or garage_left_open(finding, baselines):
        return False
    if (
        watcher_offline(finding, baselines, now)
        or powered_load_offline(finding, baselines, now)
        or lock_stays_known(finding, baselines)
    ):
        return False
    if opened_in_empty_home(finding, baselines, someone_home):
        return False
    if left_open_in_the_night(finding, baselines, now, someone_home):
        return False
    return all(baselines.learning(entity_id, now) for entity_id in finding.evidence)


def still_learning(finding: Finding, baselines: HomeBaselines, now: datetime) -> Finding:
    """A finding pushed before its devices' normal is known says so (a hazard needs no
    such word): the homeowner knows it was judged by the default limits."""
    if is_hazard(finding.anomaly_type, finding.severity) or not finding.evidence:
        return finding
    if finding.rule in _OWN_NORMAL_RULES:
        return finding  # judged by what this device learned, not by a default limit
    if not all(baselines.learning(entity_id, now) for entity_id in finding.evidence):
        return finding
    until = max((baselines.learning_until(e) for e in finding.evidence), default=None, key=_when)
    if until is None or "still being learned" in finding.reasoning:
        return finding
    note = (
        f" This home's normal is still being learned (until {until:%d %b}): it was told at once"
        " as it cannot wait."
    )
    return replace(finding, reasoning=finding.reasoning + note)


def _when(value: datetime | None) -> float:
    return value.timestamp() if value is not None else 0.0


def not_held(
    findings: Iterable[Finding],
    baselines: HomeBaselines | None,
    now: datetime,
    someone_home: bool,
    pets: bool = False,
    *,
    phoneless: bool = False,
) -> list[Finding]:
    """The findings that may be pushed now (all of them without baselines)."""
    if baselines is None:
        return list(findings)
    return [
        still_learning(f, baselines, now)
        for f in findings
        if not held_while_learning(f, baselines, now, someone_home, pets, phoneless=phoneless)
    ]
