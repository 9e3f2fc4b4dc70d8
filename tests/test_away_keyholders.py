"""Keyholders while nobody tracked is home, learned (core, no Home Assistant).

Alice is out 08:00-17:00 on weekdays; a cleaner with a key comes on Tuesdays at 09:00
(unlock, front door, hall motion) and stays two hours. After one Tuesday seen, her next
Tuesday's visit (25 min later than the first) is not told, nor the door opened while she is
inside; the same key at 03:00, or the front door opened with its lock still locked (forced)
at her time, is told and says what the keyholders' hours are.
"""

from __future__ import annotations

from datetime import timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import Transition

from .test_away_normal import ALICE, AREAS, DOOR, HALL, LIVING, LOCK, analyse, at, lived as lived_as

TUESDAY = 1  # DAY0 is a Monday


def visit(day: int, hours: float, *, keyed: bool = True) -> list[Transition]:
    """Somebody at the front door: with the key (unlock, door, locked behind), or not."""
    start = at(day, hours)
    events = [(0.2, DOOR, "on"), (0.7, DOOR, "off"), (1.0, HALL, "on"), (3.0, HALL, "off")]
    if keyed:
        events += [(0.0, LOCK, "unlocked"), (0.8, LOCK, "locked")]
    return sorted(Transition(start + timedelta(minutes=m), e, s, AREAS[e]) for m, e, s in events)


def cleaner_leaves(day: int, hours: float) -> list[Transition]:
    """She leaves as she came: unlock from inside, door, locked."""
    return visit(day, hours)


def weekday(day: int, *, cleaner_at: float = 9.0) -> list[Transition]:
    """Out 08:00-17:00 on weekdays (at home at the weekend), the cleaner on Tuesdays."""
    if day % 7 >= 5:
        return []
    events = [Transition(at(day, 8), ALICE, "not_home"), Transition(at(day, 17), ALICE, "home")]
    if day % 7 == TUESDAY:
        events += visit(day, cleaner_at) + cleaner_leaves(day, cleaner_at + 2)
    return sorted(events)


def lived(days: int) -> HomeBaselines:
    return lived_as(days, weekday)


NEXT_TUESDAY = 8


def test_the_cleaner_seen_once_is_not_told_on_her_next_tuesday() -> None:
    baselines = lived(NEXT_TUESDAY)
    assert baselines.away.regular_entry(DOOR, at(NEXT_TUESDAY, 9.4)) is None  # one day only
    today = weekday(NEXT_TUESDAY, cleaner_at=9.4)
    assert analyse(baselines, at(NEXT_TUESDAY, 9.4) + timedelta(seconds=20), today) == []
    # Inside, with the lock unlocked behind her: the lock and the door are hers.
    inside = [
        Transition(at(NEXT_TUESDAY, 7.9), ALICE, "not_home"),
        *[t for t in visit(NEXT_TUESDAY, 9.4) if t.state != "locked"],
        Transition(at(NEXT_TUESDAY, 9.6), DOOR, "on", "Hall"),
        Transition(at(NEXT_TUESDAY, 9.61), DOOR, "off", "Hall"),
        Transition(at(NEXT_TUESDAY, 9.62), HALL, "on", "Hall"),
    ]
    assert analyse(baselines, at(NEXT_TUESDAY, 9.63), sorted(inside)) == []


def test_the_same_key_at_three_in_the_morning_is_told_with_her_hours() -> None:
    baselines = lived(NEXT_TUESDAY)
    today = [Transition(at(NEXT_TUESDAY, 1), ALICE, "not_home"), *visit(NEXT_TUESDAY, 3)]
    findings = analyse(baselines, at(NEXT_TUESDAY, 3) + timedelta(seconds=20), today, door="on")
    told = [f for f in findings if f.rule == "entry_unsecured_while_away"]
    assert told
    assert "03:00" in told[0].reasoning
    assert "only around 09:00, 11:00" in told[0].reasoning


def test_the_front_door_forced_at_her_time_is_told() -> None:
    baselines = lived(NEXT_TUESDAY)
    forced = [
        Transition(at(NEXT_TUESDAY, 7.9), ALICE, "not_home"),
        *visit(NEXT_TUESDAY, 9.4, keyed=False),
        Transition(at(NEXT_TUESDAY, 9.45), LIVING, "on", "Living"),
    ]
    findings = analyse(baselines, at(NEXT_TUESDAY, 9.5), sorted(forced))
    assert {f.rule for f in findings} & {"activity_while_away", "motion_while_away"}


def test_a_keyholder_never_seen_is_told() -> None:
    baselines = lived(TUESDAY)  # Monday only: nobody has come with the key yet
    today = weekday(TUESDAY)
    findings = analyse(baselines, at(TUESDAY, 9) + timedelta(seconds=20), today, door="on")
    told = [f for f in findings if f.rule == "entry_unsecured_while_away"]
    assert told
    assert "Nobody ever came in with the key while the home was empty." in told[0].reasoning


def test_where_somebody_lives_without_a_phone_only_the_phones_were_away() -> None:
    """Walk 52: with the profile naming Alice's mother, who has no phone, the door was told
    "never used at 08:44 with the home empty … while the home was empty" with her at home:
    what was learned is when every tracked phone was away."""
    baselines = lived(TUESDAY)
    today = weekday(TUESDAY)
    profile = "Alice lives here with her mother Edith (88), who has no phone."
    findings = analyse(
        baselines, at(TUESDAY, 9) + timedelta(seconds=20), today, door="on", profile=profile
    )
    (told,) = [f for f in findings if f.rule == "entry_unsecured_while_away"]
    assert "It is never used at 09:00 with every tracked phone away, in the days learned." in (
        told.reasoning
    )
    assert "Nobody ever came in with the key while every tracked phone was away." in (
        told.reasoning
    )
    assert "empty" not in told.reasoning
