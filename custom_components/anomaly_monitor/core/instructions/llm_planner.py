"""LLM planner: instruction → intents, with output constrained by a JSON schema.

The model only transcribes what the user asked for into the home's vocabulary (device kind,
area, action, setting, value). It does not decide what is valid: the deterministic validator
does. Device kinds are not limited to those present, so a request for a device the home
lacks can be expressed — and then refused.
"""

from __future__ import annotations

from collections.abc import Mapping
import json
import re
from typing import Any

from ..llm.backend import LLMBackend, LLMResponseError, Message
from .capabilities import FeatureKind, HomeCapabilities
from .intents import DECREASE, INCREASE, SET, Intent
from .vocabulary import ACTIONS, ATTRIBUTES, DEVICE_KINDS, normalize, option_key

OTHER = "other"
NONE = "none"
CHANGES = ("absolute", "by_amount", "by_levels")
MAX_OPERATIONS = 12

_SYSTEM = """You turn a smart-home instruction into a list of operations, one per requested \
action, in the order they are asked. Copy what the user asked for; do not judge whether the \
home can do it. Fields:
- text: the words of the instruction for this operation.
- device: the kind of device named (use "other" for a device kind not in the list).
- area: the room named, exactly as listed (use "none" if no room is named, "other" for a room \
not in the list).
- action: turn_on, turn_off, open, close, play, pause, stop, start, return_home (charge/dock), \
pack (empty the trash), clean (vacuum a room), or set / increase / decrease for a setting.
- attribute: the setting changed, or "none" for plain actions.
- value: the number or option word requested ("" if none). For "clean the kitchen" the value \
is the room.
- change: "absolute" for "to X", "by_amount" for "by X", "by_levels" for "by N levels"."""


def _examples(home: HomeCapabilities) -> list[tuple[str, list[dict[str, str]]]]:
    """Two worked examples, using one of the home's real areas and one it lacks."""
    area = home.areas[0].name if home.areas else "kitchen"

    def op(text: str, device: str, where: str, action: str, **rest: str) -> dict[str, str]:
        return {
            "text": text,
            "device": device,
            "area": where,
            "action": action,
            "attribute": rest.get("attribute", NONE),
            "value": rest.get("value", ""),
            "change": rest.get("change", "absolute"),
        }

    return [
        (
            f"Turn off the lamp in the {area.lower()} and raise the heater temperature in the "
            "attic by 3 degrees.",
            [
                op(f"Turn off the lamp in the {area.lower()}", "light", area, "turn_off"),
                op(
                    "raise the heater temperature in the attic by 3 degrees",
                    "heater",
                    OTHER,
                    "increase",
                    attribute="temperature",
                    value="3",
                    change="by_amount",
                ),
            ],
        ),
        (
            f"Put the fan on sleep mode and speed it up one level, then set the {area.lower()} "
            "speaker volume to 30%.",
            [
                op(
                    "Put the fan on sleep mode", "fan", NONE, "set", attribute="mode", value="sleep"
                ),
                op(
                    "speed it up one level",
                    "fan",
                    NONE,
                    "increase",
                    attribute="speed",
                    value="1",
                    change="by_levels",
                ),
                op(
                    f"set the {area.lower()} speaker volume to 30%",
                    "media_player",
                    area,
                    "set",
                    attribute="volume",
                    value="30",
                ),
            ],
        ),
    ]


