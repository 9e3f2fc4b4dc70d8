"""What a device is comes from what it is and does, never from words in its id (issue #25).

Real integrations give ``switch.tapo_p110``, ``sensor.shellyplug_s_c8c9a3_power`` and
``binary_sensor.0x00158d0001a2b3c4_contact``: the same plug, fridge and door behave
exactly as ones with telling ids. Names are a hint (whole words, several languages),
never the only evidence for a HIGH finding; the homeowner's role wins.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path
import re

import pytest

from custom_components.anomaly_monitor.core.device_roles import (
    Role,
    Source,
    role_of,
    same_device,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityState, Finding, Severity
from custom_components.anomaly_monitor.core.role_words import name_role
from custom_components.anomaly_monitor.core.rules.appliances import fridge_stopped_cycling
from custom_components.anomaly_monitor.core.statistics.durations import (
    entry_left_open,
    heat_appliance_left_on,
    water_left_running,
)

from .core_factories import NOON, entity, environment, home, steps

CORE = Path(__file__).parent.parent / "custom_components" / "anomaly_monitor" / "core"
START = NOON - timedelta(hours=5)


def _named(state: EntityState, entity_id: str, name: str | None = None) -> EntityState:
    """``state`` under another id (and friendly name), as a real integration gives it."""
    info = replace(state.info, entity_id=entity_id, name=name or state.info.name)
    return replace(state, info=info)


def _role(state: EntityState, role: Role) -> EntityState:
    return replace(state, info=replace(state.info, role=role.value))


def _view(states: list[EntityState], events: list[tuple[float, str, str]]) -> HomeView:
    return home(states, environment(NOON), steps(START, events))


def _findings(view: HomeView) -> list[tuple[str, Severity, tuple[str, ...]]]:
    checks = (fridge_stopped_cycling, water_left_running, heat_appliance_left_on, entry_left_open)
    found: list[Finding] = [f for check in checks for f in check(view)]
    return sorted((f.rule, f.severity, f.evidence) for f in found)


def _renamed(found: list[tuple[str, Severity, tuple[str, ...]]], ids: dict[str, str]) -> list:
    return sorted((r, s, tuple(ids.get(e, e) for e in ev)) for r, s, ev in found)


# --- a heater on a plug, a fridge, a door: named, and as real integrations name them ---


def _heater(switch: str, meter: str, name: str) -> tuple[list[EntityState], list]:
    states = [
        entity(switch, "on", area="Study"),
        entity(meter, "1450", area="Study", device_class="power", unit="W"),
    ]
    states = [_named(states[0], switch, name), _named(states[1], meter, f"{name} power")]
    events = [(0, switch, "on"), (0.1, meter, "1450")]
    return states, events


def _fridge(meter: str, name: str) -> tuple[list[EntityState], list]:
    states = [_named(entity(meter, "0.4", area="Kitchen", device_class="power"), meter, name)]
    # It ran till 2 h 10 min after the window began, then never again.
    events = [(0, meter, "80"), (60, meter, "0.4"), (100, meter, "85"), (130, meter, "0.4")]
    return states, events


def _door(contact: str, name: str) -> tuple[list[EntityState], list]:
    states = [_named(entity(contact, "on", area="Hallway", device_class="door"), contact, name)]
    return states, [(200, contact, "on")]


@pytest.mark.parametrize(
    ("build", "named", "real"),
    [
        (_heater, ("switch.study_heater", "sensor.study_heater_power"),
         ("switch.tapo_p110", "sensor.tapo_p110_current_consumption")),
        (_heater, ("switch.study_heater", "sensor.study_heater_power"),
         ("switch.shellyplug_s_c8c9a3", "sensor.shellyplug_s_c8c9a3_power")),
        (_fridge, ("sensor.fridge_power",), ("sensor.0x00158d0001a2b3c4_power",)),
        (_door, ("binary_sensor.front_door",), ("binary_sensor.0x00158d0001a2b3c4_contact",)),
        (_door, ("binary_sensor.front_door",),
         ("binary_sensor.lumi_lumi_sensor_magnet_aq2_opening",)),
    ],
)  # fmt: skip
def test_real_integration_ids_behave_as_named_ones(build, named, real) -> None:
    """The same device, its friendly name kept: the same findings, the same severity."""
    name = {_heater: "Study heater", _fridge: "Fridge", _door: "Front door"}[build]
    named_states, named_events = build(*named, name)
    real_states, real_events = build(*real, name)
    expected = _findings(_view(named_states, named_events))
    assert expected, "the named device must be found (else the test proves nothing)"
    assert (
        _renamed(_findings(_view(real_states, real_events)), dict(zip(real, named, strict=True)))
        == expected
    )


def test_a_tapo_plug_is_no_tap() -> None:
    """The 48 false alarms of issue #25: a plug on for hours is no water running."""
    states, events = _heater("switch.tapo_p110", "sensor.tapo_p110_current_consumption", "")
    states = [
        _named(states[0], "switch.tapo_p110", "Tapo P110"),
        _named(states[1], "sensor.tapo_p110_current_consumption", "Tapo P110 Current consumption"),
    ]
    assert _findings(_view(states, events)) == []


@pytest.mark.parametrize(
    ("entity_id", "name"),
    [("switch.environment_fan", "Environment fan"), ("switch.covenant_lamp", "Covenant lamp")],
)
def test_words_inside_words_are_no_appliance(entity_id: str, name: str) -> None:
    """ "iron" in "environment" and "oven" in "covenant" are no heat appliance."""
    state = _named(entity(entity_id, "on", area="Study"), entity_id, name)
    view = _view([state], [(0, entity_id, "on")])
    assert role_of(view, entity_id) is None
    assert list(heat_appliance_left_on(view)) == []


