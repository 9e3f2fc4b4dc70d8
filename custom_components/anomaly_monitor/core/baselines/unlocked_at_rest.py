"""A lock left unlocked while the household sleeps, longer than it ever stays unlocked.

``state_longer_than_usual`` tells a lock unlocked ``FACTOR`` (3) times longer than its
longest learned stay: a day's margin, for a door unlocked while people come and go. One
long evening of use (a party, trick-or-treaters) then triples that margin, and a
deadbolt forgotten at bedtime stays unlocked all night untold. While the household
sleeps nobody comes and goes, so the margin is the stay itself: a lock unlocked since
before the household went to rest, longer than it has ever stayed unlocked here (and
than ``FLOOR``), after an hour of rest in the small hours (``household_asleep``), nobody
known away, is told.

A household that leaves its door unlocked overnight has learned stays that long, and is
not told. "Asleep" is this home's own rest (``DailyRhythm``: nobody moved for
``REST_GAP``), not a clock; fewer than ``MIN_STAYS`` learned unlocked stays judge
nothing. A lock whose door was used again since that rest began (a night of coming and
going, with a sensor held on for hours that makes no new motion) is in use
(``lock_in_use``), not a household asleep behind an unlocked door.
Known by the ``lock`` domain and its ``unlocked`` state; no id word is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from ..occupancy import Occupancy
from .clock import local
from .entrance_subject import entrance_evidence
from .home_baselines import HomeBaselines
from .household_asleep import asleep_since
from .lock_in_use import lock_in_use
from .long_stays import FLOOR, duration_text, learned_from, stay_since

# Unlocked stays learned (any time of day) before the longest is taken as known.
MIN_STAYS = 5


UNLOCKED_WHILE_ASLEEP = FindingKind("unlocked_while_asleep", AnomalyType.SECURITY, Severity.MEDIUM)


def unlocked_while_asleep(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A lock unlocked since before the household's rest, longer than ever learned.

    Magnitude: minutes the lock has been unlocked.
    """
    if home.occupancy is Occupancy.EMPTY:
        return  # nobody home: the away checks judge an unlocked door
    now = home.end
    zone = baselines.zone
    if (rest := asleep_since(home, baselines)) is None:
        return
    for lock in home.of("lock"):
        if lock.state != "unlocked":
            continue
        since = stay_since(home, baselines, lock)
        if since is None or since > rest:
            continue  # unlocked during the rest: somebody up, or coming home
        if lock_in_use(home, baselines, lock, since):
            continue  # its door used again since the rest began: people up, not asleep
        learned = _longest_stay(baselines, lock.entity_id)
        if learned is None:
            continue
        count, longest = learned
        longest = max(longest, baselines.usual.taught_value(lock.entity_id, "stay") or 0.0)
        if (habit := baselines.habits.usual(lock.entity_id, since)) is not None:
            longest = max(longest, habit.minutes)  # unlocked so on other nights, or weekly
        stayed = now - since
        if stayed <= max(FLOOR, timedelta(minutes=longest)):
            continue
        evidence, subject = entrance_evidence(home, lock)  # one entrance, one incident
        yield UNLOCKED_WHILE_ASLEEP.finding(
            evidence=evidence,
            subject=subject,
            reasoning=f"{lock.info.name} has been unlocked for {duration_text(stayed)}, since "
            f"{local(since, zone):%H:%M}, and the household has been asleep since "
            f"{local(rest, zone):%H:%M}; here it has never stayed unlocked longer than "
            f"{duration_text(timedelta(minutes=longest))} {learned_from(count, 'stays')}.",
            recommendation="Lock the door remotely, or check it.",
            magnitude=round(stayed.total_seconds() / 60, 1),
        )


def _longest_stay(baselines: HomeBaselines, entity_id: str) -> tuple[int, float] | None:
    """(stays, longest minutes) of its unlocked stays at any time of day, with at least
    ``MIN_STAYS`` of them: the whole record, not a quarter's (the question is whether it
    ever stayed unlocked this long, and a quarter seen few times says too little)."""
    count, longest = baselines.durations.whole_record(entity_id, "unlocked")
    return (count, longest) if count >= MIN_STAYS else None
