"""Homeowner feedback through the public surfaces: the repair fix flow and the actions.

``acknowledge`` and ``false_alarm`` walk the anomaly's repair issue through its fix flow
exactly as the frontend does (menu choices, then any confirmation form with its
defaults). Once the anomaly has cleared and its repair issue is gone, they use the
integration's public action for it, whatever it is called, if it offers one; if not, the
feedback is reported as not possible, with the reason. ``remove_mark`` uses the
integration's public action for false-alarm marks, whatever it is called, if it offers one;
when the integration lists its marks and none is about the incident, there is nothing to
remove (done; later incidents on its entities must still be told).
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
    possible: bool = True  # False: the product offers the homeowner no way to do it
    # False: no notification about the incident had come (a detection miss, scored as one
    # in recall; the homeowner had nothing to act on, so the action is not judged).
    told: bool = True


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


_REMOVE_WORDS = ("remove", "clear", "forget", "unmark", "delete")


def _about_marks(name: str) -> bool:
    return "false_alarm" in name or "mark" in name


async def async_remove_mark(hass: HomeAssistant, alarm: Alarm | None) -> tuple[bool, str]:
    """Remove the false-alarm mark of an anomaly through a public action, if there is one.

    The action is found by its name (``*false_alarm*``/``*mark*`` with a removal verb). If
    a listing action exists, the mark about this alarm's anomaly or entities is looked up
    there and named by its id; otherwise the alarm's id and entities are tried.
    """
    services = hass.services.async_services_for_domain(MONITOR_DOMAIN)
    removers = sorted(n for n in services if _about_marks(n) and any(w in n for w in _REMOVE_WORDS))
    if not removers:
        return False, "the integration offers no action to remove a false-alarm mark"
    name = next((n for n in removers if "remove" in n), removers[0])
    listed = await _listed_mark_ids(hass, services, alarm)
    if listed == [] and alarm is not None:
        # The list shows the homeowner no mark about it (a safety hazard is never marked):
        # nothing holds its pattern back, nothing to remove. Whether later incidents on
        # its entities are told is still scored.
        return True, f"no false-alarm mark about it is listed: nothing to remove ({name})"
    attempts = [*(listed or [])]
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
        except Exception as err:  # try the next way of naming the mark
            errors.append(f"{data}: {err}")
            continue
        return True, f"{MONITOR_DOMAIN}.{name} {data}"
    return False, f"{MONITOR_DOMAIN}.{name} refused every call: {'; '.join(errors)[:300]}"


async def _listed_mark_ids(
    hass: HomeAssistant, services: dict[str, Any], alarm: Alarm | None
) -> list[dict[str, Any]] | None:
    """``{id_key: id}`` of the listed marks about this alarm, newest first (None: no list
    to read)."""
    listers = sorted(n for n in services if _about_marks(n) and "list" in n)
    if not listers or alarm is None:
        return None
    try:
        response = await hass.services.async_call(
            MONITOR_DOMAIN, listers[0], {}, blocking=True, return_response=True
        )
    except Exception:  # the removal is still tried without it
        return None
    marks = next((v for v in (response or {}).values() if isinstance(v, list)), [])
    found = []
    for mark in reversed(marks):
        if not isinstance(mark, dict):
            continue
        text = str(mark)
        if alarm.anomaly_id not in text and not any(e in text for e in alarm.evidence):
            continue
        for key, value in mark.items():
            if key.endswith("id") and isinstance(value, str):
                found.append({key: value})
                break
    return found


# Actions that give feedback on an anomaly (not the ones that list or remove marks).
_GIVE_WORDS = {"acknowledge": ("acknowledge",), "false_alarm": ("false_alarm", "false")}
_NOT_GIVING = (*_REMOVE_WORDS, "list")


async def async_feedback_without_issue(
    hass: HomeAssistant,
    alarm: Alarm,
    action: str,
    why: str = "the anomaly had cleared and its repair issue was gone",
) -> tuple[bool, str, bool]:
    """Acknowledge or mark an anomaly without a repair issue: (done, detail, possible).

    As a homeowner would: through a public action whose name says what it does
    (``*acknowledge*``, ``*false_alarm*``), naming the anomaly or its entities. ``why``
    says why there is no repair issue to use.
    """
    services = hass.services.async_services_for_domain(MONITOR_DOMAIN)
    words = _GIVE_WORDS[action]
    givers = sorted(
        n for n in services if any(w in n for w in words) and not any(v in n for v in _NOT_GIVING)
    )
    if not givers:
        return (
            False,
            f"not possible: {why}, and the integration offers no action to "
            f"{action.replace('_', ' ')} it otherwise (its actions: {', '.join(sorted(services))})",
            False,
        )
    errors = []
    for name in givers:
        for data in ({"anomaly_id": alarm.anomaly_id}, {"entity_id": alarm.evidence}):
            try:
                await hass.services.async_call(MONITOR_DOMAIN, name, data, blocking=True)
            except Exception as err:  # try the next way of naming the anomaly
                errors.append(f"{name} {data}: {err}")
                continue
            return True, f"{MONITOR_DOMAIN}.{name} {data} (after the repair issue was gone)", True
    return False, f"every call was refused: {'; '.join(errors)[:300]}", True
