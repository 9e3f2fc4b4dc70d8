"""The "Then:" lines of an incident's notification and repair issue: its parts
(``incident_parts``), each by its name, when it began and when it was over."""

from __future__ import annotations

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
        if (ended := parse_time(part.ended)) is not None:
            lines.append(texts.text("then_line_over", **words, over=clock(ended)))
        else:
            lines.append(texts.text("then_line", **words))
    if not lines:
        return ""
    items = "\n".join(f"- {escape_markdown(line)}" for line in lines)
    return f"**{escape_markdown(texts.text('then'))}**\n{items}"
