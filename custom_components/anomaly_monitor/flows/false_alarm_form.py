"""The options flow's false-alarm step: the homeowner's marks, to forget any of them."""

from __future__ import annotations

from collections.abc import Iterable

from homeassistant.config_entries import ConfigEntry, ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import selector
import voluptuous as vol

from ..anomalies.texts import named
from ..anomalies.tracker import mark_key
from ..coordinator import AnomalyMonitorCoordinator
from ..core.models import clip, subject_area

CONF_FORGET = "forget"


def _coordinator(entry: ConfigEntry) -> AnomalyMonitorCoordinator | None:
    if entry.state is not ConfigEntryState.LOADED:
        return None
    coordinator: AnomalyMonitorCoordinator = entry.runtime_data.coordinator
    return coordinator


def false_alarm_choices(hass: HomeAssistant, entry: ConfigEntry) -> list[selector.SelectOptionDict]:
    """One choice per mark, newest first: what was marked, on what, and when."""
    if (coordinator := _coordinator(entry)) is None:
        return []
    choices = []
    for mark in coordinator.tracker.marks():
        subject = mark.signature.partition(":")[2]
        state = hass.states.get(subject)
        name = subject_area(subject) or (state.name if state else subject)
        said = named(hass, coordinator.redactor.text(mark.reasoning)) or mark.rule.replace("_", " ")
        when = (mark.marked_at or "")[:10]
        # "Roof tank level: Roof tank level fell …" said the name twice (walk of session 25);
        # the date is kept whole however long the reasoning (it told the marks apart).
        head = said if said.startswith(name) else f"{name}: {said}"
        label = f"{clip(head, 146)} ({when})"
        choices.append(selector.SelectOptionDict(value=mark_key(mark), label=label))
    return choices


def false_alarms_schema(choices: list[selector.SelectOptionDict]) -> vol.Schema:
    """Tick the marks to forget; none ticked keeps them all."""
    return vol.Schema(
        {
            vol.Optional(CONF_FORGET, default=[]): selector.SelectSelector(
                selector.SelectSelectorConfig(
                    options=choices, multiple=True, mode=selector.SelectSelectorMode.LIST
                )
            )
        }
    )


def forget_false_alarms(entry: ConfigEntry, keys: Iterable[str]) -> None:
    """Forget the chosen marks now (the options' reload then starts without them)."""
    if (coordinator := _coordinator(entry)) is None:
        return
    for key in keys:
        coordinator.async_remove_false_alarm(key)
