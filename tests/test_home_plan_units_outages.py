"""The home benchmark's °F homes, power cuts, 'either' events and the new keys' validation."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from pathlib import Path
import re
from typing import Any

import pytest
import yaml

from benchmark_replay.home.feedback import FeedbackResult
from benchmark_replay.home.observer import Alarm, Observations
from benchmark_replay.home.runner import RunRecord
from benchmark_replay.home.scenario import ScenarioError, load_scenario
from benchmark_replay.home.scoring import overall, score_run
from benchmark_replay.home.timeline import Change, Outage

from .home_scenario_builder import changes, local, plan_of, short_home, write

ZONE = "Europe/Amsterdam"


def _fahrenheit(data: dict[str, Any]) -> None:
    data["home"]["temperature_unit"] = "°F"
    sensor = next(
        e for e in data["home"]["entities"] if e["entity_id"] == "sensor.living_temperature"
    )
    sensor |= {"unit": "°F", "state": "64.0"}


def test_a_fahrenheit_home_reads_fahrenheit(tmp_path: Path) -> None:
    """Set points 70/63 °F by default, the room and the weather in °F."""
    scenario, plan = plan_of(tmp_path, _fahrenheit)
    assert scenario.data["home"]["weather"] | {} == {
        "entity_id": "weather.home",
        "mean": 46.4,
        "swing": 7.2,
    }
    thermostat = changes(plan, "climate.living_room")
    assert {c.attributes["temperature"] for c in thermostat if c.attributes} == {70.0, 63.0}
    room = [float(c.state) for c in changes(plan, "sensor.living_temperature")]
    assert min(room) >= 60
    assert max(room) <= 72
    weather = [c.attributes for c in changes(plan, "weather.home") if c.attributes]
    assert {w["temperature_unit"] for w in weather} == {"°F"}
    assert all(30 <= w["temperature"] <= 62 for w in weather)


def test_a_fahrenheit_home_refuses_a_celsius_room_sensor(tmp_path: Path) -> None:
    data = short_home()
    data["home"]["temperature_unit"] = "°F"
    with pytest.raises(ScenarioError, match=r"climate\[0\]\.sensor: .*reads °C, expected °F"):
        load_scenario(write(tmp_path, data))


def test_an_outage_stops_the_home_and_phones_read_unknown_after(tmp_path: Path) -> None:
    """A 90-minute power cut from day 2 03:00: an Outage step; phones unknown at 04:30."""

    def change(data: dict[str, Any]) -> None:
        data["noise"] = {"outages": [{"at": "day 2 03:00", "minutes": 90}]}

    scenario, plan = plan_of(tmp_path, change)
    cut = scenario.at((2, time(3, 0)))
    (outage,) = [s for s in plan.steps if isinstance(s, Outage)]
    assert (outage.when, outage.until) == (cut, cut + timedelta(minutes=90))
    assert plan.outages == [outage]
    back = cut + timedelta(minutes=90)
    for entity in ("person.sam", "device_tracker.sam_phone"):
        blip = [c for c in changes(plan, entity) if back <= c.when <= back + timedelta(minutes=3)]
        assert [c.state for c in blip] == ["unknown", "home"]


def _alarm(when: datetime, entity: str) -> Alarm:
    return Alarm(when, f"id-{entity}", [entity], "warning", "t", "rule", "", "")


def test_either_events_are_counted_apart(tmp_path: Path) -> None:
    """An alarm during an 'either' event is neither a false alarm nor a hit; the same
    alarm during a quiet event is a false alarm."""

    def change(data: dict[str, Any]) -> None:
        data["incidents"].append(
            {
                "id": "door_open_airing",
                "class": "door_left_open",
                "at": "day 1 15:00",
                "duration": 40,
                "changes": [{"entity": "binary_sensor.front_door", "state": "on"}],
                "expect": "either",
            }
        )

    scenario, plan = plan_of(tmp_path, change)
    seen = Observations()
    seen.alarms = [
        _alarm(scenario.at((1, time(15, 20))), "binary_sensor.front_door"),
        _alarm(scenario.at((2, time(1, 45))), "light.living_room"),  # the quiet party
    ]
    score = score_run(RunRecord(scenario=scenario, plan=plan, seen=seen))
    assert (score["either_events"], score["either_alarmed"]) == (1, 1)
    assert score["false_alarms"] == 1
    assert score["false_alarm_rows"][0]["during_quiet_event"] == "late_party"
    assert (score["incidents"], score["notified"]) == (1, 0)  # the smoke was not told


_STEPS = [{"entity": "binary_sensor.front_door", "state": "on"}]
_HABIT = {"name": "x", "at": "07:00", "steps": _STEPS}
_VISITOR = {"name": "carer", "at": "09:00", "stay": [30, 40]}


@pytest.mark.parametrize(
    ("where", "bad", "key", "says"),
    [
        ("habits", _HABIT | {"colour": "red"}, "habits[0].colour", "unknown key"),
        ("habits", _HABIT | {"at": "7 am"}, "habits[0].at", "HH:MM"),
        ("habits", _HABIT | {"days": ["monday"]}, "habits[0].days", "mon, tue"),
        ("habits", _HABIT | {"when": "night"}, "habits[0].when", "asleep"),
        ("habits", _HABIT | {"repeat": {"count": [0, 3], "gap": 1}}, "habits[0].repeat.count",
         "1 <="),
        ("habits", _HABIT | {"person": "kim"}, "habits[0].person", "home.persons"),
        ("habits", _HABIT | {"steps": [{"entity": "light.attic", "state": "on"}]},
         "habits[0].steps[0].entity", "not declared"),
        ("visitors", {"name": "carer", "at": "09:00"}, "visitors[0].stay", "required"),
        ("visitors", _VISITOR | {"lock": "lock.front_door"}, "visitors[0].lock", "needs its door"),
        ("visitors", _VISITOR | {"motion": ["binary_sensor.attic"]}, "visitors[0].motion[0]",
         "not declared"),
    ],
)  # fmt: skip
def test_new_keys_are_validated_with_file_line_and_key(
    tmp_path: Path, where: str, bad: dict[str, Any], key: str, says: str
) -> None:
    data = short_home()
    data["household"][where] = [bad]
    path = write(tmp_path, data)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert re.search(
        rf"home\.yaml:\d+: household\.{re.escape(key)}: .*{re.escape(says)}", str(caught.value)
    )


def test_outages_and_units_are_validated(tmp_path: Path) -> None:
    data = short_home()
    data["noise"]["outages"] = [{"at": "day 9 03:00", "minutes": 90}]
    with pytest.raises(ScenarioError, match=r"noise\.outages\[0\]\.at: expected a day <= days"):
        load_scenario(write(tmp_path, data))
    data = short_home()
    data["home"]["temperature_unit"] = "K"
    with pytest.raises(ScenarioError, match=r"home\.temperature_unit"):
        load_scenario(write(tmp_path, data))


def test_plan_changes_are_in_the_homes_clock(tmp_path: Path) -> None:
    """Sanity for the helpers above: the flat's smoke is at 18:10 on its clock."""
    _, plan = plan_of(tmp_path, lambda data: None)
    smoke = changes(plan, "binary_sensor.kitchen_smoke", "on")
    assert [local(c.when, ZONE).time() for c in smoke] == [time(18, 10)]
    assert all(isinstance(s, Change) for s in smoke)