def test_default_named_plug_is_what_the_homeowner_says() -> None:
    """ "Tapo P110" says nothing; told it is a heater, it is judged as the named one."""
    states, events = _heater("switch.tapo_p110", "sensor.tapo_p110_current_consumption", "")
    states = [_named(s, s.entity_id, "Tapo P110") for s in states]
    assert _findings(_view(states, events)) == []
    told = [_role(states[0], Role.HEATING_APPLIANCE), states[1]]
    (finding,) = _findings(_view(told, events))
    assert finding[:2] == ("heat_appliance_left_on", Severity.HIGH)


def test_a_name_alone_never_makes_a_high_finding() -> None:
    """A switch called "Garden tap" on for hours: told, but as MEDIUM; a valve is HIGH."""
    tap = _named(
        entity("switch.sonoff_1000a1b2c3", "on", area="Garden"),
        "switch.sonoff_1000a1b2c3",
        "Garden tap",
    )
    view = _view([tap], [(0, tap.entity_id, "on")])
    assert role_of(view, tap.entity_id) == role_of(view, tap.entity_id).__class__(
        Role.WATER, Source.NAME
    )
    (finding,) = _findings(view)
    assert finding[:2] == ("water_left_running", Severity.MEDIUM)
    valve = entity("valve.0x00158d00aa", "open", area="Garden")
    (finding,) = _findings(_view([valve], [(0, valve.entity_id, "open")]))
    assert finding[:2] == ("water_left_running", Severity.HIGH)


def test_a_heater_named_and_drawing_is_high_named_and_idle_medium() -> None:
    """The meter on the same plug bears the name out while it draws a working load."""
    states, events = _heater("switch.tapo_p110", "sensor.tapo_p110_current_consumption", "Heater")
    (finding,) = _findings(_view(states, events))
    assert finding[1] is Severity.HIGH
    idle = [states[0], replace(states[1], state="0.3")]
    (finding,) = _findings(_view(idle, [*events, (150, states[1].entity_id, "0.3")]))
    assert finding[1] is Severity.MEDIUM


def test_inside_door_is_no_entry() -> None:
    """The homeowner says the door is an inside one: open for hours is nothing to tell."""
    states, events = _door("binary_sensor.0x00158d0001a2b3c4_contact", "Door")
    assert [f[0] for f in _findings(_view(states, events))] == ["entry_left_open"]
    inside = [_role(states[0], Role.INSIDE_DOOR)]
    assert _findings(_view(inside, events)) == []


def test_the_switch_and_its_meter_share_the_role() -> None:
    """A plug's switch named for its fridge makes its meter a cold appliance too."""
    switch = _named(entity("switch.a1", "on", area="Kitchen"), "switch.a1", "Fridge")
    meter = replace(
        entity("sensor.b2", "60", area="Kitchen", device_class="power"),
        info=replace(
            entity("sensor.b2", "60", area="Kitchen", device_class="power").info,
            name="Meter",
            device="d1",
        ),
    )
    switch = replace(switch, info=replace(switch.info, device="d1"))
    view = _view([switch, meter], [])
    assert same_device(switch, meter)
    guess = role_of(view, "sensor.b2")
    assert guess is not None
    assert guess.role is Role.COLD_APPLIANCE


@pytest.mark.parametrize(
    ("name", "role"),
    [
        ("Kühlschrank Leistung", "cold_appliance"),
        ("Koelkast vermogen", "cold_appliance"),
        ("Congélateur puissance", "cold_appliance"),
        ("Nevera potencia", "cold_appliance"),
        ("Backofen", "cooking_appliance"),
        ("Kookplaat", "cooking_appliance"),
        ("Lave-linge", "washing_appliance"),
        ("Lavavajillas", "washing_appliance"),
        ("Water heater", "heating_appliance"),  # heats, never "water left running"
        ("Space heater", "heating_appliance"),
        ("Tapo P110 Current consumption", None),
        ("shellyplug-s-C8C9A3 Power", None),
        ("LUMI lumi.sensor_magnet.aq2 Opening", None),
    ],
)
def test_name_hints_are_whole_words_in_several_languages(name: str, role: str | None) -> None:
    """Whole words of the friendly name, in en, de, nl, fr, es; a model number says none."""
    assert name_role(name, "sensor", "power") == role


# Patterns that read meaning out of an entity id: a word or substring test on it.
_ID_WORD_TESTS = (
    re.compile(r"""["'][a-z_]+["']\s+in\s+\w*(entity_id|object_id|\be\b)"""),
    re.compile(r"(entity_id|object_id|\be|\[2\])\S*\.lower\(\)"),
    re.compile(r"\bin\s+[\w.]*entity_id\b(?!s)"),
    re.compile(r"\{[\w.]*entity_id\}[^\"]*\"\.lower\(\)"),
    re.compile(r"\bin\s+(meter_words|object_id)\b"),
    re.compile(r"\b(entity_id|object_id|e)\.(endswith|startswith)\(\s*[\"'][a-z_]+[\"']"),
)
# Modules that turn ids into words for texts only (wording, never detection).
_WORDING = {
    "device_mentions.py",
    "explanations.py",
    "prompts.py",
    "window_text.py",
    "parsing.py",
    "entity_matching.py",
    "state_words.py",
}


def test_no_word_list_is_applied_to_entity_ids_in_core() -> None:
    """``grep`` finds no word or substring test on entity ids in the detection core."""
    offending = []
    for path in sorted(CORE.rglob("*.py")):
        if path.name in _WORDING:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(p.search(line) for p in _ID_WORD_TESTS):
                offending.append(f"{path.relative_to(CORE)}:{number}: {line.strip()}")
    assert offending == []
