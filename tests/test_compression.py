"""Compression of a sequence with known repeats, drifts and toggles."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.buffer import TransitionBuffer
from custom_components.anomaly_monitor.core.compression import compress
from custom_components.anomaly_monitor.core.models import Transition

T0 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)


def _t(minute: float, entity_id: str, state: str) -> Transition:
    return Transition(T0 + timedelta(minutes=minute), entity_id, state, "Kitchen")


def test_known_sequence_compresses_to_expected_window() -> None:
    """Repeats merge, a slow temperature rise keeps first/last, a flapping light is counted."""
    transitions = [
        _t(0, "binary_sensor.door", "on"),
        _t(1, "binary_sensor.door", "on"),
        _t(2, "binary_sensor.door", "on"),
        _t(3, "binary_sensor.door", "off"),
        *[_t(4 + i, "sensor.temp", f"{20 + i * 0.2:.1f}") for i in range(6)],
        *[_t(10 + i * 0.1, "light.hall", "on" if i % 2 == 0 else "off") for i in range(8)],
        _t(20, "sensor.temp", "35.0"),  # a jump is kept as its own entry
    ]
    sequence = compress(transitions)
    got = [(e.entity_id, e.kind, e.first, e.last, e.count) for e in sequence.entries]
    assert got == [
        ("binary_sensor.door", "repeat", "on", "on", 3),
        ("binary_sensor.door", "change", "off", "off", 1),
        ("sensor.temp", "drift", "20.0", "21.0", 6),
        ("light.hall", "toggle", "on", "off", 8),
        ("sensor.temp", "change", "35.0", "35.0", 1),
    ]
    assert sequence.raw_count == len(transitions) == 19
    assert sequence.ratio > 2.5
    assert sequence.truncated == 0


def test_token_budget_drops_oldest_first() -> None:
    """Over budget: the oldest entries go and are counted; the newest stay."""
    transitions = [_t(i, f"lock.door_{i}", "unlocked") for i in range(50)]
    sequence = compress(transitions, token_budget=100)
    assert sequence.tokens <= 100
    assert sequence.truncated == 50 - len(sequence.entries)
    assert sequence.entries[-1].entity_id == "lock.door_49"


def test_two_state_change_is_not_a_toggle() -> None:
    """Opening and closing a door once is two changes, not a storm."""
    sequence = compress([_t(0, "binary_sensor.door", "on"), _t(5, "binary_sensor.door", "off")])
    assert [e.kind for e in sequence.entries] == ["change", "change"]


def test_buffer_expires_by_age_and_caps_by_size() -> None:
    """Old transitions age out; the hard cap evicts and counts."""
    buffer = TransitionBuffer(timedelta(minutes=10), max_size=3)
    for minute in range(5):
        buffer.append(_t(minute, "sensor.a", str(minute)))
    assert len(buffer) == 3
    assert buffer.dropped == 2
    kept = buffer.snapshot(T0 + timedelta(minutes=13, seconds=30))
    assert [t.state for t in kept] == ["4"]
    assert buffer.dropped == 2  # ageing out is not dropping


def test_buffer_takes_the_windows_past_in_front_within_its_cap() -> None:
    """A restart's window read back from the recorder goes before the live changes; past
    the cap, the oldest of it is left out (never held, so not counted as dropped)."""
    buffer = TransitionBuffer(timedelta(minutes=60), max_size=4)
    buffer.append(_t(30, "sensor.a", "live"))
    buffer.merge([_t(minute, "sensor.a", str(minute)) for minute in range(5)])
    assert [t.state for t in buffer.snapshot(T0 + timedelta(minutes=31))] == [
        "2",
        "3",
        "4",
        "live",
    ]
    assert buffer.dropped == 0
    buffer.merge([_t(1, "sensor.b", "full")])  # no room: nothing changes
    assert len(buffer) == 4


def test_a_states_start_goes_in_its_place_in_time() -> None:
    """A device read unavailable when it begins to be watched is recorded at its state's
    start, before changes seen since; the recorder's past of another entity goes in among
    them. Time order is kept (the buffer expires from its oldest end)."""
    buffer = TransitionBuffer(timedelta(minutes=60), max_size=10)
    buffer.append(_t(10, "lock.front", "locked"))
    buffer.append(_t(12, "light.hall", "on"))
    buffer.insert(_t(11, "binary_sensor.smoke", "unavailable"))  # its last_changed
    buffer.insert(_t(13, "sensor.t", "20"))  # newest: appended
    buffer.merge([_t(5, "light.hall", "off"), _t(11.5, "lock.front", "unlocked")])
    kept = buffer.snapshot(T0 + timedelta(minutes=14))
    assert [(t.when - T0).total_seconds() / 60 for t in kept] == [5, 10, 11, 11.5, 12, 13]
    # Older than the window: aged out from the front as any other.
    assert [t.state for t in buffer.snapshot(T0 + timedelta(minutes=71.6))] == ["on", "20"]


def test_a_states_start_older_than_everything_held_is_left_out_when_full() -> None:
    buffer = TransitionBuffer(timedelta(minutes=60), max_size=2)
    buffer.append(_t(10, "sensor.a", "1"))
    buffer.append(_t(12, "sensor.a", "2"))
    buffer.insert(_t(5, "sensor.b", "unavailable"))  # no room, and older than all
    assert [t.state for t in buffer.snapshot(T0 + timedelta(minutes=13))] == ["1", "2"]
    buffer.insert(_t(11, "sensor.b", "unavailable"))  # the oldest held goes, as appending
    assert [t.state for t in buffer.snapshot(T0 + timedelta(minutes=13))] == ["unavailable", "2"]
    assert buffer.dropped == 1


def test_costs_counted_without_rendering_are_those_of_the_rendered_lines() -> None:
    """The budget counts each line's tokens from its parts; the count must be the rendered
    line's, whatever the times, areas and states (long, multi-line, accented, none)."""
    from custom_components.anomaly_monitor.core.compression import (
        entry_cost,
        render_entry,
        render_transition,
        transition_cost,
    )
    from custom_components.anomaly_monitor.core.tokens import estimate_tokens

    areas = (None, "", "Kitchen", "Séjour\nétage", "A" * 39, "B" * 40, "C" * 41, "D" * 90)
    states = ("on", "", "21.5", "x" * 119, "y" * 120, "z" * 121, "line\r\nbreak", "é" * 300)
    moments = (T0, T0.replace(year=999), datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=UTC))
    transitions = [
        Transition(when + timedelta(seconds=i), f"sensor.s_{i}", state, area)
        for i, (when, area, state) in enumerate(
            (w, a, s) for w in moments for a in areas for s in states
        )
    ]
    for transition in transitions:
        assert transition_cost(transition) == estimate_tokens(render_transition(transition)) + 1
    # Every kind of entry (change, repeat, drift, toggle), each area and length of state.
    storm = [
        Transition(T0 + timedelta(seconds=i), "light.x", "on" if i % 2 else "off", area)
        for i, area in enumerate(areas * 2)
    ]
    drift = [
        Transition(T0 + timedelta(minutes=i), "sensor.t", f"{20 + i / 10}", "Hall")
        for i in range(5)
    ]
    same = [Transition(T0 + timedelta(minutes=i), "lock.door", "locked", None) for i in range(3)]
    entries = compress([*transitions, *storm, *drift, *same], token_budget=10**9).entries
    assert {e.kind for e in entries} == {"change", "repeat", "drift", "toggle"}
    for entry in entries:
        assert entry_cost(entry) == estimate_tokens(render_entry(entry)) + 1


