"""A door, valve, switch or lock in its active state far longer than it ever is, learned.

``StateDurations`` knows, per entity, how long each state usually lasts at each quarter
of the day. A garage door that is open ten minutes at a time and now has been open for
two hours, a plug switch that is on for an hour at most and now has been on since
morning, an irrigation valve open three times its longest: each is a fact of *this* home,
with no fixed limit and no word of the entity's id.

Judged: the *active* state of the kinds of entity a person leaves on or open (HA's
vocabulary: an opening ``binary_sensor`` on, a ``switch``/``fan`` on, a ``valve``/``cover``
open, a ``lock`` unlocked). Lights are not judged (a lamp left on is not worth a
notification). The limit is ``FACTOR`` times the longest stay learned for the quarter of
the day the stay began in (or every quarter pooled, when that quarter has too few), and
never less than ``FLOOR`` (a lock in the hours the home rests at: ``lock_floor``).
The stay being judged has not taught itself: a stay is learned
only when it ends. While few stays are known (``FEW_STAYS`` or more, every quarter pooled,
but too few for the quarters' rule), the limit is ``FEW_FACTOR`` times the longest: a
water heater switched on for an hour twice a day, four days after set-up, left on all day.
Only appliances (a switch, fan or valve) are judged so: a door, cover or lock with so few
stays is a sample too small for a security alarm (a Halloween evening of callers, one hour
unlocked, against eight stays of a few minutes), and the away and night rules watch it.
An appliance whose stays all last about as long (a timer or a fixed routine, from three
stays: ``timed_stays``) is judged at ``TIMED_FACTOR`` times the longest (a motorised door
so timed, an hour past its longest: ``door_timers``), and so is an
``enum`` sensor's operation state other than its rest. Every limit is also due: the glue
analyses when a stay passes it (``long_stay_due``). A stay the homeowner marked normal
while it lasted is not told again while it lasts (``marked_normal``), nor is a lock whose
door is in use, guests coming and going, while the household is up (``lock_in_use``).
A door that rests open is judged shut (``shut_behind``): somebody behind it may need help.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from ..device_roles import own_meter, shut_after_use
from ..home import OPENING_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, clip
from ..power_units import RUNNING_WATTS, watts
from ..state_blips import is_no_state
from ..statistics.durations import ENTRY_OPEN_LIMIT
from ..statistics.timeline import Interval
from .attended_doors import ATTENDED_LIMIT, lit_in_use
from .clock import local
from .door_at_rest import rest_door_limit
from .door_timers import door_timer_limit, is_motorised_door
from .durations import quarter_of_day
from .entrance_subject import entrance_evidence
from .gathering import gathered
from .home_baselines import HomeBaselines
from .lock_floor import lock_floor
from .lock_in_use import lock_in_use
from .shut_behind import SHUT, shut_limit
from .stay_habits import StayHabit, habit_text
from .timed_stays import LEFT_ON_PAST_ITS_ROUTINE, TIMED_FACTOR, resting_state, timed_stays
from .usual_use import MARKED_STAY

# Far longer than ever: this many times the longest learned stay...
FACTOR = 3.0
# ...and never less than this (an hour of a door or a plug on is still everyday life).
FLOOR = ATTENDED_LIMIT
# With this many stays only (every quarter pooled), this many times the longest.
FEW_STAYS = 6
FEW_FACTOR = 6.0
# (domain, state) judged, and how the state reads to a homeowner.
_ACTIVE: dict[tuple[str, str], str] = {
    ("binary_sensor", "on"): "open",  # opening device classes only (below)
    ("switch", "on"): "on",
    ("fan", "on"): "on",
    ("valve", "open"): "open",
    ("cover", "open"): "open",
    ("lock", "unlocked"): "unlocked",
}
_SECURITY_DOMAINS = frozenset({"binary_sensor", "cover", "lock"})
_QUARTER_NAMES = ("at night", "in the morning", "in the afternoon", "in the evening")
# A door that rests open, shut (``shut_behind``): whoever shut it may need help.
SHUT_WORD = "shut"
_NOBODY_ELSEWHERE = " Nobody has been seen elsewhere in the home since."
_AT_REST = " It is the hour this household sleeps, and nothing has moved by it since."
# The same hours with everybody out (walk 45: the last ones out left the door open, and read
# that the household sleeps).
_ALL_OUT = " Everybody has gone out, and nothing has moved by it since."
_BEHIND_IT = (
    "Somebody may have shut it behind them and need help (a fall, a faint): knock or call"
    " them, and look in if nobody answers."
)


def duration_text(span: timedelta) -> str:
    """``2 h 05 min``, ``45 min`` or, under a minute, ``30 s`` (walk27: a misting pump's
    30-s runs read "it runs for at most 0 min")."""
    if 0 < span.total_seconds() < 60:
        return f"{max(1, round(span.total_seconds()))} s"
    minutes = int(span.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def learned_from(count: int, what: str, note: str = "") -> str:
    """``(learned from 14 stays, in the evening)``: what a learned limit rests on (``note``
    brings its own separator: ``", in the evening"``)."""
    return f"(learned from {count} {what}{note})"


def at_most(minutes: float, count: int, what: str, note: str = "") -> str:
    """``at most 45 min (learned from 14 stays)``: a learned limit, said one way in every
    check that tells it."""
    return f"at most {duration_text(timedelta(minutes=minutes))} {learned_from(count, what, note)}"


def marked_normal(baselines: HomeBaselines, entity_id: str) -> bool:
    """The stay ``entity_id`` is in now was marked normal (a false alarm) while it lasted:
    not told again, however long it grows (the homeowner left it on on purpose)."""
    marked = baselines.usual.taught_value(entity_id, MARKED_STAY)
    current = baselines.durations.current.get(entity_id)
    return marked is not None and current is not None and abs(current[1].timestamp() - marked) < 1


def stay_since(home: HomeView, baselines: HomeBaselines, state: EntityState) -> datetime | None:
    """Since when the entity is in its current state: the earliest the home can prove.

    HA's ``last_changed`` starts again at a restart; the baselines remember the stay
    across it (their current state, when it is the same).
    """
    since = state.last_changed
    remembered = baselines.durations.current.get(state.entity_id)
    if remembered is not None and remembered[0] == state.state:
        since = remembered[1] if since is None else min(since, remembered[1])
    return since


@dataclass(frozen=True, slots=True)
class _Limit:
    """A judged stay: since when, the limit it is judged by, and what the limit rests on."""

    state: EntityState
    word: str
    since: datetime
    limit: timedelta
    count: int
    longest: float
    pooled: bool
    timed: bool
    habit: StayHabit | None = None  # the habit at this hour that set the limit
    at_rest: bool = False  # a door held open in the hours the home rests (``door_at_rest``)


def _limits(home: HomeView, baselines: HomeBaselines) -> Iterator[_Limit]:
    """Every active stay the home has learned enough to judge, and its limit."""
    now = home.end
    for (domain, active), word in _ACTIVE.items():
        for state in home.of(domain):
            if state.state != active:
                continue
            if domain == "binary_sensor" and state.info.device_class not in OPENING_DEVICE_CLASSES:
                continue
            since = stay_since(home, baselines, state)
            if since is None or since >= now or marked_normal(baselines, state.entity_id):
                continue
            if lock_in_use(home, baselines, state, since):
                continue  # guests coming and going: the night rule judges it at rest
            # What the homeowner marked normal ("false alarm") stands beside the stays.
            taught = baselines.usual.taught_value(state.entity_id, "stay") or 0.0
            learned = baselines.durations.longest(state.entity_id, active, since)
            factor, timed = FACTOR, None
            door_timer = is_motorised_door(state)  # (a hen-house door shut at sunset)
            if domain not in _SECURITY_DOMAINS or door_timer:  # (a contact or lock: no timer)
                timed = timed_stays(baselines.durations, state.entity_id, active, since)
            by_timer = timed is not None and taught <= timed[1]
            if timed is not None and by_timer:
                learned, factor = timed, TIMED_FACTOR
            elif learned is None:  # few stays: judged only far past them
                if domain in _SECURITY_DOMAINS:
                    continue  # (an appliance left on; a door's or lock's few stays say too little)
                few, most = baselines.durations.whole_record(state.entity_id, active)
                if few < FEW_STAYS:
                    continue
                learned, factor = (few, most, True), FEW_FACTOR
            count, longest, pooled = learned
            longest = max(longest, taught)
            floor = lock_floor(home, baselines, state, since, FLOOR)  # sooner at rest hours
            limit = max(floor, factor * timedelta(minutes=longest))
            if door_timer and by_timer:
                limit = door_timer_limit(longest, factor, FLOOR)
            # Stood so this long around this hour on other days, or on this weekday before
            # (a lock left on the key from Friday evening to Saturday night, every week):
            # told once it is an hour past that habit, when the stays learned missed it (an
            # outlier learned slowly); a timer's own stays judge a timer.
            habit = None if by_timer else baselines.habits.usual(state.entity_id, since)
            if (
                habit is not None
                and habit.minutes > longest
                and timedelta(minutes=habit.minutes) + FLOOR > limit
            ):
                limit = timedelta(minutes=habit.minutes) + FLOOR
            else:
                habit = None
            sooner = (
                None
                if by_timer
                else rest_door_limit(home, baselines, state, since, timedelta(minutes=longest))
            )
            if sooner is not None and sooner < limit:  # held open in the night: sooner
                limit, habit = sooner, None
            yield _Limit(
                state, word, since, limit, count, longest, pooled, by_timer, habit, sooner == limit
            )
    yield from _shut_doors(home, baselines)
    yield from _timed_states(home, baselines)


def _shut_doors(home: HomeView, baselines: HomeBaselines) -> Iterator[_Limit]:
    """A door that rests open, shut with nobody seen elsewhere since (``shut_behind``)."""
    for state in home.of("binary_sensor"):
        if state.state != SHUT:
            continue
        since = stay_since(home, baselines, state)
        if since is None or since >= home.end or marked_normal(baselines, state.entity_id):
            continue
        if (judged := shut_limit(home, baselines, state, since)) is None:
            continue
        (count, longest, pooled), limit = judged
        yield _Limit(state, SHUT_WORD, since, limit, count, longest, pooled, False)


def _timed_states(home: HomeView, baselines: HomeBaselines) -> Iterator[_Limit]:
    """An ``enum`` sensor (an appliance's operation state) in a state other than the one
    it rests in, whose stays are timed: judged as a timer (``timed_stays``)."""
    durations = baselines.durations
    for state in home.of("sensor", "enum"):
        if is_no_state(state.state) or state.state == resting_state(durations, state.entity_id):
            continue
        since = stay_since(home, baselines, state)
        if since is None or since >= home.end or marked_normal(baselines, state.entity_id):
            continue
        timed = timed_stays(durations, state.entity_id, state.state, since)
        taught = baselines.usual.taught_value(state.entity_id, "stay") or 0.0
        if timed is None or taught > timed[1]:
            continue
        count, longest, pooled = timed
        limit = max(FLOOR, TIMED_FACTOR * timedelta(minutes=longest))
        word = f"in its state {clip(state.state, 32)!r}"
        yield _Limit(state, word, since, limit, count, longest, pooled, True)


def drawing_meters(home: HomeView, switch: EntityState) -> tuple[str, ...]:
    """The power meters of a switch's own device drawing now: what it left on shows there."""
    if switch.domain != "switch":
        return ()
    return tuple(
        meter.entity_id
        for meter in home.of("sensor", "power")
        if own_meter(home, switch, meter)
        and (value := meter.number) is not None
        and (watts(value, meter.info.unit) or 0.0) >= RUNNING_WATTS
    )


def long_stay_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """The earliest moment, after now, that a judged stay passes its limit: the glue
    analyses then (the periodic analysis may come up to 15 min later)."""
    if baselines is None:
        return None
    due = [j.since + j.limit for j in _limits(home, baselines) if j.since + j.limit > home.end]
    return min(due, default=None)


def _lit_in_use(home: HomeView, state: EntityState, since: datetime) -> bool:
    """A door ``entry_left_open`` judges (not a window, nor a door shut: somebody behind it
    may need help), open in a lit room people keep moving in: in use, as it reads it."""
    if state.domain != "binary_sensor" or state.state.lower() != "on":
        return False
    if not shut_after_use(home, state.entity_id):
        return False
    spell = Interval(state.entity_id, state.state, since, home.end, ongoing=True)
    return lit_in_use(home, state.entity_id, spell, ENTRY_OPEN_LIMIT)


def _gathered_by(home: HomeView, baselines: HomeBaselines, state: EntityState) -> bool:
    """A door ``entry_left_open`` judges, open while people are gathered (``gathering``)."""
    return shut_after_use(home, state.entity_id) and gathered(home, baselines, home.end)


def _at_rest(home: HomeView) -> str:
    """Why a door held open in the hours the home rests is news sooner: the household
    asleep, or out (every person away)."""
    return _ALL_OUT if home.nobody_home else _AT_REST


def state_longer_than_usual(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """An entity left on/open/unlocked far longer than it has ever been at that time of day.

    Magnitude: minutes in the state so far.
    """
    now = home.end
    zone = home.env.zone
    for judged in _limits(home, baselines):
        state, word, since = judged.state, judged.word, judged.since
        stayed = now - since
        if stayed <= judged.limit or _lit_in_use(home, state, since):
            continue
        if word == _ACTIVE[("binary_sensor", "on")] and _gathered_by(home, baselines, state):
            continue  # people gathered: the door is in use, as ``entry_left_open`` reads it
        begun = local(since, zone)
        quarter = quarter_of_day(since, baselines.zone)
        when = "at any time of day" if judged.pooled else _QUARTER_NAMES[quarter]
        habit = at_most(judged.longest, judged.count, "stays", f", {when}")
        if judged.timed:
            habit += ", each about as long (a timer or a fixed routine)"
        if judged.habit is not None:
            habit += f".{habit_text(judged.habit)[:-1]}"
        evidence, subject = entrance_evidence(home, state)  # one entrance, one incident
        evidence += drawing_meters(home, state)
        finding = Finding(
            rule="state_longer_than_usual",
            evidence=evidence,
            subject=subject,
            reasoning=f"{state.entity_id} has been {word} for {duration_text(stayed)}, "
            f"since {begun:%H:%M}; in this home it is usually {word} for {habit}."
            + (_NOBODY_ELSEWHERE if word == SHUT_WORD else "")
            + (_at_rest(home) if judged.at_rest else ""),
            anomaly_type=AnomalyType.SECURITY
            if state.domain in _SECURITY_DOMAINS
            else AnomalyType.BEHAVIOURAL,
            severity=Severity.MEDIUM,
            recommendation=_BEHIND_IT
            if word == SHUT_WORD
            else f"Check whether it should still be {word}.",
            magnitude=round(stayed.total_seconds() / 60, 1),
            since=since,
        )
        if judged.timed and state.domain not in _SECURITY_DOMAINS:  # (a door: security)
            finding = replace(
                finding,
                rule=LEFT_ON_PAST_ITS_ROUTINE.rule,
                anomaly_type=LEFT_ON_PAST_ITS_ROUTINE.anomaly_type,
            )
        yield finding