def test_documented_fragment_of_the_newer_keys_is_valid(tmp_path: Path) -> None:
    """The fragment in docs/home_scenarios.md, put into the short flat, loads and plans."""
    doc = (Path(__file__).parent.parent / "docs" / "home_scenarios.md").read_text()
    block = doc.split("## The newer keys, an example", 1)[1].split("```yaml", 1)[1]
    fragment = yaml.safe_load(block.split("```", 1)[0])
    data = short_home()
    _fahrenheit(data)
    data["home"]["persons"].append({"id": "anna"})
    for name in ("bathroom_door", "cupboard", "back_door", "kitchen_motion"):
        data["home"]["entities"].append({"entity_id": f"binary_sensor.{name}"})
    data["home"]["temperature_unit"] = fragment["home"]["temperature_unit"]
    household = fragment["household"]
    data["household"]["people"] += household["people"]
    data["household"]["effects"]["pets"] = household["effects"]["pets"]
    data["household"] |= {"habits": household["habits"], "visitors": household["visitors"]}
    data["noise"]["outages"] = [{"at": "day 2 14:00", "minutes": 90}]
    data["incidents"] += [i | {"at": "day 2 11:00"} for i in fragment["incidents"]]
    data["feedback"] = [fragment["feedback"][0] | {"at": "day 1 21:30"}]
    _, plan = plan_of(tmp_path, lambda d: d.update(data))
    assert changes(plan, "binary_sensor.cupboard", "on")
    assert plan.outages