def build_schema(home: HomeCapabilities) -> dict[str, Any]:
    """JSON schema constraining the reply to the home's areas and the known vocabulary."""
    areas = [*sorted({a.name for a in home.areas}), NONE, OTHER]
    actions = [*ACTIONS, SET, INCREASE, DECREASE]
    item = {
        "type": "object",
        "properties": {
            "text": {"type": "string", "maxLength": 200},
            "device": {"type": "string", "enum": [*DEVICE_KINDS, OTHER]},
            "area": {"type": "string", "enum": areas},
            "action": {"type": "string", "enum": actions},
            "attribute": {"type": "string", "enum": [*ATTRIBUTES, NONE]},
            "value": {"type": "string", "maxLength": 40},
            "change": {"type": "string", "enum": list(CHANGES)},
        },
        "required": ["text", "device", "area", "action", "attribute", "value", "change"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {
            "operations": {"type": "array", "items": item, "maxItems": MAX_OPERATIONS},
        },
        "required": ["operations"],
        "additionalProperties": False,
    }


def describe_home(home: HomeCapabilities) -> str:
    """Compact listing of areas and the device kinds in each (quoted: names are untrusted)."""
    lines = []
    by_area: dict[str | None, list[str]] = {}
    for device in home.devices:
        labels = sorted(device.kinds) or ["device"]
        settings = sorted(
            {n for f in device.features if f.kind is not FeatureKind.ACTION for n in f.names}
        )
        entry = "/".join(labels) + (f" ({', '.join(settings)})" if settings else "")
        by_area.setdefault(device.area_id, []).append(entry)
    for area in home.areas:
        lines.append(f"- {json.dumps(area.name)}: {'; '.join(by_area.get(area.area_id, []))}")
    if by_area.get(None):
        lines.append(f"- no area: {'; '.join(by_area[None])}")
    return "\n".join(lines)


def build_messages(instruction: str, home: HomeCapabilities) -> list[Message]:
    """Chat messages for one instruction."""
    messages: list[Message] = [
        {
            "role": "system",
            "content": f"{_SYSTEM}\nDevice kinds: {', '.join(DEVICE_KINDS)}.\n"
            f"Settings: {', '.join(ATTRIBUTES)}.\nThe home:\n{describe_home(home)}",
        }
    ]
    for question, answer in _examples(home):
        messages.append({"role": "user", "content": question})
        messages.append({"role": "assistant", "content": json.dumps({"operations": answer})})
    messages.append({"role": "user", "content": instruction[:2000]})
    return messages


def parse_reply(reply: str, home: HomeCapabilities) -> list[Intent]:
    """Turn the model's JSON into intents; raise ``LLMResponseError`` if it is unusable."""
    text = reply.strip()
    fenced = re.search(r"\{.*\}", text, re.DOTALL)
    if fenced is None:
        raise LLMResponseError("the planner's reply holds no JSON object")
    try:
        data = json.loads(fenced.group(0))
    except json.JSONDecodeError as err:
        raise LLMResponseError(f"the planner's reply is not valid JSON: {err}") from err
    operations = data.get("operations") if isinstance(data, dict) else None
    if not isinstance(operations, list):
        raise LLMResponseError("the planner's reply has no 'operations' list")
    return [_intent(op, home) for op in operations[:MAX_OPERATIONS] if isinstance(op, Mapping)]


def _intent(op: Mapping[str, Any], home: HomeCapabilities) -> Intent:
    def field(name: str) -> str:
        value = op.get(name, "")
        return str(value)[:200] if value is not None else ""

    area_text = field("area")
    area_id = None
    unknown_area = None
    if area_text not in ("", NONE):
        area = next(
            (a for a in home.areas if option_key(a.name) == option_key(area_text)),
            None,
        )
        if area is not None:
            area_id = area.area_id
        else:
            unknown_area = area_text if area_text != OTHER else "an area not in this home"
    action = field("action")
    device = field("device")
    attribute = field("attribute")
    raw_value = field("value").strip()
    change = field("change")
    value: float | str | None = None
    if raw_value:
        number = re.fullmatch(r"-?\d+(?:\.\d+)?", raw_value.rstrip("%° ").strip())
        value = float(number.group(0)) if number else normalize(raw_value)
    if action == "clean":
        return Intent(
            text=field("text"),
            action=SET,
            device_kind=device if device in DEVICE_KINDS else "vacuum",
            attribute="cleaning_area",
            value=home.area_name(area_id) if area_id else value,
            unknown_area=None,
        )
    return Intent(
        text=field("text"),
        action=action if action in (*ACTIONS, SET, INCREASE, DECREASE) else None,
        device_kind=device if device in DEVICE_KINDS else OTHER,
        area_id=area_id,
        unknown_area=unknown_area,
        attribute=attribute if attribute in ATTRIBUTES else None,
        value=value,
        relative=change in ("by_amount", "by_levels") and action in (INCREASE, DECREASE),
        steps=change == "by_levels" and action in (INCREASE, DECREASE),
    )


async def async_llm_intents(
    backend: LLMBackend,
    instruction: str,
    home: HomeCapabilities,
    *,
    timeout: float = 60.0,
    max_tokens: int = 600,
) -> list[Intent]:
    """Ask the backend for the intents of one instruction."""
    reply = await backend.async_generate(
        build_messages(instruction, home),
        schema=build_schema(home),
        max_tokens=max_tokens,
        timeout=timeout,
    )
    return parse_reply(reply, home)
