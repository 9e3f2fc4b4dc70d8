"""The LLM planner: schema, prompt, reply parsing, and fall-backs (with a scripted backend)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import json
from typing import Any

import pytest

from custom_components.anomaly_monitor.core.instructions import (
    PlannedOperation,
    PlannerMode,
    RefusalCode,
    RefusedPart,
    async_plan_instruction,
)
from custom_components.anomaly_monitor.core.instructions.llm_planner import (
    build_messages,
    build_schema,
    parse_reply,
)
from custom_components.anomaly_monitor.core.llm.backend import (
    LLMError,
    LLMResponseError,
    LLMUnavailableError,
    Message,
)

from .test_instructions_core import _home


class _Backend:
    """Answers every request with the next scripted reply (or raises it)."""

    name = "scripted"

    def __init__(self, *replies: str | Exception) -> None:
        self.replies = list(replies)
        self.calls: list[tuple[Sequence[Message], Mapping[str, Any] | None]] = []

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        timeout: float = 60.0,
    ) -> str:
        self.calls.append((messages, schema))
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply

    async def async_close(self) -> None:
        return None


def _reply(*operations: dict[str, str]) -> str:
    base = {"attribute": "none", "value": "", "change": "absolute"}
    return json.dumps({"operations": [{**base, **op} for op in operations]})


def test_schema_constrains_areas_and_vocabulary() -> None:
    """Areas are the home's (plus none/other); device kinds include ones the home lacks."""
    schema = build_schema(_home())
    item = schema["properties"]["operations"]["items"]["properties"]
    assert item["area"]["enum"] == ["Bedroom", "Garage", "Living room", "none", "other"]
    assert "water_heater" in item["device"]["enum"]  # so a missing device can be named
    assert "set" in item["action"]["enum"]


def test_prompt_quotes_home_names_and_ends_with_the_instruction() -> None:
    """Names are JSON-quoted (untrusted); the user's text is the last message."""
    messages = build_messages("Turn on the fan", _home())
    assert '"Living room"' in messages[0]["content"]
    assert messages[-1] == {"role": "user", "content": "Turn on the fan"}


def test_reply_parsing_is_strict_about_shape_and_lenient_about_fences() -> None:
    """Fenced JSON is accepted; non-JSON or a missing list raises LLMResponseError."""
    fenced = (
        "```json\n"
        + _reply({"text": "t", "device": "fan", "area": "Bedroom", "action": "turn_on"})
        + "\n```"
    )
    (intent,) = parse_reply(fenced, _home())
    assert (intent.device_kind, intent.area_id, intent.action) == ("fan", "bedroom", "turn_on")
    with pytest.raises(LLMResponseError):
        parse_reply("I cannot help with that", _home())
    with pytest.raises(LLMResponseError):
        parse_reply('{"ops": []}', _home())


async def test_llm_mode_plans_and_validates() -> None:
    """The model transcribes; the validator decides (an unknown room is refused)."""
    backend = _Backend(
        _reply(
            {
                "text": "open the garage door",
                "device": "garage_door",
                "area": "none",
                "action": "open",
            },
            {"text": "heat the attic", "device": "heater", "area": "other", "action": "turn_on"},
            {
                "text": "fan to high",
                "device": "fan",
                "area": "Bedroom",
                "action": "set",
                "attribute": "speed",
                "value": "high",
            },
        )
    )
    plan = await async_plan_instruction(
        "Open the garage door, heat the attic and put the bedroom fan on high",
        _home(),
        backend=backend,
        mode=PlannerMode.LLM,
    )
    assert plan.planner == "llm"
    steps = list(plan.steps)
    assert isinstance(steps[0], PlannedOperation)
    assert steps[0].service == "cover.open_cover"
    assert isinstance(steps[1], RefusedPart)
    assert steps[1].code is RefusalCode.UNKNOWN_AREA
    assert isinstance(steps[2], PlannedOperation)
    assert steps[2].data == {"preset_mode": "high"}
    assert backend.calls[0][1] is not None  # schema-constrained


async def test_llm_mode_without_backend_or_with_failing_backend_raises() -> None:
    """LLM mode cannot silently fall back: the caller learns the backend failed."""
    with pytest.raises(LLMError):
        await async_plan_instruction("Open the garage door", _home(), mode=PlannerMode.LLM)
    with pytest.raises(LLMUnavailableError):
        await async_plan_instruction(
            "Open the garage door",
            _home(),
            backend=_Backend(LLMUnavailableError("down")),
            mode=PlannerMode.LLM,
        )


async def test_hybrid_falls_back_to_the_parser_when_the_backend_fails() -> None:
    """The unreadable clause stays refused; the readable one is planned."""
    backend = _Backend(LLMUnavailableError("down"))
    plan = await async_plan_instruction(
        "Open the garage door and make it nice", _home(), backend=backend
    )
    assert plan.planner == "parser"
    assert [type(s).__name__ for s in plan.steps] == ["PlannedOperation", "RefusedPart"]
    assert len(backend.calls) == 1


async def test_hybrid_does_not_call_the_backend_when_the_parser_reads_everything() -> None:
    """No LLM cost for instructions the vocabulary covers."""
    backend = _Backend()
    plan = await async_plan_instruction("Close the garage door", _home(), backend=backend)
    assert plan.planner == "parser"
    assert backend.calls == []
