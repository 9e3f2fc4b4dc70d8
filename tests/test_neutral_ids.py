"""Neutral ids (issue #16 part 4): a window renamed consistently, and evidence mapped back."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
import re

from benchmark_replay.device_groups import with_devices
from benchmark_replay.direct import window_for
from benchmark_replay.neutral_ids import Renaming, neutralise
from benchmark_replay.smartbench_loader import load_smartbench
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import ContextWindow

from .core_factories import NOON, entity, environment, steps, window

FIXTURES = Path(__file__).parent / "fixtures" / "smartbench"
NEUTRAL = re.compile(r"^[a-z_]+\.device_\d{4}$")


def _ids_everywhere(view: ContextWindow) -> set[str]:
    ids = {s.entity_id for s in view.snapshot}
    ids.update(t.entity_id for t in view.transitions)
    ids.update(e.entity_id for e in view.sequence.entries)
    return ids


def test_every_fixture_window_is_renamed_consistently_and_maps_back() -> None:
    """Snapshot, transitions and sequence carry one neutral id per entity, domain kept."""
    records = load_smartbench(FIXTURES).records
    assert any(r.sample.kind == "cd" for r in records)
    for record in records:
        original, scene = window_for(record.sample)
        neutral, renaming = neutralise(original)
        ids = _ids_everywhere(neutral)
        assert all(NEUTRAL.match(i) or i == "sun.sun" for i in ids), ids
        assert {renaming.original(i) for i in ids} == _ids_everywhere(original)
        # One-to-one, domain kept.
        assert len(set(renaming.to_neutral.values())) == len(renaming.to_neutral)
        for old, new in renaming.to_neutral.items():
            assert old.partition(".")[0] == new.partition(".")[0]
        # The same transitions, in the same order, only renamed.
        assert [
            (t.when, renaming.original(t.entity_id), t.state, t.area) for t in neutral.transitions
        ] == list(original.transitions)
        # What HA carries stays: device class, unit, area, state, attributes, order.
        kept = [
            (s.info.device_class, s.info.unit, s.info.area, s.state, s.info.name)
            for s in neutral.snapshot
        ]
        assert kept == [
            (s.info.device_class, s.info.unit, s.info.area, s.state, s.info.name)
            for s in original.snapshot
        ]
        assert [renaming.original(s.entity_id) for s in neutral.snapshot] == [
            s.entity_id for s in original.snapshot
        ]
        # Evidence on neutral ids scores as the original ids do.
        for new in renaming.to_original:
            assert scene.mapping.devices_for(
                renaming.originals([new])
            ) == scene.mapping.devices_for([renaming.original(new)])
            assert not scene.mapping.devices_for(renaming.originals([new])) & {f"entity:{new}"}


def test_names_are_neutralised_only_when_asked() -> None:
    """``names`` turns the friendly name into "Device n", matching the id's number."""
    view = window([entity("switch.kitchen_stove", "on", area="Kitchen")])
    kept, _ = neutralise(view)
    assert kept.snapshot[0].info.name == "Kitchen Stove"
    named, renaming = neutralise(view, names=True)
    assert named.snapshot[0].entity_id == "switch.device_0001"
    assert named.snapshot[0].info.name == "Device 1"
    assert renaming.original("switch.device_0001") == "switch.kitchen_stove"


def test_ids_named_in_attributes_and_profile_follow_whole_ids_only() -> None:
    """An attribute or profile naming an id is renamed; a longer id sharing its start is not."""
    states = [
        entity("sensor.power", "120", device_class="power", unit="W"),
        entity("sensor.power_meter", "5", device_class="power", unit="W", source="sensor.power"),
        entity("group.all", "on", members=["sensor.power", "sensor.power_meter"]),
    ]
    view = window(states)
    view = ContextWindow(
        snapshot=view.snapshot,
        environment=view.environment,
        sequence=view.sequence,
        profile="watch sensor.power_meter and sensor.power.",
    )
    neutral, renaming = neutralise(view)
    power, meter = renaming.neutral("sensor.power"), renaming.neutral("sensor.power_meter")
    assert power != meter
    by_id = neutral.by_id()
    assert by_id[meter].attributes["source"] == power
    assert by_id[renaming.neutral("group.all")].attributes["members"] == [power, meter]
    assert neutral.profile == f"watch {meter} and {power}."


