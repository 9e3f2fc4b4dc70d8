"""A pet the home's own days show (core, no Home Assistant).

Alice is out 08:00-15:30 on weekdays; something moves in the living room every hour while
she is out and nothing is ever opened: a dog, though the profile names none (only "Moose",
his name: no word a list knows). After two such days the home keeps a pet: the
dog's motion is no untracked person's day (``untracked_judge``), and a door opened then is
not taken for theirs. Where somebody comes in every day (a walker with the
key), nothing is learned so.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines.away_normal import AwayNormal
from custom_components.anomaly_monitor.core.baselines.still_spells import keeps_a_pet, still_spell
from custom_components.anomaly_monitor.core.baselines.stored_spell import OPENING, SIGN
from custom_components.anomaly_monitor.core.baselines.untracked_judge import _shown_life
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment
from .test_away_normal import ALICE, AREAS, BACK, CLASSES, LIVING, LOCK, at, day_of_life, lived

REACH = timedelta(minutes=10)
PROFILE = "Alice, and Owen (10, no phone), and Moose, who keeps the house."
T0 = datetime(2026, 3, 2, 8, tzinfo=UTC)


def dog_day(day: int) -> list[Transition]:
    """A weekday: out 08:00-15:30, the dog on the move hourly, nobody comes in (two parts
    of the day only: no sensor that "moves at any hour", which main reads as a pet)."""
    events = [Transition(at(day, 8), ALICE, "not_home"), Transition(at(day, 15.5), ALICE, "home")]
    for hour in range(24):  # a dog moves at every hour, the household home or not
        events += [
            Transition(at(day, hour + 0.25), LIVING, "on", "Living"),
            Transition(at(day, hour + 0.3), LIVING, "off", "Living"),
        ]
    return sorted(events)


def home_at(now: datetime) -> HomeView:
    """The home at ``now`` on a weekday morning, Alice out; the profile names a boy without a
    phone (at school) and no pet any word list knows."""
    states = [
        entity(e, "locked" if e == LOCK else "off", area=AREAS[e], device_class=CLASSES.get(e))
        for e in AREAS
    ]
    states.append(entity(ALICE, "not_home"))
    shown = [Transition(now - timedelta(hours=3), ALICE, "not_home")]
    window = build_window(
        states, environment(now, persons_home=0), shown, start=now - timedelta(hours=5)
    )
    return HomeView(dataclasses.replace(window, profile=PROFILE))


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


def test_two_still_days_make_a_pet_whose_motion_shows_no_life() -> None:
    one = lived(1, dog_day)
    assert len(one.away.still_days) == 1
    assert not keeps_a_pet(home_at(at(1, 11)), one)  # one day is no pet
    baselines = lived(4, dog_day)
    assert len(baselines.away.still_days) == 4
    home = home_at(at(4, 11))
    assert keeps_a_pet(home, baselines)
    # The dog's motion is no untracked person's day: a door opened now is not theirs.
    assert _shown_life(baselines, home, at(4, 11)) is None
    # Without the days that show the pet, the dog's motion read as somebody living here
    # while the phones are away (the back door kicked in at 11:20 was taken for theirs).
    baselines.away.still_days = []
    assert not keeps_a_pet(home, baselines)
    assert _shown_life(baselines, home, at(4, 11)) is not None


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
