"""The first days: somebody the phones do not follow goes out and comes back by day
(``core.first_days_passage.gone_out_untracked``, the walk of ``_somebody_inside``).

Day one, both parents' phones leave at 08:00 by the front door. At 07:45 the au pair
(no phone in the app) takes the younger child to school by the back door, the garden
shed's way, and is back by it at 08:15: her return, not an entry into the empty home.
The same back door opened at 08:15 when nobody went out by it, when somebody only stepped
into the garden and back, or when a phone left with the one who used it, is pushed at once
as before.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.cold_start_motion import waits_for_life_while_away
from custom_components.anomaly_monitor.core.first_days_passage import gone_out_untracked
from custom_components.anomaly_monitor.core.learning_gate import held_while_learning
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.rules.security import ENTRY_UNSECURED_WHILE_AWAY

from .first_days_home import DAD, HALL, KITCHEN, MUM, at, family_home

FRONT = "binary_sensor.front_door"
BACK = "binary_sensor.back_door"
GATE = "binary_sensor.garden_gate"


def _fresh() -> HomeBaselines:
    """A family home installed at midnight: both phones home, all the doors shut."""
    return family_home(
        [
            EntityInfo(FRONT, "Front door", area="Hall", device_class="door"),
            EntityInfo(BACK, "Back door", area="Kitchen", device_class="door"),
            EntityInfo(GATE, "Garden gate", area="Garden", device_class="door"),
        ]
    )


def _use(baselines: HomeBaselines, when: datetime, door: str) -> None:
    """``door`` opened at ``when`` and shut 30 s later."""
    baselines.learn(Transition(when, door, "on"))
    baselines.learn(Transition(when + timedelta(seconds=30), door, "off"))


def _moved(baselines: HomeBaselines, when: datetime, sensor: str = KITCHEN) -> None:
    baselines.learn(Transition(when, sensor, "on"))
    baselines.learn(Transition(when + timedelta(minutes=1), sensor, "off"))


def _parents_leave(baselines: HomeBaselines) -> None:
    """Both phones leave at 08:00, 2 min after the front door."""
    _moved(baselines, at(7.9), HALL)
    _use(baselines, at(8 - 2 / 60), FRONT)
    baselines.learn(Transition(at(8), MUM, "not_home"))
    baselines.learn(Transition(at(8), DAD, "not_home"))


def _entry(door: str = BACK) -> Finding:
    return ENTRY_UNSECURED_WHILE_AWAY.finding(
        evidence=(door,),
        subject=door,
        while_away=True,
        reasoning="Back door is open while nobody is home.",
    )


def _back_at_quarter_past(baselines: HomeBaselines) -> datetime:
    """The back door opened at 08:15 (and shut); the moment it is judged."""
    opened = at(8.25)
    baselines.learn(Transition(opened, BACK, "on"))
    return opened + timedelta(seconds=10)


def test_the_au_pair_back_by_the_way_she_went_out_waits() -> None:
    # Fails before: nothing moved inside since 08:00, the 08:15 opening was pushed at once.
    baselines = _fresh()
    _moved(baselines, at(7.7))  # in the kitchen
    _use(baselines, at(7.75), BACK)  # out with the boy, no phone leaves with her
    _parents_leave(baselines)
    assert gone_out_untracked(baselines, at(8)) == {BACK: at(7.75)}
    now = _back_at_quarter_past(baselines)
    assert baselines.learning(BACK, now)
    assert held_while_learning(_entry(), baselines, now, someone_home=False)
    # Her motion inside after it is hers too, not somebody come in.
    _moved(baselines, now + timedelta(minutes=1), HALL)
    motion = Finding("motion_while_away", (HALL,), "Motion in Hall.", _entry().anomaly_type)
    assert waits_for_life_while_away(motion, baselines)


def test_the_back_door_nobody_went_out_by_is_pushed() -> None:
    baselines = _fresh()
    _moved(baselines, at(7.7))
    _parents_leave(baselines)
    now = _back_at_quarter_past(baselines)
    assert gone_out_untracked(baselines, at(8)) == {}
    assert not held_while_learning(_entry(), baselines, now, someone_home=False)


def test_a_step_into_the_garden_and_back_is_nobody_out() -> None:
    baselines = _fresh()
    _moved(baselines, at(7.6))
    _use(baselines, at(7.65), BACK)  # out to the bins
    _use(baselines, at(7.7), BACK)  # and back in
    _parents_leave(baselines)
    now = _back_at_quarter_past(baselines)
    assert not held_while_learning(_entry(), baselines, now, someone_home=False)


def test_the_door_a_phone_left_by_is_no_untracked_outing() -> None:
    """Dad goes out by the back door, his phone reports it 2 min later: an entry by it at
    08:15 is nobody of the household coming back."""
    baselines = _fresh()
    _moved(baselines, at(7.7))
    _use(baselines, at(7.8), BACK)
    baselines.learn(Transition(at(7.8 + 2 / 60), DAD, "not_home"))
    _use(baselines, at(8 - 2 / 60), FRONT)
    baselines.learn(Transition(at(8), MUM, "not_home"))
    now = _back_at_quarter_past(baselines)
    assert gone_out_untracked(baselines, at(8)) == {}
    assert not held_while_learning(_entry(), baselines, now, someone_home=False)


def test_the_grandmother_quiet_for_hours_goes_out_and_back_by_her_door() -> None:
    """Seen inside at 09:00 after everybody left, quiet until she fetches the child at 16:00
    by the back door and is back by it at 16:40: still inside when she went, her return
    waits. Nobody seen inside at all: the 16:40 entry is pushed."""
    # Fails before: a way used more than an hour after the last sign was an entry nobody
    # inside explained, and so was everything after it.
    baselines = _fresh()
    _parents_leave(baselines)
    _moved(baselines, at(9))
    _use(baselines, at(16), BACK)
    opened = at(16 + 40 / 60)
    baselines.learn(Transition(opened, BACK, "on"))
    now = opened + timedelta(seconds=10)
    assert held_while_learning(_entry(), baselines, now, someone_home=False)

    empty = _fresh()
    _parents_leave(empty)
    _use(empty, at(16), BACK)
    empty.learn(Transition(opened, BACK, "on"))
    assert not held_while_learning(_entry(), empty, now, someone_home=False)


def test_the_door_then_the_gate_is_one_passage() -> None:
    """Somebody seen inside goes out by the back door and, 50 s later, the garden gate: the
    gate's opening is the same passage, not an entry."""
    # Fails before: the gate was no way the one seen inside had used.
    assert _gate_held_after_the_door(timedelta(seconds=50))
    # Ten minutes after the door, the gate is somebody else's.
    assert not _gate_held_after_the_door(timedelta(minutes=10))


def _gate_held_after_the_door(gap: timedelta) -> bool:
    """Somebody seen inside at 13:30 uses the back door at 14:00, the gate ``gap`` later."""
    baselines = _fresh()
    _parents_leave(baselines)
    _moved(baselines, at(13.5))
    _use(baselines, at(14), BACK)
    opened = at(14) + gap
    baselines.learn(Transition(opened, GATE, "on"))
    now = opened + timedelta(seconds=10)
    return held_while_learning(_entry(GATE), baselines, now, someone_home=False)


def test_back_by_the_way_she_went_she_is_inside_again() -> None:
    """The grandmother seen at 09:54 steps out by the porch door and is back by it at 09:59;
    nothing sees her until she opens the other door at 11:49: still inside, it waits."""
    # Fails before: the return was explained, but nobody was known inside after it.
    baselines = _fresh()
    _parents_leave(baselines)
    _moved(baselines, at(9.9))
    _use(baselines, at(9.9 + 1 / 60), BACK)
    _use(baselines, at(10), BACK)
    opened = at(11 + 49 / 60)
    baselines.learn(Transition(opened, FRONT, "on"))
    now = opened + timedelta(seconds=10)
    assert held_while_learning(_entry(FRONT), baselines, now, someone_home=False)
