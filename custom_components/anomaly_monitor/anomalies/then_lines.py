"""The "Then:" lines of an incident's notification and repair issue: its parts
(``incident_parts``), each by its name, when it began and when it was over, and the
first sentence of what it found (walk 37: "Fridge temperature out of the band it is
always kept in, 11:24" under the fridge door's notice, without the 12 °C it read)."""

from __future__ import annotations

import re

from homeassistant.core import HomeAssistant

from ..markdown_text import escape_markdown
from .open_anomaly import OpenAnomaly
from .store import parse_time
from .texts import AnomalyTexts, async_anomaly_texts, clock


async def async_then(hass: HomeAssistant, texts: AnomalyTexts, parts: list[OpenAnomaly]) -> str:
    """Markdown: "Then:" and one line per part (its name, when it began, when it was over),
    in the words of the incident's ``texts``; "" without parts. Reads the parts only."""
    lines = []
    for part in parts:
        # Named by the name it was held with (``Announcer``), else as it reads now.
        own = await async_anomaly_texts(hass, part)
        began = parse_time(part.first_seen)
        words = {"headline": own.headline, "time": clock(began) if began else "?"}
        said = first_sentence(own.reasoning)
        key = "then_line_said" if said else "then_line"
        if (ended := parse_time(part.ended)) is not None:
            lines.append(texts.text(f"{key}_over", **words, over=clock(ended), said=said))
        else:
            lines.append(texts.text(key, **words, said=said))
    if not lines:
        return ""
    items = "\n".join(f"- {escape_markdown(line)}" for line in lines)
    return f"**{escape_markdown(texts.text('then'))}**\n{items}"


# A sentence ends at ". ", "! " or "? " (not the point of "12.0 °C").
_SENTENCE_END = re.compile(r"[.!?](?=\s)")
# A part's line stays a line: its first sentence, clipped.
_MOST = 200
# An aside: " (…)", no parenthesis within.
_ASIDE = re.compile(r" ?\([^()]*\)")


def _last_aside(text: str) -> re.Match[str] | None:
    asides = list(_ASIDE.finditer(text))
    return asides[-1] if asides else None


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (untrusted: names in it), at most ``_MOST`` long."""
    text = " ".join(text.split())
    if (end := _SENTENCE_END.search(text)) is not None:
        text = text[: end.start() + 1]
    if len(text) <= _MOST:
        return text
    # Its asides go first, the last first (walk 39: "(learned from 335 cycles; …)" kept,
    # "it no longer stops" clipped); when that is not enough, the sentence is clipped whole.
    shorter = text
    while (aside := _last_aside(shorter)) is not None:
        shorter = shorter[: aside.start()] + shorter[aside.end() :]
        if len(shorter) <= _MOST:
            return shorter
    clipped = text[: _MOST - 1]
    # At a word's end, not in one (walk 38: "…on each of the l…").
    clipped = clipped.rsplit(" ", 1)[0] if " " in clipped else clipped
    return clipped.rstrip(" ,;:") + "…"
