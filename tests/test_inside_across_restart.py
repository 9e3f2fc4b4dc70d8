"""Somebody inside stays inside across a restart of Home Assistant (core).

The home of ``test_lived_doors``: Alice (tracked) out 09:00-18:00, her mother without a
phone in the granny flat. Today she moves about the flat at 10:30 and 10:32; Home
Assistant restarts at 10:40 (an update), and she opens her door at 11:00. Before, the away
spell's signs were lost with the restart: her door was an opening into a home nobody
was known to be in. Now the spell's record is stored with the baselines while the home is
empty. Guards: the same door opened after a restart into a flat that stayed still since
Alice left is still from outside, so is her door after a power cut (nothing watched for
18 min: anybody could have come in), and a damaged stored record gives no record at all.
"""

from __future__ import annotations

from datetime import datetime
import json

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.away_normal import AwayNormal
from custom_components.anomaly_monitor.core.baselines.somebody_in import opened_from_inside
from custom_components.anomaly_monitor.core.baselines.stored_spell import SIGN
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment
from .test_lived_doors import AREAS, CLASSES, FLAT, FLAT_DOOR, UTC, _t, at, lived


def _restarted(baselines: HomeBaselines) -> HomeBaselines:
    """The baselines as Home Assistant stores and reloads them."""
    return HomeBaselines.from_dict(json.loads(json.dumps(baselines.as_dict())), UTC)


def _door_from_inside(today: list[Transition], *, down_until: float | None = None) -> bool:
    """Today learned until the restart at 10:40; the door at 11:00, judged on a window of
    what came after the restart (the window does not reach back past it). ``down_until``:
    Home Assistant was down until then (a power cut), nothing watched meanwhile."""
    baselines, home, door = _after_restart(today, down_until)
    return opened_from_inside(baselines, home, door) is not None


def _after_restart(
    today: list[Transition], down_until: float | None
) -> tuple[HomeBaselines, HomeView, datetime]:
    """The baselines, the window at 11:01 and when her door opened (see above)."""
    baselines = lived(10)
    for transition in today:
        baselines.learn(transition)
    baselines.advance(at(10, 10 + 40 / 60))
    baselines = _restarted(baselines)
    if down_until is not None:
        baselines.unwatched = (at(10, 10 + 40 / 60), at(10, down_until))
    door = _t(at(10, 11), FLAT_DOOR, "on")
    baselines.learn(door)
    baselines.advance(at(10, 11.01))
    states = [entity(e, "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    states.append(entity("person.alice", "not_home"))
    window = build_window(
        states, environment(at(10, 11.01), persons_home=0), [door], start=at(10, 10.75)
    )
    return baselines, HomeView(window), door.when


def test_her_door_after_a_restart_is_opened_from_inside() -> None:
    today = [
        _t(at(10, 9), "person.alice", "not_home"),
        _t(at(10, 10.5), FLAT, "on"),
        _t(at(10, 10.52), FLAT, "off"),
    ]
    assert _door_from_inside(today)


def test_after_a_power_cut_nobody_is_known_inside() -> None:
    """Down 10:40-10:58: anybody could have come in unseen; her door is judged as before."""
    today = [
        _t(at(10, 9), "person.alice", "not_home"),
        _t(at(10, 10.5), FLAT, "on"),
        _t(at(10, 10.52), FLAT, "off"),
    ]
    assert not _door_from_inside(today, down_until=10 + 58 / 60)


def test_the_same_home_judged_again_after_a_power_cut_is_judged_anew() -> None:
    """Each analysis asks about one window several times, and the steps are kept between
    the questions: kept for the home as it was, never for another. In session 22's suite
    (two workers, a loaded machine) the power cut above was judged with the steps of the
    restart without one: the same times, and a freed home's id given to the next."""
    today = [
        _t(at(10, 9), "person.alice", "not_home"),
        _t(at(10, 10.5), FLAT, "on"),
        _t(at(10, 10.52), FLAT, "off"),
    ]
    baselines, home, door = _after_restart(today, None)
    assert opened_from_inside(baselines, home, door) is not None
    baselines.unwatched = (at(10, 10 + 40 / 60), at(10, 10 + 58 / 60))
    assert opened_from_inside(baselines, home, door) is None


def test_a_door_after_a_restart_into_a_still_flat_is_from_outside() -> None:
    assert not _door_from_inside([_t(at(10, 9), "person.alice", "not_home")])


def test_the_spell_round_trips_and_a_damaged_one_is_dropped() -> None:
    away = AwayNormal(UTC)
    away.presence(at(0, 9), empty=True)
    away.moved(FLAT, at(0, 10))
    away.entered(FLAT_DOOR, at(0, 10.1))
    stored = json.loads(json.dumps(away.as_dict()))
    assert AwayNormal.from_dict(stored, UTC).spell == away.spell
    for damage in ({"kind": "sx"}, {"who": [FLAT]}, {"at": "99,1"}, {"at": "-5,1"}):
        broken = {**stored, "spell": {**stored["spell"], **damage}}
        assert AwayNormal.from_dict(broken, UTC).spell == []
    # Home again: nothing of the spell is kept.
    away.presence(at(0, 18), empty=False)
    assert "spell" not in away.as_dict()
    assert away.spell
    assert away.spell[0][2] == SIGN