def test_sun_keeps_its_fixed_id_and_unknown_evidence_passes_through() -> None:
    """HA fixes ``sun.sun``; an id the window never held maps back to itself."""
    renaming = Renaming.number(["sun.sun", "light.hall"])
    assert renaming.neutral("sun.sun") == "sun.sun"
    assert renaming.originals(["light.device_0001", "weather.home"]) == (
        "light.hall",
        "weather.home",
    )


def test_a_finding_on_neutral_ids_names_the_original_entities() -> None:
    """A detector's evidence on the renamed window maps back to the ids it stands for."""
    start = NOON - timedelta(minutes=30)
    states = [
        entity("binary_sensor.hall_smoke", "on", area="Hall", device_class="smoke"),
        entity("light.hall_ceiling", "off", area="Hall"),
    ]
    transitions = steps(start, [(1, "binary_sensor.hall_smoke", "on")], area="Hall")
    view = window(states, environment(), transitions)
    neutral, renaming = neutralise(view)
    original_verdict = asyncio.run(CombinedDetector().async_analyze(view))
    neutral_verdict = asyncio.run(CombinedDetector().async_analyze(neutral))
    assert original_verdict.is_anomaly
    assert neutral_verdict.is_anomaly
    assert "binary_sensor.hall_smoke" in original_verdict.evidence
    assert set(renaming.originals(neutral_verdict.evidence)) == set(original_verdict.evidence)
    assert not set(neutral_verdict.evidence) & set(original_verdict.evidence)


def test_device_links_group_a_meter_or_level_with_what_it_measures() -> None:
    """Named like one device, in one area: one opaque device id; across areas: none."""
    states = [
        entity("switch.office_plug", "off", area="Office"),
        entity("sensor.office_plug_power", "40", area="Office", device_class="power", unit="W"),
        entity("sensor.hall_plug_power", "3", area="Hall", device_class="power", unit="W"),
        entity("media_player.den_television", "off", area="Den"),
        entity("sensor.den_tv_power", "60", area="Den", device_class="power", unit="W"),
        entity("binary_sensor.kitchen_smoke_detector", "off", area="Kitchen", device_class="smoke"),
        entity("binary_sensor.kitchen_gas_leak_sensor", "off", area="Kitchen", device_class="gas"),
        entity("sensor.kitchen_smoke_level", "150", area="Kitchen", unit="ppm"),
        entity("sensor.kitchen_gas_level", "2", area="Kitchen", unit="ppm"),
    ]
    linked, devices = with_devices(window(states))
    assert devices["switch.office_plug"] == devices["sensor.office_plug_power"]
    assert devices["media_player.den_television"] == devices["sensor.den_tv_power"]
    assert devices["sensor.kitchen_smoke_level"] == devices["binary_sensor.kitchen_smoke_detector"]
    assert devices["sensor.kitchen_gas_level"] == devices["binary_sensor.kitchen_gas_leak_sensor"]
    assert len(set(devices.values())) == 4
    assert "sensor.hall_plug_power" not in devices
    assert all(re.fullmatch(r"device-\d+", d) for d in devices.values())  # opaque
    # Renamed, the links stay: the off plug drawing power is still paired without words.
    neutral, renaming = neutralise(linked)
    verdict = asyncio.run(CombinedDetector().async_analyze(neutral))
    outlets = [f for f in verdict.findings if f.rule == "outlet_off_but_drawing_power"]
    assert {renaming.originals(f.evidence) for f in outlets} == {
        ("switch.office_plug", "sensor.office_plug_power"),
        ("media_player.den_television", "sensor.den_tv_power"),
    }
    smoke = [f for f in verdict.findings if f.rule == "hazard_level_without_alarm"]
    assert [renaming.originals(f.evidence)[:2] for f in smoke] == [
        ("binary_sensor.kitchen_smoke_detector", "sensor.kitchen_smoke_level")
    ]
