"""A light that always answered motion at these hours, and has not the last few times.

``Relations`` learns, for every motion sensor and light of one area (or of one HA device:
a floodlight with its own motion sensor), how often the light came on within a minute of
motion that began while it was off, by the local hour of the motion (``relation_hours``),
and the run of misses since it last did. Motion while everybody is away is not learned
(automations often run only while someone is home; a pet is nobody's cue).

A light is told (``light_not_answering_motion``, device malfunction, medium) when, at the
hours it is *expected*, it has missed the last ``MIN_MISSES`` motions in a row. The
expected hours are the candidate hours (it came on after ``HOUR_SHARE`` of at least
``MIN_HOUR_ONSETS`` motions of that hour before the run began, as at the neighbour hours:
the edge of the dark hours moves with the season), pooled: there it came on after at least
``MIN_SHARE`` of at least ``MIN_SUPPORT`` motions, over at least ``MIN_DAYS`` days. A
person who switches the light by hand when entering does not reach that share (passing
through, enough light, the lamp left on): 85 % of the times is no expectation, however
regular; one who never forgets (95 %) makes one, and three misses in a row are then rare.
The bulb has failed, the light lost its power or its radio link, or the automation was
disabled or broken.

Not judged while the light cannot be read (``unavailable``: the device checks tell that);
judged whoever is home now (the run was learned while someone was: an empty home's hours
neither add to it nor end it, so the anomaly is not cleared when everybody leaves and
told again when they are back). A run older than ``MAX_RUN`` is the home's new normal (the
homeowner has been told, or changed the automation on purpose), and one whose last miss is
``STALE`` is no news any more. No entity id's words: domain, device_class, area, device.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from statistics import median

from ..finding_kind import FindingKind
from ..home import HomeView, is_unavailable
from ..models import AnomalyType, Finding, Severity
from .clock import hour_of_day, local, moment_text
from .home_baselines import HomeBaselines
from .relation_hours import HourlyOutcomes
from .relation_kinds import MOTION_LIGHT
from .relations import PairStats

# An hour is a candidate when the light answered this share of at least this many motions
# of it (its neighbours too): the automation's hours, the dark ones.
HOUR_SHARE = 0.8
MIN_HOUR_ONSETS = 3
# Over the candidate hours pooled, the habit: an automation answers (nearly) every time, a
# person's hand far less often (passing through, enough light, the lamp left on).
MIN_SHARE = 0.95
MIN_SUPPORT = 30
MIN_DAYS = 5
MIN_MISSES = 3
# A run whose last miss at its hours is this old is no news; one this long, the new normal.
STALE = timedelta(hours=24)
MAX_RUN = timedelta(days=3)


@dataclass(frozen=True, slots=True)
class _Broken:
    expected: list[int]
    misses: int
    support: int  # motions at the expected hours before the run
    answered: int
    since: datetime  # the first miss at its hours kept
    days: int


def _hours_text(hours: list[int]) -> str:
    """[18, 19, 20, 21, 22, 23, 0, 1] as "18:00-02:00"; separate spans joined by "and"."""
    chosen = set(hours)
    starts = [h for h in sorted(chosen) if (h - 1) % 24 not in chosen] or [min(chosen)]
    spans = []
    for start in starts:
        end = start
        while (end + 1) % 24 in chosen and (end + 1) % 24 != start:
            end = (end + 1) % 24
        spans.append(f"{start:02d}:00-{(end + 1) % 24:02d}:00")
    return " and ".join(spans)


def _delay_text(stats: PairStats) -> str:
    seconds = median(stats.delays or (0.0,))
    return f"{max(1, round(seconds))} s" if seconds < 60 else "a minute"


def _broken(hours: HourlyOutcomes, now: datetime, zone: tzinfo | None) -> _Broken | None:
    """The expected hours, the misses at them in the run, etc., if the habit is broken."""
    if hours.run_since is None or now - hours.run_since > MAX_RUN or hours.days < MIN_DAYS:
        return None
    expected = hours.expected_hours(MIN_HOUR_ONSETS, HOUR_SHARE)
    misses = sum(hours.run[h] for h in expected)
    at_its_hours = [when for when in hours.misses if hour_of_day(when, zone) in expected]
    if misses < MIN_MISSES or not at_its_hours or now - at_its_hours[-1] > STALE:
        return None
    support = sum(hours.before_run(h) for h in expected)
    answered = sum(hours.followed[h] for h in expected)
    if support < MIN_SUPPORT or answered < MIN_SHARE * support:
        return None
    return _Broken(expected, misses, support, answered, at_its_hours[0], hours.days)


LIGHT_NOT_ANSWERING_MOTION = FindingKind(
    "light_not_answering_motion", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def light_not_answering_motion(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A light that came on with motion at these hours nearly every time, and now has not.

    Magnitude: the misses in a row at its expected hours.
    """
    now = home.end
    zone = home.env.zone
    broken: dict[str, list[tuple[str, PairStats, _Broken]]] = {}
    for (cause, effect), stats in baselines.relations.pairs.items():
        if stats.kind != MOTION_LIGHT or stats.hours is None:
            continue
        found = _broken(stats.hours, now, baselines.zone)
        motion, lamp = home.info(cause), home.info(effect)
        if found is None or motion is None or lamp is None or is_unavailable(lamp):
            continue
        broken.setdefault(effect, []).append((cause, stats, found))
    for light, pairs in broken.items():
        cause, stats, found = max(pairs, key=lambda pair: pair[2].misses)
        since = local(found.since, zone)
        when = moment_text(since, now, zone)
        area = home.area(light)
        where = f" in {area}" if area else ""
        yield LIGHT_NOT_ANSWERING_MOTION.finding(
            evidence=(light, *sorted(c for c, _, _ in pairs)),
            reasoning=f"{light} has not come on the last {found.misses} times {cause} saw "
            f"movement{where} while the light was off (since {when}); at "
            f"{_hours_text(found.expected)} it came on within {_delay_text(stats)} of movement "
            f"{found.answered} of {found.support} times learned, over {found.days} days: the "
            "light or what switches it on with motion has stopped working.",
            recommendation="Check the light's bulb and power, then the automation that "
            "switches it on with motion (enabled, its conditions) and the motion sensor.",
            magnitude=float(found.misses),
        )


