"""A cooker on far longer than a meal takes, and nobody has moved for an hour: left on.

``cooking_at_an_unusual_hour`` tells a hob or oven running at an hour it never runs here;
at supper time, its usual hour, a burner left on while the cook dozed off in his chair was
never told (issue 24: an 86-year-old's soup pan on medium for three hours). Told when a
cooking appliance (``device_roles``: the homeowner, its name as a hint; never an id's
words) has drawn power for longer than a meal here takes - ``FACTOR`` times its longest
learned run (``StateDurations``, never under ``FLOOR``), or ``PRIOR`` before its runs are
learned - while someone is home and no motion sensor has seen anybody for ``STILL`` (a
bed sensor held on is somebody in bed: ``held_on``). Somebody moving about the home may
be minding a slow roast: not told.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..device_roles import severity_for
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from .clock import local
from .home_baselines import HomeBaselines
from .long_stays import at_most, duration_text
from .power import RUNNING
from .unattended_cookers import unattended_cookers

# Before the cooker's runs are learned: longer than most meals take.
PRIOR = timedelta(hours=2)
# Once learned: this many times its longest run, never under ``FLOOR``.
FACTOR = 2.0
FLOOR = timedelta(hours=1)
# Nobody has moved for this long: nobody is at the cooker.
STILL = timedelta(hours=1)

COOKER_LEFT_ON = FindingKind("cooker_left_on", AnomalyType.SAFETY_HAZARD)


def cooker_left_on(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A cooking appliance running far longer than a meal here, the household still.

    Magnitude: minutes it has been running.
    """
    found = unattended_cookers(home, baselines, FLOOR, STILL)
    if found is None:
        return
    meters, moved = found
    now = home.end
    running = baselines.durations.current
    zone = home.env.zone
    for meter in meters:
        since = running[meter.entity_id][1]
        learned = baselines.durations.longest(meter.entity_id, RUNNING, since)
        if learned is None:
            limit, normal = PRIOR, "longer than most meals take (its runs are not learned yet)"
        else:
            count, longest, _ = learned
            limit = max(FLOOR, FACTOR * timedelta(minutes=longest))
            normal = f"in this home it runs for {at_most(longest, count, 'runs')}"
        if now - since <= limit:
            continue
        evidence = (meter.entity_id,)
        yield COOKER_LEFT_ON.finding(
            evidence=evidence,
            reasoning=f"{meter.entity_id} has been drawing power for "
            f"{duration_text(now - since)}, since {local(since, zone):%H:%M}, {normal}; "
            f"nobody has moved for {duration_text(now - moved)}.",
            severity=severity_for(home, evidence, Severity.HIGH),
            recommendation="Check the cooker: it may have been left on.",
            magnitude=round((now - since).total_seconds() / 60, 1),
        )
