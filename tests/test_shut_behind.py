"""A door that rests open, shut far longer than it ever is: somebody behind it (core).

The home of ``test_rests_open_way_in``: the bathroom door rests open and is shut for six
minutes at each use. On the seventh day Alice's mother shuts it at 09:00 and does not come
out: at 09:40 (past three times its longest shut spell, never sooner than 35 min) it is
told, though no motion sensor watches the bathroom. Not at 09:30, not when somebody used
another door since (she is about), and not when it was shut as Alice went out.
"""

from __future__ import annotations

from datetime import timedelta

from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment
from .test_rests_open_way_in import ALICE, AREAS, BATH, FRONT, at, door, lived, morning


def _told(
    baselines: HomeBaselines, today: list[Transition], now_hours: float, *, home: bool = True
) -> list[str]:
    """The doors told shut far too long at ``now_hours`` of the seventh day."""
    return [f.evidence[0] for f in _findings(baselines, today, now_hours, home=home)]


def _findings(
    baselines: HomeBaselines, today: list[Transition], now_hours: float, *, home: bool = True
) -> list[Finding]:
    now = at(6, now_hours)
    for transition in sorted(today):
        baselines.learn(transition)
    start = now - timedelta(hours=3)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in sorted(today)}
    states = [entity(e, latest.get(e, "off"), area=AREAS[e], device_class="door") for e in AREAS]
    states.append(entity(ALICE, "home" if home else "not_home"))
    env = environment(now, persons_home=1 if home else 0)
    window = build_window(states, env, shown, start=start)
    detector = CombinedDetector(baselines=lambda: baselines)
    return [
        f
        for f in detector.findings(window)
        if f.rule == "state_longer_than_usual" and "shut" in f.reasoning
    ]


def _home_all_day() -> list[Transition]:
    """Alice stays home: the bathroom used at 07:00, then shut at 09:00."""
    return [
        *(t for t in morning(6) if t.entity_id == BATH and t.when < at(6, 7.5)),
        door(at(6, 9), BATH, "off"),
    ]


def test_shut_forty_minutes_with_nobody_about_is_told() -> None:
    assert _told(lived(6), _home_all_day(), 9 + 40 / 60) == [BATH]


def test_told_as_somebody_behind_it() -> None:
    """Walk of session 25: told "Check whether it should still be shut.", as if a door
    were left shut by mistake; the worry is whoever shut it."""
    (finding,) = _findings(lived(6), _home_all_day(), 9 + 40 / 60)
    assert "Nobody has been seen elsewhere in the home since." in finding.reasoning
    assert finding.recommendation.startswith("Somebody may have shut it behind them")


def test_not_before_its_floor() -> None:
    assert _told(lived(6), _home_all_day(), 9.5) == []


def test_not_while_somebody_uses_another_door() -> None:
    today = [
        *_home_all_day(),
        door(at(6, 9.2), FRONT, "on"),
        door(at(6, 9.2) + timedelta(seconds=30), FRONT, "off"),
    ]
    assert _told(lived(6), today, 9 + 40 / 60) == []


def test_not_a_door_shut_as_everybody_went_out() -> None:
    today = [
        *(t for t in morning(6) if t.when < at(6, 7.9)),
        door(at(6, 7.95), BATH, "off"),
        *(t for t in morning(6) if t.when >= at(6, 7.9)),
    ]
    assert _told(lived(6), today, 9.5, home=False) == []
