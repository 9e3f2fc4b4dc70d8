"""Whoever stayed in moves again after a nap, in the room that moves while the phones are out.

The home of ``test_last_one_out`` (core): Alice is out 08:00-17:00; her mother, who carries
no phone, moves in the living room while Alice is out. The home is lived in while the
trackers are away once two earlier days showed it: one day of motion while the phones were
out may be the intrusion the home was told of, and must teach nothing. On a later day the
mother moves at 07:50, Alice goes at 08:00 and the mother naps: nothing moves until 10:30,
nothing opened. The living room moving then is her, up again (however long the nap); Alice's
bedroom, which never moved while the home was empty, moving then with nothing opened is not
known to be anybody already inside (judged by the away rules, as before); nor is the living
room moving after a nap in a home never lived in while the trackers were away.
"""

from __future__ import annotations

from custom_components.anomaly_monitor.core.baselines.lived_while_away import lived_while_away
from custom_components.anomaly_monitor.core.baselines.somebody_in import stayed_in
from custom_components.anomaly_monitor.core.models import Transition

from .test_last_one_out import BEDROOM, LIVING, alice_out, at, home_at, lived, seen

NAP_OVER = at(6, 10.5)


def _napped(sensor: str) -> list[Transition]:
    return sorted([*seen(at(6, 7 + 50 / 60), LIVING), *alice_out(6), *seen(NAP_OVER, sensor)])


def test_one_day_of_motion_while_out_is_not_yet_a_home_lived_in() -> None:
    baselines = lived(1)
    assert not lived_while_away(baselines, home_at(baselines, alice_out(1), at(1, 8.1)))


def test_two_days_with_the_mother_in_make_the_home_lived_in() -> None:
    baselines = lived(2)
    assert lived_while_away(baselines, home_at(baselines, alice_out(2), at(2, 8.1)))


def test_a_home_never_seen_while_empty_is_not_lived_in() -> None:
    baselines = lived(0)
    assert not lived_while_away(baselines, home_at(baselines, alice_out(0), at(0, 8.1)))


def test_her_room_moving_after_the_nap_is_her() -> None:
    baselines = lived(6)
    home = home_at(baselines, _napped(LIVING), NAP_OVER)
    inside = stayed_in(baselines, home, NAP_OVER, LIVING)
    assert inside is not None
    assert inside.last_sign < at(6, 8)  # before Alice left


def test_a_room_that_never_moves_while_away_is_not_her() -> None:
    baselines = lived(6)
    home = home_at(baselines, _napped(BEDROOM), NAP_OVER)
    assert stayed_in(baselines, home, NAP_OVER, BEDROOM) is None


def test_within_the_hour_any_room_is_whoever_stayed() -> None:
    baselines = lived(6)
    today = sorted([*seen(at(6, 7 + 50 / 60), LIVING), *alice_out(6), *seen(at(6, 8.5), BEDROOM)])
    home = home_at(baselines, today, at(6, 8.5))
    assert stayed_in(baselines, home, at(6, 8.5), BEDROOM) is not None
