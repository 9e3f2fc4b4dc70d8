"""The supply: every circuit's power swinging together, up and down, within seconds.

Circuits in a home draw power independently: a kettle on one, the heating on another.
When three or more power sensors move in the same direction at the same second, again
and again, alternately up and down, what they share is the supply itself (a fluctuating
voltage makes every resistive load's power swing with it), or a fault common to them
all (a loose neutral). A household cannot switch independent circuits that way.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity

# Moves within this many seconds are "at the same moment".
TOGETHER = timedelta(seconds=2)
# Distinct power sensors that must move together: a house meter and one circuit's meter
# move together whenever that circuit switches, so two prove nothing.
MIN_METERS = 3
# Moments of all-together moves, in both directions: one is a coincidence (a scene
# switching several circuits), a repeated swing up and down is a fluctuation.
MIN_MOMENTS = 4
# ...within this time of each other: a burst, not a day's coincidences.
BURST_GAP = timedelta(minutes=10)


def _moves(home: HomeView, meters: list[str]) -> list[tuple[datetime, str, int]]:
    """(when, meter, +1 up / -1 down) for every change of a meter's reading."""
    moves: list[tuple[datetime, str, int]] = []
    for meter in meters:
        last: float | None = None
        for when, value in home.numbers(meter):  # (parsed once per analysis)
            if last is not None and value != last:
                moves.append((when, meter, 1 if value > last else -1))
            last = value
    moves.sort()
    return moves


def _moments(moves: list[tuple[datetime, str, int]]) -> list[tuple[datetime, int, set[str]]]:
    """Moments when ≥ MIN_METERS meters moved the same way together: (when, sign, meters)."""
    moments: list[tuple[datetime, int, set[str]]] = []
    # The moves are sorted: when their times share one zone object (HA's are UTC), they
    # compare and subtract alike, so a moment's moves are the run right after its start,
    # found without reading every later move again (a busy window has ~1,000 moves).
    runs = len({when.tzinfo for when, _, _ in moves}) <= 1
    index = 0
    while index < len(moves):
        start = moves[index][0]
        if runs:
            end = index + 1
            while end < len(moves) and moves[end][0] - start <= TOGETHER:
                end += 1
            group = moves[index:end]
        else:
            group = [m for m in moves[index:] if m[0] - start <= TOGETHER]
        index += len(group)
        signs = {sign for _, _, sign in group}
        meters = {meter for _, meter, _ in group}
        if len(signs) == 1 and len(meters) >= MIN_METERS:
            moments.append((start, signs.pop(), meters))
    return moments


POWER_SWINGING_TOGETHER = FindingKind(
    "power_swinging_together", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def power_swinging_together(home: HomeView) -> Iterator[Finding]:
    """Three or more power sensors swung up and down together, repeatedly, within minutes.

    Magnitude: the all-together swings in the longest burst.
    """
    meters = [
        e for e in home.history if home.domain(e) == "sensor" and home.device_class(e) == "power"
    ]
    if len(meters) < MIN_METERS:
        return
    moments = _moments(_moves(home, meters))
    best: list[tuple[datetime, int, set[str]]] = []
    burst: list[tuple[datetime, int, set[str]]] = []
    for moment in moments:
        if burst and moment[0] - burst[-1][0] > BURST_GAP:
            burst = []
        burst.append(moment)
        if len(burst) > len(best):
            best = list(burst)
    if len(best) < MIN_MOMENTS or len({sign for _, sign, _ in best}) < 2:
        return
    involved = sorted(set().union(*(meters for _, _, meters in best)))
    yield POWER_SWINGING_TOGETHER.finding(
        evidence=tuple(involved),
        reasoning=f"{len(involved)} power sensors ({', '.join(involved)}) rose and fell "
        f"together {len(best)} times from {best[0][0]:%H:%M}: independent circuits do not "
        "switch in step, so the supply (voltage) or a shared connection is fluctuating.",
        recommendation="Check the supply voltage and the main connection; call an "
        "electrician if lights flicker.",
        magnitude=float(len(best)),
    )