def test_a_states_start_is_kept_after_it_ages_out() -> None:
    """A door open since before the window: the recorder's past says it opened at 10 and
    HA's restart wrote ``on`` again at 40; once both have aged out the buffer still says it
    began at 10. A change among them (read back later) starts the run again."""
    buffer = TransitionBuffer(timedelta(minutes=60), max_size=10)
    buffer.append(_t(40, "binary_sensor.door", "on"))  # HA's start, the state set anew
    buffer.merge([_t(5, "binary_sensor.door", "off"), _t(10, "binary_sensor.door", "on")])
    assert buffer.began("binary_sensor.door") == ("on", T0 + timedelta(minutes=10))
    assert buffer.snapshot(T0 + timedelta(minutes=120)) == ()
    assert buffer.began("binary_sensor.door") == ("on", T0 + timedelta(minutes=10))
    buffer.append(_t(121, "binary_sensor.door", "on"))  # a repeat: the run goes on
    assert buffer.began("binary_sensor.door") == ("on", T0 + timedelta(minutes=10))
    buffer.append(_t(122, "binary_sensor.door", "off"))
    assert buffer.began("binary_sensor.door") == ("off", T0 + timedelta(minutes=122))
    buffer.insert(_t(121.5, "binary_sensor.door", "on"))  # older than the newest held
    assert buffer.began("binary_sensor.door") == ("off", T0 + timedelta(minutes=122))
    buffer.merge([_t(100, "binary_sensor.door", "off")])
    assert buffer.began("binary_sensor.door") == ("off", T0 + timedelta(minutes=122))
    assert buffer.began("binary_sensor.window") is None
    buffer.clear()
    assert buffer.began("binary_sensor.door") is None


def test_a_restarts_moment_of_no_state_does_not_end_a_run() -> None:
    """A real restart: the door reads ``unknown`` (its integration loading) and then ``on``
    again: it is open since before. No state for long is another run."""
    buffer = TransitionBuffer(timedelta(minutes=60), max_size=10)
    buffer.append(_t(10, "binary_sensor.door", "on"))
    buffer.append(_t(40, "binary_sensor.door", "unknown"))
    assert buffer.began("binary_sensor.door") is None  # no state now: nothing to date
    buffer.append(_t(41, "binary_sensor.door", "on"))
    assert buffer.began("binary_sensor.door") == ("on", T0 + timedelta(minutes=10))
    buffer.append(_t(50, "binary_sensor.door", "unavailable"))
    buffer.append(_t(80, "binary_sensor.door", "on"))  # back after half an hour
    assert buffer.began("binary_sensor.door") == ("on", T0 + timedelta(minutes=80))
    buffer.merge([_t(1, "binary_sensor.door", "off")])  # older, nothing changes
    assert buffer.began("binary_sensor.door") == ("on", T0 + timedelta(minutes=80))
