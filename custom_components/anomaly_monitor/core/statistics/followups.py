"""Missing or late follow-ups: a cause without its usual effect, learned from the window.

In a home many changes come in pairs: motion turns a light on, a thermostat call starts
the heating, an unlock is followed by the door opening. Such a pair is learned when,
in this window, the effect followed the cause almost every time and quickly. A later
occurrence of the cause with no effect (or a much later one) is then a broken link.

A broken link is told only when the link was a rule with its break counted in: followed
at least ``MIN_HIT_RATIO`` of the times up to the ``MIN_TRAILING_MISSES`` unanswered
causes that break it. A front door locked after 3 of its 5 closings, the last two not
(the dog's late walk, locked later or not at all), is a habit, and two misses in a row of
a habit kept 60 % of the time are chance (sets 3, 6, 14, 23: "followed 3 of 5 times",
"4 of 6"); a light that answered motion 10 times and then twice not is broken (and stays
so as its misses go on).

A light that followed motion only in the dark and stops at sunrise is an automation with
a condition (lights on only when it is dark), not a broken link: misses in daylight do
not break a link answered only in the dark.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity, parse_number

# The effect must come within this long after the cause to count as following it.
FOLLOW_WINDOW = timedelta(minutes=2)
SAME_INSTANT = timedelta(seconds=5)
# A pair is learned only from this many causes, and when this share had the effect.
MIN_OCCURRENCES = 4
MIN_HIT_RATIO = 0.8
# The learned effect must be fast (typical lag at most this).
MAX_TYPICAL_LAG = timedelta(seconds=20)
# A late effect is this many times slower than usual, and at least LATE_MIN late.
LATE_FACTOR = 5.0
LATE_MIN = timedelta(seconds=20)
# Unanswered causes at the end of the window that make a broken link.
MIN_TRAILING_MISSES = 2
# Effects worth expecting: what automations and people operate, and motion after an
# entrance opens. Two sensors firing together is coincidence, not a link.
EFFECT_DOMAINS = frozenset(
    {
        "light",
        "switch",
        "fan",
        "cover",
        "lock",
        "climate",
        "alarm_control_panel",
        "siren",
        "media_player",
        "notify",
        "valve",
        "water_heater",
    }
)
# Follow-ups are only learned between entities that share an area (or from whole-home
# devices, which have no area).
MAX_ENTITIES = 150


def _can_follow(home: HomeView, cause: str, effect: str, effect_state: str) -> bool:
    """Is ``effect`` entering ``effect_state`` something ``cause`` can bring about?"""
    if effect_state in ("off", "idle", "closed", "unavailable", "unknown"):
        return False  # things stop on timers; only a start is an expected response
    if home.domain(cause) != "binary_sensor":
        return False  # habits between appliances are not links; sensors trigger things
    domain = home.domain(effect)
    if domain in EFFECT_DOMAINS:
        return home.domain(cause) not in EFFECT_DOMAINS or domain != home.domain(cause)
    if domain == "binary_sensor" and home.device_class(effect) in ("motion", "occupancy"):
        return home.device_class(cause) in ("door", "garage_door")
    return False


def _may_follow_a_sensor(home: HomeView, effect: str, effect_state: str) -> bool:
    """``_can_follow`` may hold for some binary sensor as the cause."""
    if effect_state in ("off", "idle", "closed", "unavailable", "unknown"):
        return False
    domain = home.domain(effect)
    return domain in EFFECT_DOMAINS or (
        domain == "binary_sensor" and home.device_class(effect) in ("motion", "occupancy")
    )


@dataclass(frozen=True, slots=True)
class FollowUpLink:
    cause: str
    cause_state: str
    effect: str
    effect_state: str
    hits: list[timedelta]
    misses: list[datetime]
    causes: int
    last_hit: datetime
    # When the causes it answered happened.
    answered: tuple[datetime, ...] = ()


def _events(home: HomeView) -> dict[tuple[str, str], list[datetime]]:
    """When each (entity, state) was entered; numeric readings are not events."""
    events: dict[tuple[str, str], list[datetime]] = {}
    # Each state text lowered and parsed once (a window's meters repeat their readings):
    # the event's state, or None for a number.
    said: dict[str, str | None] = {}
    for entity_id in list(home.history)[:MAX_ENTITIES]:
        for change in home.changes(entity_id)[1:]:  # the first is the window's start
            state = said.get(change.state, _UNSAID)
            if state is _UNSAID:
                lowered = change.state.lower()
                state = said[change.state] = None if parse_number(lowered) is not None else lowered
            if state is not None:
                events.setdefault((entity_id, state), []).append(change.when)  # type: ignore[arg-type]
    return events


_UNSAID = object()


def _state_at(changes: list[tuple[datetime, str]], when: datetime) -> str | None:
    """State an entity held just before ``when`` (``None`` before its first change)."""
    index = bisect_left(changes, (when,)) - 1
    return changes[index][1] if index >= 0 else None


def follow_up_links(home: HomeView) -> list[FollowUpLink]:
    """The links of this window, learned once per analysis (both checks read them)."""
    return home.shared("follow-up links", lambda: _learn_links(home))


def _learn_links(home: HomeView) -> list[FollowUpLink]:
    events = _events(home)
    timelines = {
        entity_id: [(t.when, t.state.lower()) for t in home.changes(entity_id)]
        for entity_id in {key[0] for key in events}
    }
    keys = [k for k, times in events.items() if len(times) >= MIN_OCCURRENCES]
    # Only what some binary sensor could bring about is tried as an effect (read once, not
    # per cause; ``_can_follow`` still judges each pair).
    effects = [(k, t, home.area(k[0])) for k, t in events.items() if _may_follow_a_sensor(home, *k)]
    # ``_can_follow`` reads a cause's domain (a binary sensor here) and class only: judged
    # once per class and effect, not per pair.
    follows: dict[tuple[str | None, str, str], bool] = {}
    links: list[FollowUpLink] = []
    for cause in keys:
        if home.domain(cause[0]) != "binary_sensor":
            continue  # nothing can follow it (``_can_follow``): its pairs are not tried
        cause_area = home.area(cause[0])
        cause_class = home.device_class(cause[0])
        cause_times = events[cause]
        for effect, effect_times, effect_area in effects:
            if effect[0] == cause[0]:
                continue
            if (can := follows.get(kind := (cause_class, *effect))) is None:
                can = follows[kind] = _can_follow(home, cause[0], effect[0], effect[1])
            if not can:
                continue
            if cause_area and effect_area and cause_area != effect_area:
                continue
            hits: list[timedelta] = []
            misses: list[datetime] = []
            for when in cause_times:
                # An effect logged in the same instant may be ordered just before its cause.
                index = bisect_left(effect_times, when - SAME_INSTANT)
                if index < len(effect_times) and effect_times[index] - when <= FOLLOW_WINDOW:
                    hits.append(max(effect_times[index] - when, timedelta(0)))
                elif _state_at(timelines[effect[0]], when - SAME_INSTANT) != effect[1]:
                    misses.append(when)  # (already in that state: nothing to bring about)
            missed = set(misses)
            answered = [w for w in cause_times if w not in missed]
            last_hit = max(answered) if answered else cause_times[0]
            # The habit is judged up to its last answer: a link that broke later is
            # still a link, and its trailing misses are the news.
            habit = sum(1 for w in cause_times if w <= last_hit)
            if len(hits) < MIN_HIT_RATIO * habit or len(hits) < MIN_OCCURRENCES - 1:
                continue
            links.append(
                FollowUpLink(
                    cause[0],
                    cause[1],
                    effect[0],
                    effect[1],
                    hits,
                    misses,
                    len(cause_times),
                    last_hit,
                    tuple(answered),
                )
            )
    return links


def broken_links(home: HomeView) -> Iterator[tuple[FollowUpLink, list[datetime]]]:
    """The window's links whose last causes all went unanswered, with those causes."""
    for link in follow_up_links(home):
        typical = timedelta(seconds=median(h.total_seconds() for h in link.hits))
        if typical > MAX_TYPICAL_LAG or not link.misses:
            continue
        # One skipped response among many is a person's choice (no light needed); a
        # broken link shows as the last causes all going unanswered.
        trailing = [m for m in link.misses if m > link.last_hit]
        if len(trailing) < MIN_TRAILING_MISSES or len(link.misses) - len(trailing) > 1:
            continue
        broken_at = link.causes - len(trailing) + MIN_TRAILING_MISSES
        if len(link.hits) < MIN_HIT_RATIO * broken_at:
            continue  # a habit, not a rule, once its break counts (see the module's text)
        if _dark_only(home, link, trailing):
            continue
        yield link, trailing


