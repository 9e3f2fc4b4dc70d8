"""``UntrackedLife.shown_life`` keeps its answers for the away normal it was asked about,
never for another one that happens to get the same id.

The answers are kept while nothing learned has changed (one analysis asks a few times).
They were keyed on ``id(away)``: once an away normal is freed its id goes to the next
object made (a home reloaded, another home judged in the same process), and one with the
same key-visible figures got the freed one's answer (the flake of session 22, in
``somebody_in``'s steps, came from the same kind of key).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines.away_normal import (
    PART_HOURS,
    PARTS,
    AwayNormal,
    add_day,
)
from custom_components.anomaly_monitor.core.baselines.clock import day_number
from custom_components.anomaly_monitor.core.baselines.untracked_life import UntrackedLife

SENSOR = "binary_sensor.flat_motion"
NOW = datetime(2026, 3, 20, 11, 0, tzinfo=UTC)
TODAY = day_number(NOW, UTC)
DAYS = range(TODAY - 10, TODAY)


def _life() -> UntrackedLife:
    """The flat's sensor moved around 11:00 on each of ten days the home was empty."""
    life = UntrackedLife(UTC)
    for day in DAYS:
        moment = NOW - timedelta(days=TODAY - day)
        life.moved(SENSOR, moment, empty=True)
    return life


def _away(*, pet: bool) -> AwayNormal:
    """Empty at 11:00 on the same ten days; ``pet``: the sensor moved then in every part
    of the day too (a dog, whose motion shows no person's day)."""
    away = AwayNormal(UTC)
    part = NOW.hour // PART_HOURS
    for day in DAYS:
        add_day(away.away_days[part], day)
    if pet:
        away.motion[SENSOR] = [[] for _ in range(PARTS)]
        for parts in away.motion[SENSOR]:
            for day in DAYS:
                add_day(parts, day)
    return away


def test_an_answer_is_never_given_for_another_away_normal() -> None:
    # Each made as the other is freed: CPython hands the freed id to the next one most
    # times (15 of 20 here); keyed on id(), this failed at the second round.
    life = _life()
    for _ in range(20):
        person = _away(pet=False)
        assert life.shown_life(person, NOW, pets=False) == (10, 10)
        del person
        # Same days empty, same entries (none): only its motion says it is a pet's.
        dog = _away(pet=True)
        assert life.shown_life(dog, NOW, pets=False) is None
        del dog


def test_the_same_away_normal_keeps_its_answer() -> None:
    life, away = _life(), _away(pet=False)
    first = life.shown_life(away, NOW, pets=False)
    assert first == (10, 10)
    assert life.shown_life(away, NOW, pets=False) is first  # kept, not worked out again
