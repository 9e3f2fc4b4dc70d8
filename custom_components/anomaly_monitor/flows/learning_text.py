"""What the options flow says the monitor is still learning, and until when (issue 24).

The diagnostic sensor counts the devices whose normal is not known yet; the homeowner who
opens *Configure* reads the same in words: which devices, until when, and what is told
meanwhile (``core.learning_gate``). Names are the home's untrusted text: escaped here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from homeassistant.core import HomeAssistant
from homeassistant.helpers import translation
from homeassistant.util import dt as dt_util

from ..const import DOMAIN
from ..core.models import clip
from ..markdown_text import escape_markdown

# Devices named; the rest are counted ("and 4 more").
NAMED = 6
_PREFIX = f"component.{DOMAIN}.selector.learning_text.options."
_DEFAULTS = {
    "learning": (
        "Still learning {count} of the watched devices ({names}), until {until}. Until then"
        " only what cannot wait is told about them (safety hazards, anything rated high, a"
        " protective device going offline, security events while nobody is home); the rest"
        " waits until their normal is known."
    ),
    "more": "{names} and {count} more",
    "learned": "Learned: the normal of every watched device is known.",
    "not_running": "What is still being learned is shown here while the monitor runs.",
    "history_learned": (
        "It knows this home from {days} days of its recorded history, since {since}."
    ),
    "history_short": "The recorder held less than a day of history: it learns from now on.",
    "history_loading": "It is reading the recorder's history of the last {days} days.",
    "history_off": "*Learn from history* is 0 days: it learns from now on.",
    "history_failed": "The recorder's history could not be read: it learns from now on.",
    "history_no_recorder": "Without the recorder it learns from now on.",
}


async def async_learning_text(hass: HomeAssistant, entry_id: str) -> str:
    """The sentence for the options form of the entry ``entry_id``."""
    text = await _texts(hass)
    entry = hass.config_entries.async_get_entry(entry_id)
    runtime = getattr(entry, "runtime_data", None) if entry is not None else None
    if runtime is None:
        return text("not_running")
    status = runtime.coordinator.current_data().learning
    if status is None:
        return text("not_running")
    if not status:
        return text("learned")
    return text(
        "learning",
        count=str(len(status)),
        names=_names(hass, status, text),
        until=_when(max(status.values())),
    )


async def async_history_text(hass: HomeAssistant, entry_id: str) -> str:
    """What the monitor learned from the recorder's history (a home added with weeks of
    it knows them at once: the homeowner reads so), or why it learns from now on."""
    text = await _texts(hass)
    entry = hass.config_entries.async_get_entry(entry_id)
    runtime = getattr(entry, "runtime_data", None) if entry is not None else None
    keeper = getattr(runtime, "baselines", None)
    if keeper is None:
        return ""
    status = keeper.history_status
    if status == "loading":
        return text("history_loading", days=str(keeper.days))
    if status in ("disabled", "failed", "no_recorder"):
        return text(f"history_{status}" if status != "disabled" else "history_off")
    first = keeper.baselines.first_seen
    if status != "loaded" or first is None:
        return ""
    days = (dt_util.utcnow() - first).days
    if days < 1:
        return text("history_short")
    return text("history_learned", days=str(days), since=dt_util.as_local(first).strftime("%d %b"))


async def _texts(hass: HomeAssistant) -> Callable[..., str]:
    templates = await translation.async_get_translations(
        hass, hass.config.language, "selector", {DOMAIN}
    )

    def text(key: str, **values: str) -> str:
        template = templates.get(f"{_PREFIX}{key}", _DEFAULTS[key])
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):  # a translation with a stray brace
            return _DEFAULTS[key].format(**values)

    return text


def _names(hass: HomeAssistant, status: Mapping[str, datetime], text: Callable[..., str]) -> str:
    soonest = sorted(status, key=lambda e: (status[e], e))
    named = NAMED if len(soonest) > NAMED + 1 else NAMED + 1  # never "and 1 more"
    names = []
    for entity_id in soonest[:named]:
        state = hass.states.get(entity_id)
        names.append(escape_markdown(clip(state.name, 60) if state else entity_id))
    shown = ", ".join(names)
    if len(soonest) > named:
        return text("more", names=shown, count=str(len(soonest) - named))
    return shown


def _when(until: datetime) -> str:
    return dt_util.as_local(until).strftime("%d %b %H:%M")