def _dark_only(home: HomeView, link: FollowUpLink, misses: list[datetime]) -> bool:
    """A light answered only in the dark, and missed in daylight: its automation's
    condition (lights only when it is dark), not a fault."""
    if home.domain(link.effect) != "light":
        return False
    daylight = home.env.daylight_at
    return all(daylight(m) is True for m in misses) and all(
        daylight(a) is False for a in link.answered
    )


MISSING_FOLLOW_UP = FindingKind(
    "missing_follow_up", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def missing_follow_up(home: HomeView) -> Iterator[Finding]:
    """A cause that is reliably followed by an effect in this home happened without it.

    Magnitude: how many causes in a row went unanswered at the end of the window.
    """
    for link, trailing in broken_links(home):
        yield MISSING_FOLLOW_UP.finding(
            evidence=(link.cause,),
            reasoning=f"{link.cause} → {link.cause_state} is normally followed by "
            f"{link.effect} → {link.effect_state} ({len(link.hits)} of {link.causes} times), "
            f"but not since {trailing[0]:%Y-%m-%d %H:%M} ({len(trailing)} times in a row).",
            recommendation=f"Check {link.effect} and the automation linking it to {link.cause}.",
            magnitude=float(len(trailing)),
        )


LATE_FOLLOW_UP = FindingKind("late_follow_up", AnomalyType.DEVICE_MALFUNCTION, Severity.LOW)


def late_follow_up(home: HomeView) -> Iterator[Finding]:
    """An effect that normally follows its cause within seconds came much later.

    Magnitude: the slowest response, in seconds.
    """
    for link in follow_up_links(home):
        lags = sorted(h.total_seconds() for h in link.hits)
        if len(lags) < MIN_OCCURRENCES:
            continue
        typical = median(lags[:-1])
        slowest = lags[-1]
        if typical > MAX_TYPICAL_LAG.total_seconds():
            continue
        if slowest < max(LATE_MIN.total_seconds(), LATE_FACTOR * typical):
            continue
        yield LATE_FOLLOW_UP.finding(
            evidence=(link.effect,),
            reasoning=f"{link.effect} usually follows {link.cause} within {typical:.0f} s, "
            f"but once took {slowest:.0f} s.",
            recommendation=f"Check the responsiveness of {link.effect} and its automation.",
            magnitude=slowest,
        )
