"""A "Then:" line says what its part found, not only its name (walk 37: the fridge's
reading joined the door's notice as "Fridge temperature out of the band it is always kept
in, 11:24", the 12 °C it read nowhere): the first sentence of the part's reasoning,
clipped, escaped with the rest of the line."""

from __future__ import annotations

from homeassistant.core import HomeAssistant

from custom_components.anomaly_monitor.anomalies.texts import async_anomaly_texts
from custom_components.anomaly_monitor.anomalies.then_lines import first_sentence
from custom_components.anomaly_monitor.markdown_text import escape_markdown

from .test_incident_parts_shown import _notes, _smoke_then_door


def test_the_first_sentence_keeps_decimals_and_is_clipped() -> None:
    said = "Fridge temperature reads 12.0 °C, out of 4.0–6.0 °C. What keeps it there stopped."
    assert first_sentence(said) == "Fridge temperature reads 12.0 °C, out of 4.0–6.0 °C."
    assert first_sentence("  one\nline  ") == "one line"
    long = "words " * 100
    clipped = first_sentence(long)
    assert len(clipped) <= 200
    assert clipped.endswith("words…")  # at a word's end, not in one
    assert first_sentence("") == ""


async def test_the_parts_line_says_what_it_found(hass: HomeAssistant) -> None:
    entry = await _smoke_then_door(hass)
    tracker = entry.runtime_data.coordinator.tracker
    (part,) = [a for a in tracker.open.values() if a.part_of]
    own = await async_anomaly_texts(hass, part)
    said = first_sentence(own.reasoning)
    assert said
    (note,) = _notes(hass, entry).values()
    then = note["message"].split("Then:")[1]
    line = next(line for line in then.splitlines() if part.headline in line)
    assert line.endswith(escape_markdown(f": {said}"))  # escaped as the rest of the line
