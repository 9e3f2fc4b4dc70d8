"""How a window reads to the model: environment, long windows, folded runs, stored marks."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.llm.prompts import (
    PromptForm,
    example_from_verdict,
    false_alarm_example_from_states,
    render_window,
)
from custom_components.anomaly_monitor.core.llm.window_text import render_environment
from custom_components.anomaly_monitor.core.models import (
    CompressedSequence,
    ContextWindow,
    Environment,
    Label,
    SequenceEntry,
    Verdict,
)

from .core_factories import entity

EVENING = datetime(2025, 3, 14, 19, 30)  # a Friday


def _entry(
    minutes_ago: float, entity_id: str, first: str, last: str, *, count: int, kind: str
) -> SequenceEntry:
    start = EVENING - timedelta(minutes=minutes_ago)
    end = start + timedelta(minutes=30) if count > 1 else start
    return SequenceEntry(start, end, entity_id, "Lounge", first, last, count, kind)


def _window(entries: tuple[SequenceEntry, ...], *, truncated: int = 0) -> ContextWindow:
    return ContextWindow(
        snapshot=(
            entity("sensor.lounge_temperature", "23.5", area="Lounge", unit="°C"),
            entity("binary_sensor.lounge_motion", "on", area="Lounge", device_class="motion"),
        ),
        environment=Environment(local_time=EVENING, persons_home=1, persons_total=2),
        sequence=CompressedSequence(
            entries, raw_count=40, raw_tokens=400, tokens=60, truncated=truncated
        ),
        start=EVENING - timedelta(days=2, hours=3),
        end=EVENING,
    )


def test_environment_with_a_measured_light_level_instead_of_daylight() -> None:
    env = Environment(local_time=EVENING, light_level=0.4, persons_home=2)
    text = render_environment(env)
    assert "light level 0.4 of 1" in text
    assert "people home: 2." in text
    assert "daylight" not in text


def test_long_window_with_folded_runs_and_dropped_events() -> None:
    """Two days of history: the duration in days, repeats and drifts folded, a drop note."""
    window = _window(
        (
            _entry(3000, "binary_sensor.lounge_motion", "on", "on", count=12, kind="repeat"),
            _entry(120, "sensor.lounge_temperature", "19", "23.5", count=9, kind="drift"),
        ),
        truncated=7,
    )
    text = render_window(window, PromptForm.SEQUENCE)
    assert "Window: last 2 d 3 h." in text
    assert "(7 older events left out)" in text
    assert "binary_sensor.lounge_motion: on x12" in text
    assert "sensor.lounge_temperature: 19 -> 23.5 (gradual, 9 readings)" in text
    assert "03-12 17:30" in text  # events spanning days carry their date


def test_sequence_form_without_events_says_so() -> None:
    text = render_window(_window(()), PromptForm.SEQUENCE)
    assert "Events: none." in text


def test_example_from_a_sequence_shows_only_the_evidence_events() -> None:
    window = _window(
        (
            _entry(3000, "binary_sensor.lounge_motion", "on", "on", count=12, kind="repeat"),
            _entry(120, "sensor.lounge_temperature", "19", "23.5", count=9, kind="drift"),
        )
    )
    verdict = Verdict(label=Label.NORMAL, evidence=("sensor.lounge_temperature",))
    example = example_from_verdict(window, verdict, PromptForm.SEQUENCE)
    assert "Events (oldest first):" in example.situation
    assert "sensor.lounge_temperature: 19 -> 23.5" in example.situation
    assert "lounge_motion" not in example.situation


def test_stored_false_alarm_keeps_the_time_it_happened() -> None:
    env = Environment(local_time=EVENING, persons_home=0, persons_total=2)
    example = false_alarm_example_from_states({"binary_sensor.garage_door": "on"}, env)
    assert "Now: Friday 19:30" in example.situation
    assert "people home: 0 of 2" in example.situation
    assert example.label is Label.NORMAL
