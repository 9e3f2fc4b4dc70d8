"""Statistics about entry locks, armed homes, crowded rooms, status texts and set points."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityState, Environment, Transition
from custom_components.anomaly_monitor.core.rules.security import alarm_triggered_without_cause
from custom_components.anomaly_monitor.core.statistics.armed import entry_while_armed_away
from custom_components.anomaly_monitor.core.statistics.climate import setpoint_without_hvac
from custom_components.anomaly_monitor.core.statistics.locks import (
    door_opened_before_unlock,
    lock_unlocked_while_armed,
)
from custom_components.anomaly_monitor.core.statistics.reports import (
    device_reported_problem,
    names_a_problem,
)
from custom_components.anomaly_monitor.core.statistics.simultaneity import (
    household_size,
    motion_in_many_rooms_at_once,
)
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment, home, steps

MORNING = datetime(2025, 2, 3, 6, 0)


def _at(minutes: float) -> datetime:
    return MORNING + timedelta(minutes=minutes)


def _front_door() -> list[EntityState]:
    return [
        entity("binary_sensor.front_door", "off", area="Hallway", device_class="door"),
        entity("lock.front_door", "locked", area="Hallway"),
    ]


# --- door and lock order ---------------------------------------------------------------


def test_door_opening_before_its_lock_reports_unlocked_is_reported() -> None:
    # 07:30 leaving for work as usual (unlock, then open); 18:00 the door opens and only
    # 20 s later does the lock claim it was unlocked.
    trace = steps(
        MORNING,
        [
            (90, "lock.front_door", "unlocked"),
            (90.1, "binary_sensor.front_door", "on"),
            (90.5, "binary_sensor.front_door", "off"),
            (91, "lock.front_door", "locked"),
            (720, "binary_sensor.front_door", "on"),
            (720 + 20 / 60, "lock.front_door", "unlocked"),
            (721, "binary_sensor.front_door", "off"),
            (722, "lock.front_door", "locked"),
        ],
    )
    (finding,) = door_opened_before_unlock(home(_front_door(), environment(_at(780)), trace))
    assert finding.evidence == ("lock.front_door",)
    assert finding.magnitude == 20.0


def test_a_late_unlock_made_while_somebody_was_home_is_the_households() -> None:
    """The back door used a minute before leaving by the front (walk 30): the door and the
    unlock both fell while a phone was home, the phone left after. Who was home then
    decides (``home_then``), so in the first days it waits for the normal; one made after
    everybody had left is no household's."""
    # Fails before: home_then was never set, so it was pushed once everybody had left.
    trace = steps(
        MORNING,
        [
            (90, "binary_sensor.front_door", "on"),
            (90.5, "lock.front_door", "unlocked"),
            (91, "binary_sensor.front_door", "off"),
            (92, "person.alice", "not_home"),
            (93, "lock.front_door", "locked"),
            (300, "binary_sensor.front_door", "on"),
            (300.5, "lock.front_door", "unlocked"),
        ],
    )
    states = [*_front_door(), entity("person.alice", "not_home")]
    (finding,) = door_opened_before_unlock(
        home(states, environment(_at(100), persons_home=0), trace[:4])
    )
    assert finding.home_then is True
    assert "binary_sensor.front_door opened at 07:30:00" in finding.reasoning
    (later,) = door_opened_before_unlock(home(states, environment(_at(310), persons_home=0), trace))
    assert later.home_then is False


def test_unlock_and_opening_in_the_same_second_is_the_normal_order() -> None:
    trace = steps(
        MORNING,
        [
            (90, "lock.front_door", "unlocked"),
            (90, "binary_sensor.front_door", "on"),
            (90.5, "binary_sensor.front_door", "off"),
            (91, "lock.front_door", "locked"),
        ],
    )
    assert not list(door_opened_before_unlock(home(_front_door(), environment(_at(120)), trace)))


def test_another_door_of_the_hall_opened_before_the_lock_is_not_its_door() -> None:
    """A gate in the lock's area, opened 46 s before the front door's lock was unlocked:
    the gate is not the door the lock keeps (it shares neither its device nor its name),
    the front door is. With a lock of no door's name (a "Deadbolt"), every door of its
    area is still judged."""
    trace = steps(
        MORNING,
        [
            (40, "binary_sensor.gate", "on"),
            (40.1, "binary_sensor.gate", "off"),
            (40 + 46 / 60, "lock.front_door", "unlocked"),
            (41, "binary_sensor.front_door", "on"),
            (41.5, "binary_sensor.front_door", "off"),
        ],
    )
    gate = entity("binary_sensor.gate", "off", area="Hallway", device_class="door")
    now = environment(_at(60))
    # Fails before: the area's every door was the lock's ("Gate opened ... before").
    assert not list(door_opened_before_unlock(home([*_front_door(), gate], now, trace)))
    deadbolt = [
        entity("lock.deadbolt", "locked", area="Hallway"),
        entity("binary_sensor.front_door", "off", area="Hallway", device_class="door"),
        gate,
    ]
    renamed = [
        t._replace(entity_id="lock.deadbolt") if t.entity_id == "lock.front_door" else t
        for t in trace
    ]
    (finding,) = door_opened_before_unlock(home(deadbolt, now, renamed))
    assert finding.reasoning.startswith("binary_sensor.gate opened at 06:40:00")


