"""Homeowner feedback through the public surfaces: the repair fix flow and the actions.

``acknowledge`` and ``false_alarm`` walk the anomaly's repair issue through its fix flow
exactly as the frontend does (menu choices, then any confirmation form with its
defaults). ``remove_mark`` uses the integration's public action for false-alarm marks,
whatever it is called, if it offers one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import issue_registry as ir

from .observer import MONITOR_DOMAIN, Alarm

_CHOICE_WORDS = {"acknowledge": ("acknowledge", "ack", "seen"), "false_alarm": ("false",)}
_MAX_STEPS = 6


@dataclass(slots=True)
class FeedbackResult:
    """What happened when the homeowner acted."""

    when: datetime
    action: str
    incident: str
    done: bool
    detail: str
    anomaly_id: str = ""


def issue_for(hass: HomeAssistant, anomaly_id: str) -> str | None:
    """The active repair issue of an anomaly, found by its data or its id."""
    for (domain, issue_id), issue in ir.async_get(hass).issues.items():
        if domain != MONITOR_DOMAIN or not issue.active or not issue.is_fixable:
            continue
        data = issue.data or {}
        if data.get("anomaly_id") == anomaly_id or issue_id.endswith(anomaly_id):
            return issue_id
    return None


async def async_fix_flow(hass: HomeAssistant, issue_id: str, action: str) -> tuple[bool, str]:
    """Walk the fix flow choosing ``action``; (done, what happened)."""
    manager = hass.data["repairs"]["flow_manager"]
    result: Any = await manager.async_init(MONITOR_DOMAIN, data={"issue_id": issue_id})
    words = _CHOICE_WORDS[action]
    for _ in range(_MAX_STEPS):
        kind = result.get("type")
        if kind == FlowResultType.CREATE_ENTRY:
            return True, "fix flow finished"
        if kind == FlowResultType.ABORT:
            return False, f"fix flow aborted: {result.get('reason')}"
        flow_id = result["flow_id"]
        if kind == FlowResultType.MENU:
            options = result.get("menu_options") or []
            names = list(options) if not isinstance(options, dict) else list(options.keys())
            choice = next((o for o in names if any(w in o for w in words)), None)
            if choice is None:
                await _abort(manager, flow_id)
                return False, f"no '{action}' choice in the fix flow menu {names}"
            result = await manager.async_configure(flow_id, {"next_step_id": choice})
        elif kind == FlowResultType.FORM:
            result = await manager.async_configure(flow_id, _form_defaults(result, words))
        else:
            await _abort(manager, flow_id)
            return False, f"unexpected fix flow step {kind}"
    return False, "fix flow did not finish"


async def _abort(manager: Any, flow_id: str) -> None:
    try:
        manager.async_abort(flow_id)
    except Exception:
        return


def _form_defaults(result: Any, words: tuple[str, ...]) -> dict[str, Any]:
    """A form answered as a homeowner who confirms: defaults, booleans on, the right choice."""
    schema = result.get("data_schema")
    answer: dict[str, Any] = {}
    if schema is None:
        return answer
    for marker, validator in schema.schema.items():
        key = str(marker)
        default = getattr(marker, "default", None)
        value = default() if callable(default) else None
        if validator is bool:
            value = True
        container = getattr(validator, "container", None)  # vol.In
        if container:
            options = list(container)
            value = next((o for o in options if any(w in str(o) for w in words)), options[0])
        if value is not None:
            answer[key] = value
    return answer


async def async_remove_mark(hass: HomeAssistant, alarm: Alarm | None) -> tuple[bool, str]:
    """Remove the false-alarm mark of an anomaly through a public action, if there is one."""
    services = hass.services.async_services_for_domain(MONITOR_DOMAIN)
    candidates = sorted(
        name
        for name in services
        if "false_alarm" in name and any(w in name for w in ("remove", "clear", "forget", "unmark"))
    )
    if not candidates:
        return False, "the integration offers no action to remove a false-alarm mark"
    name = next((n for n in candidates if "remove" in n), candidates[0])
    attempts: list[dict[str, Any]] = []
    if alarm is not None:
        attempts += [
            {"anomaly_id": alarm.anomaly_id},
            {"entity_id": alarm.evidence},
            {"evidence": alarm.evidence},
        ]
    attempts.append({})
    errors = []
    for data in attempts:
        try:
            await hass.services.async_call(MONITOR_DOMAIN, name, data, blocking=True)
        except Exception as err:
            errors.append(f"{data}: {err}")
            continue
        return True, f"{MONITOR_DOMAIN}.{name} {data}"
    return False, f"{MONITOR_DOMAIN}.{name} refused every call: {'; '.join(errors)[:300]}"
