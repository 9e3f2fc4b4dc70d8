"""A pet the home's own days show (core, no Home Assistant).

Alice is out 08:00-15:30 on weekdays; something moves in the living room every hour while
she is out and nothing is ever opened: a dog, though the profile names none ("Moose, our
goldendoodle" is no word a list knows). After two such days the home keeps a pet: the
dog's motion at 11:00 is no person inside, and the back door forced at 11:10 is an entry
told, not a door opened from inside. Where somebody comes in every day (a walker with the
key), nothing is learned so.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.away_normal import AwayNormal
from custom_components.anomaly_monitor.core.baselines.still_spells import still_spell
from custom_components.anomaly_monitor.core.baselines.stored_spell import OPENING, SIGN
from custom_components.anomaly_monitor.core.models import Transition

from .test_away_normal import ALICE, BACK, HALL, LIVING, analyse, at, day_of_life, lived

REACH = timedelta(minutes=10)
T0 = datetime(2026, 3, 2, 8, tzinfo=UTC)


def dog_day(day: int) -> list[Transition]:
    """A weekday: out 08:00-15:30, the dog on the move hourly, nobody comes in (two parts
    of the day only: no sensor that "moves at any hour", which main reads as a pet)."""
    events = [Transition(at(day, 8), ALICE, "not_home"), Transition(at(day, 15.5), ALICE, "home")]
    for hour in range(9, 15):
        events += [
            Transition(at(day, hour + 0.25), LIVING, "on", "Living"),
            Transition(at(day, hour + 0.3), LIVING, "off", "Living"),
        ]
    return sorted(events)


def forced_back_door(day: int) -> list[Transition]:
    """The dog moves at 11:00; at 11:10 the back door is forced and shut, the hall moves."""
    return [
        Transition(at(day, 8), ALICE, "not_home"),
        Transition(at(day, 11), LIVING, "on", "Living"),
        Transition(at(day, 11.02), LIVING, "off", "Living"),
        Transition(at(day, 11 + 10 / 60), BACK, "on", "Kitchen"),
        Transition(at(day, 11 + 10.3 / 60), BACK, "off", "Kitchen"),
        Transition(at(day, 11 + 11 / 60), HALL, "on", "Hall"),
    ]


def entry_told(baselines: HomeBaselines, day: int) -> bool:
    """Whether the forced back door is told (the motion after it, citing it) at 11:12."""
    findings = analyse(baselines, at(day, 11 + 12 / 60), forced_back_door(day))
    return any(f.rule == "motion_while_away" and BACK in f.evidence for f in findings)


def test_a_spell_with_motion_and_nothing_opened_is_still() -> None:
    motion = {LIVING}
    spell = [(T0 + timedelta(hours=1), LIVING, SIGN), (T0 + timedelta(hours=2), LIVING, SIGN)]
    back = T0 + timedelta(hours=9)
    assert still_spell(spell, T0, back, REACH, motion)
    # A door opened before the household came back, or a contact used inside: a person.
    opened = [*spell, (T0 + timedelta(hours=3), BACK, OPENING)]
    assert not still_spell(sorted(opened), T0, back, REACH, motion)
    used = [*spell, (T0 + timedelta(hours=3), "binary_sensor.fridge", SIGN)]
    assert not still_spell(sorted(used), T0, back, REACH, motion)
    # The household's own door as they come back is theirs; motion only then is theirs too.
    home = [*spell, (back - timedelta(minutes=2), BACK, OPENING)]
    assert still_spell(home, T0, back, REACH, motion)
    assert not still_spell([(back - timedelta(minutes=1), LIVING, SIGN)], T0, back, REACH, motion)


def test_two_still_days_make_a_pet_and_the_forced_door_is_told() -> None:
    one = lived(1, dog_day)
    assert len(one.away.still_days) == 1
    baselines = lived(4, dog_day)
    assert len(baselines.away.still_days) == 4
    assert entry_told(baselines, 4)
    # Without the days that show the pet, the dog's motion at 11:00 is somebody inside,
    # and the back door is read as opened by them (the miss this fixes).
    baselines.away.still_days = []
    assert not entry_told(baselines, 4)


def test_a_walker_coming_in_every_day_teaches_no_pet() -> None:
    baselines = lived(4, day_of_life)
    assert baselines.away.still_days == []


def test_the_stored_form_keeps_the_still_days_and_drops_garbage() -> None:
    away = lived(3, dog_day).away
    stored = away.as_dict()
    again = AwayNormal.from_dict(stored, UTC)
    assert again.still_days == away.still_days != []
    assert AwayNormal.from_dict({**stored, "still_days": "1,x"}, UTC).still_days == []
    old = {k: v for k, v in stored.items() if k != "still_days"}
    assert AwayNormal.from_dict(old, UTC).still_days == []
