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


def test_a_long_sentence_loses_its_asides_before_its_end() -> None:
    """Walk 39: the plug's line lost "it no longer stops" to the clip, keeping the
    parenthesis of what the limit was learned from."""
    said = (
        "Fridge plug power has been drawing power without a break for 1 h 17 min; the "
        "appliance usually rests after at most 45 min (learned from 335 cycles; it started "
        "at least 24 times a day on each of the last 7 days): it no longer stops. More."
    )
    assert first_sentence(said) == (
        "Fridge plug power has been drawing power without a break for 1 h 17 min; the "
        "appliance usually rests after at most 45 min: it no longer stops."
    )
    # Short enough with them: kept whole.
    assert first_sentence("At most 2 min (learned from 13 stays).") == (
        "At most 2 min (learned from 13 stays)."
    )
    # A name with a parenthesis of its own is not cut open; too long still, clipped.
    long = "Plug (attic) " + "words " * 60 + "(aside) end."
    clipped = first_sentence(long)
    assert clipped.startswith("Plug (attic) words")
    assert len(clipped) <= 200


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