# --- lock left unlocked while armed --------------------------------------------------------


def _workday(relock_after: float) -> list[Transition]:
    return steps(
        MORNING,
        [
            (60, "alarm_control_panel.house", "armed_away"),
            (90, "lock.front_door", "unlocked"),
            (90.2, "binary_sensor.front_door", "on"),
            (90.5, "binary_sensor.front_door", "off"),
            (90 + relock_after, "lock.front_door", "locked"),
            (660, "alarm_control_panel.house", "disarmed"),
        ],
    )


def test_front_door_left_unlocked_all_day_in_the_armed_home_is_reported() -> None:
    states = [entity("alarm_control_panel.house", "disarmed"), *_front_door()]
    trace = _workday(relock_after=9 * 60)
    (finding,) = lock_unlocked_while_armed(home(states, environment(_at(720)), trace))
    assert finding.evidence == ("lock.front_door",)
    assert finding.magnitude is not None
    assert finding.magnitude >= 8 * 60


def test_relocking_behind_you_is_not_a_lock_left_open() -> None:
    states = [entity("alarm_control_panel.house", "disarmed"), *_front_door()]
    trace = _workday(relock_after=0.5)
    assert not list(lock_unlocked_while_armed(home(states, environment(_at(720)), trace)))


# --- entry while armed away ---------------------------------------------------------------


def _rooms() -> list[EntityState]:
    return [
        entity("alarm_control_panel.house", "armed_away"),
        *_front_door(),
        entity("binary_sensor.hallway_motion", "off", area="Hallway", device_class="motion"),
        entity("binary_sensor.lounge_motion", "off", area="Lounge", device_class="motion"),
        entity("binary_sensor.bedroom_motion", "off", area="Bedroom", device_class="motion"),
    ]


def test_somebody_walking_through_the_armed_home_without_disarming_is_reported() -> None:
    trace = steps(
        MORNING,
        [
            (60, "alarm_control_panel.house", "armed_away"),
            (480, "lock.front_door", "unlocked"),
            (480.1, "binary_sensor.front_door", "on"),
            (483, "binary_sensor.lounge_motion", "on"),
            (486, "binary_sensor.bedroom_motion", "on"),
            (490, "binary_sensor.front_door", "off"),
        ],
    )
    (finding,) = entry_while_armed_away(home(_rooms(), environment(_at(600)), trace))
    assert finding.evidence[0] == "binary_sensor.front_door"
    assert set(finding.evidence) >= {
        "lock.front_door",
        "binary_sensor.lounge_motion",
        "binary_sensor.bedroom_motion",
    }


def test_a_resident_who_disarms_on_coming_home_is_no_intruder() -> None:
    trace = steps(
        MORNING,
        [
            (60, "alarm_control_panel.house", "armed_away"),
            (600, "binary_sensor.front_door", "on"),
            (600.5, "alarm_control_panel.house", "disarmed"),
            (603, "binary_sensor.lounge_motion", "on"),
            (606, "binary_sensor.bedroom_motion", "on"),
        ],
    )
    assert not list(entry_while_armed_away(home(_rooms(), environment(_at(660)), trace)))


# --- several rooms at once -----------------------------------------------------------------


def _motion_day(crowded: bool) -> list[Transition]:
    events: list[tuple[float, str, str]] = []
    rooms = ("kitchen", "lounge", "bedroom")
    events += [(0, f"binary_sensor.{room}_motion", "off") for room in rooms]  # at midnight
    for hour in range(8, 14):
        start = hour * 60.0
        if crowded:  # every room at once, every hour
            events += [(start, f"binary_sensor.{room}_motion", "on") for room in rooms]
        else:  # one person walking from room to room
            events += [
                (start + 3 * i, f"binary_sensor.{room}_motion", "on")
                for i, room in enumerate(rooms)
            ]
        events += [(start + 10, f"binary_sensor.{room}_motion", "off") for room in rooms]
    return steps(datetime(2025, 2, 3), events)


