"""The supply's all-together moments found as runs of the sorted moves (core, no Home
Assistant): the same moments as the moves read again from each moment's start."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone, tzinfo
import random
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.statistics.supply import TOGETHER, _moments


def read_again(moves: list[tuple[datetime, str, int]]) -> list[tuple[datetime, int, set[str]]]:
    """``_moments`` as first written: every later move read again from each start."""
    moments: list[tuple[datetime, int, set[str]]] = []
    index = 0
    while index < len(moves):
        start = moves[index][0]
        group = [m for m in moves[index:] if m[0] - start <= TOGETHER]
        index += len(group)
        signs = {sign for _, _, sign in group}
        meters = {meter for _, meter, _ in group}
        if len(signs) == 1 and len(meters) >= 3:
            moments.append((start, signs.pop(), meters))
    return moments


def _moves(rng: random.Random, zones: list[tzinfo | None]) -> list[tuple[datetime, str, int]]:
    """Meters' moves: bursts within seconds (ties, exactly 2 s apart) and lone ones."""
    start = datetime(2026, 3, 29, 0, 30, tzinfo=UTC)  # Europe/Berlin's clock change
    moves = []
    at = start
    for _ in range(rng.randrange(0, 120)):
        at += timedelta(seconds=rng.choice([0, 0.5, 1, 2, 2, 3, 30, 600]))
        zone = rng.choice(zones)
        when = at.astimezone(zone) if zone is not None else at.replace(tzinfo=None)
        moves.append((when, f"sensor.meter_{rng.randrange(6)}", rng.choice([1, -1])))
    if zones == [None]:
        moves = [(w.replace(tzinfo=None), m, s) for w, m, s in moves]
    moves.sort()
    return moves


def test_the_moments_are_those_read_again_from_each_start() -> None:
    """In UTC, on a zone's clock across its change, naive, and mixed zones (read as
    before): the same moments, in the same order, with the same meters."""
    rng = random.Random(33)
    berlin = ZoneInfo("Europe/Berlin")
    found = 0
    every: list[list[tzinfo | None]] = [
        [UTC],
        [berlin],
        [None],
        [UTC, berlin, timezone(timedelta(hours=2))],
    ]
    for zones in every:
        for _ in range(300):
            moves = _moves(rng, zones)
            expected = read_again(moves)
            assert _moments(moves) == expected
            found += len(expected)
    assert found > 100  # moments compared, not only their absence