def test_feedback_on_an_incident_never_told_is_not_judged(tmp_path: Path) -> None:
    """The homeowner acts on a notification; with none (a detection miss, already counted
    in recall) the action is listed but judged neither honoured nor not."""
    scenario, plan = plan_of(tmp_path, lambda data: None)
    smoke_at = scenario.at((1, time(18, 10)))
    ack_at = scenario.at((1, time(18, 14)))
    told = Observations()
    told.alarms = [_alarm(smoke_at, "binary_sensor.kitchen_smoke")]
    done = FeedbackResult(ack_at, "acknowledge", "toast_fire", True, "fix flow finished")
    honoured = score_run(RunRecord(scenario=scenario, plan=plan, seen=told, feedback=[done]))
    assert (honoured["feedback_honoured"], honoured["feedback_not_told"]) == (1.0, 0)

    untold = FeedbackResult(ack_at, "acknowledge", "toast_fire", False, "never told", told=False)
    missed = score_run(
        RunRecord(scenario=scenario, plan=plan, seen=Observations(), feedback=[untold])
    )
    (row,) = missed["feedback_rows"]
    assert row["status"] == "not_told"
    assert (missed["feedback_honoured"], missed["feedback_not_told"]) == (None, 1)
    assert missed["recall"] == 0.0  # the miss is scored where it belongs
    both = overall([honoured, missed])
    assert (both["feedback_honoured"], both["feedback_not_told"], both["feedback"]) == (1.0, 1, 2)


def test_safety_is_also_timed_from_when_the_home_showed_it(tmp_path: Path) -> None:
    """A smoke alarm written 6 min after the act that caused it: told the second it went
    on is late from the incident's start (the act) but on time from the sensor."""

    def change(data: dict[str, Any]) -> None:
        data["incidents"][0]["changes"][0]["after"] = 6

    scenario, plan = plan_of(tmp_path, change)
    act = scenario.at((1, time(18, 10)))
    on = act + timedelta(minutes=6)
    own = [c for c in plan.steps if isinstance(c, Change) and c.source.endswith(":toast_fire")]
    assert (own[0].when, own[0].state) == (on, "on")  # then off again at its end
    for told, from_start, from_shown in (
        (on, False, True),
        (on + timedelta(minutes=3), False, False),
    ):
        seen = Observations()
        seen.alarms = [_alarm(told, "binary_sensor.kitchen_smoke")]
        score = score_run(RunRecord(scenario=scenario, plan=plan, seen=seen))
        (row,) = [r for r in score["incident_rows"] if r["id"] == "toast_fire"]
        assert (row["on_time"], row["on_time_from_shown"]) == (from_start, from_shown)
        assert row["latency_from_shown_s"] == (told - on).total_seconds()
        assert score["safety_recall"] == 0.0
        assert score["safety_recall_from_shown"] == (1.0 if from_shown else 0.0)
        assert overall([score])["safety_recall_from_shown"] == score["safety_recall_from_shown"]