def _motion_rooms() -> list[EntityState]:
    return [
        entity(f"binary_sensor.{room}_motion", "off", area=room.title(), device_class="motion")
        for room in ("kitchen", "lounge", "bedroom")
    ]


def test_three_rooms_moving_at_the_same_second_in_a_two_person_home_is_reported() -> None:
    trace = _motion_day(crowded=True)
    env = environment(datetime(2025, 2, 3, 15))
    (finding,) = motion_in_many_rooms_at_once(home(_motion_rooms(), env, trace))
    assert len(finding.evidence) == 3
    assert finding.magnitude == 6.0


def test_one_person_walking_through_the_rooms_is_not_a_crowd() -> None:
    trace = _motion_day(crowded=False)
    env = environment(datetime(2025, 2, 3, 15))
    assert not list(motion_in_many_rooms_at_once(home(_motion_rooms(), env, trace)))


def test_household_size_from_people_or_from_the_profile() -> None:
    env = Environment(local_time=datetime(2025, 2, 3, 15))
    single = build_window([], env, [], profile="single adult working from home")
    family = build_window([], env, [], profile="family with two children")
    assert household_size(HomeView(single)) == 1
    assert household_size(HomeView(family)) is None
    assert household_size(home([], environment())) == 2  # two persons tracked


# --- status texts --------------------------------------------------------------------------


def test_status_words_that_name_a_fault_or_a_high_risk() -> None:
    assert names_a_problem("risk_high")
    assert names_a_problem("Compressor FAULT")
    assert names_a_problem("error")
    assert not names_a_problem("risk_low")
    assert not names_a_problem("Warned")
    assert not names_a_problem("cleaning")
    assert not names_a_problem('{"error_count": 0}')


def test_dishwasher_reporting_an_error_is_reported() -> None:
    status = entity("sensor.dishwasher_status", "error", area="Kitchen")
    trace = steps(
        MORNING,
        [
            (0, status.entity_id, "idle"),
            (30, status.entity_id, "washing"),
            (50, status.entity_id, "error"),
        ],
    )
    (finding,) = device_reported_problem(home([status], environment(_at(60)), trace))
    assert finding.evidence == ("sensor.dishwasher_status",)


def test_a_normal_wash_cycle_is_no_problem() -> None:
    status = entity("sensor.dishwasher_status", "idle", area="Kitchen")
    trace = steps(
        MORNING,
        [
            (0, status.entity_id, "idle"),
            (30, status.entity_id, "washing"),
            (90, status.entity_id, "idle"),
        ],
    )
    assert not list(device_reported_problem(home([status], environment(_at(120)), trace)))


# --- set point with nothing acting on it ---------------------------------------------------


def _heated_rooms(with_lounge_unit: bool) -> tuple[list[EntityState], list[Transition]]:
    states: list[EntityState] = []
    events: list[tuple[float, str, str]] = []
    for room in ("bedroom", "kitchen", "lounge"):
        states += [
            entity(f"number.{room}_setpoint", "21", area=room.title(), device_class="temperature"),
            entity(
                f"sensor.{room}_temperature", "20.5", area=room.title(), device_class="temperature"
            ),
        ]
        events += [(0, f"number.{room}_setpoint", "21"), (0, f"sensor.{room}_temperature", "20.5")]
        if room != "lounge" or with_lounge_unit:
            states.append(entity(f"climate.{room}", "heat", area=room.title()))
            events += [
                (60, f"climate.{room}", "heat (heating)"),
                (120, f"climate.{room}", "heat (idle)"),
            ]
    return states, steps(MORNING, events)


def test_a_room_whose_heating_unit_never_reports_is_reported() -> None:
    states, trace = _heated_rooms(with_lounge_unit=False)
    (finding,) = setpoint_without_hvac(home(states, environment(_at(180)), trace))
    assert finding.evidence == ("number.lounge_setpoint",)


def test_every_set_point_with_its_unit_is_fine() -> None:
    states, trace = _heated_rooms(with_lounge_unit=True)
    assert not list(setpoint_without_hvac(home(states, environment(_at(180)), trace)))


# --- several alarm panels ------------------------------------------------------------------


def test_a_triggered_keypad_panel_is_seen_next_to_the_disarmed_house_panel() -> None:
    states = [
        entity("alarm_control_panel.house", "disarmed"),
        entity("alarm_control_panel.garage_keypad", "triggered", area="Garage"),
        entity("binary_sensor.garage_door", "off", area="Garage", device_class="garage_door"),
    ]
    (finding,) = alarm_triggered_without_cause(home(states, environment(persons_home=0)))
    assert finding.evidence[0] == "alarm_control_panel.garage_keypad"