def knows_pair(baselines: HomeBaselines, motion: str, light: str) -> bool:
    """The home has learned how ``light`` answers ``motion``: ``MIN_SUPPORT`` motions that
    began while it was off, over ``MIN_DAYS`` days (by the hour: ``light_not_answering_motion``
    judges the pair, and a window of hours knows it less well)."""
    stats = baselines.relations.pairs.get((motion, light))
    if stats is None or stats.kind != MOTION_LIGHT or stats.hours is None:
        return False
    return sum(stats.hours.onsets) >= MIN_SUPPORT and stats.hours.days >= MIN_DAYS


def switched_by_hand(baselines: HomeBaselines, light: str) -> bool:
    """The light has met motion that began while it was off often enough (``MIN_SUPPORT``
    times over ``MIN_DAYS`` days) and at no hour came on after most of it: a person switches
    it, motion does not (a lamp switched on 20 s after someone walked in is no slow
    automation)."""
    pairs = [
        stats.hours
        for (_, effect), stats in baselines.relations.pairs.items()
        if effect == light and stats.kind == MOTION_LIGHT and stats.hours is not None
    ]
    if sum(sum(hours.onsets) for hours in pairs) < MIN_SUPPORT:
        return False
    if max((hours.days for hours in pairs), default=0) < MIN_DAYS:
        return False
    return not any(hours.expected_hours(MIN_HOUR_ONSETS, HOUR_SHARE) for hours in pairs)


# A light's own answers that make its habit (three mornings it was switched on 30 s after
# the motion), and how many times its habit a slow answer must take to be news.
OWN_ANSWERS = 3
OWN_FACTOR = 5.0


def _own_delays(baselines: HomeBaselines, light: str) -> list[float]:
    return [
        delay
        for (_, effect), stats in baselines.relations.pairs.items()
        if effect == light and stats.kind == MOTION_LIGHT and stats.delays
        for delay in stats.delays
    ]


def answers_this_slowly(baselines: HomeBaselines, light: str, lag: float) -> bool:
    """The light's own learned answers to motion (at least ``OWN_ANSWERS``) put a lag of
    ``lag`` seconds within ``OWN_FACTOR`` times their median: slow is this light's habit
    (a lamp somebody switches on half a minute after getting up), not an automation that
    became slow. The home's pooled habit judges a light only until its own is known."""
    delays = _own_delays(baselines, light)
    return len(delays) >= OWN_ANSWERS and lag <= OWN_FACTOR * median(delays)


def never_answered_quickly(baselines: HomeBaselines, light: str, quick: float) -> bool:
    """Fewer than ``OWN_ANSWERS`` answers to motion learned for the light, none of them
    within ``quick`` seconds: nothing shows an automation behind it. The evening lamp
    somebody switches on at dusk met motion within a minute once or twice in days (the
    rest of the times minutes apart); its first half-minute answer is a hand, not a slow
    automation (the home's corridor light sets the pooled habit of 1 s)."""
    delays = _own_delays(baselines, light)
    return len(delays) < OWN_ANSWERS and all(delay >= quick for delay in delays)
