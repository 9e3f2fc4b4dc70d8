"""Plan an instruction: intents from the parser and/or an LLM, then the deterministic check."""

from __future__ import annotations

from enum import StrEnum

from ..llm import LLMBackend, LLMError
from .capabilities import HomeCapabilities
from .intents import SETTING_ACTIONS, InstructionPlan, Intent
from .llm_planner import async_llm_intents
from .parser import MAX_INSTRUCTION_LENGTH, InstructionParser, split_clauses
from .validator import validate_intents


class PlannerMode(StrEnum):
    """Where intents come from."""

    PARSER = "parser"  # deterministic vocabulary only
    LLM = "llm"  # the LLM reads the whole instruction
    HYBRID = "hybrid"  # the parser, and the LLM for clauses the parser cannot read


def _unreadable(intent: Intent) -> bool:
    """The parser found no verb, no target, or a setting change without setting or value."""
    if intent.action is None or (intent.device_kind is None and intent.attribute is None):
        return True
    return intent.action in SETTING_ACTIONS and intent.attribute is None and intent.value is None


async def async_plan_instruction(
    instruction: str,
    home: HomeCapabilities,
    *,
    backend: LLMBackend | None = None,
    mode: PlannerMode = PlannerMode.HYBRID,
    timeout: float = 60.0,
) -> InstructionPlan:
    """Plan and check one instruction.

    Raises ``ValueError`` for an empty or over-long instruction, and ``LLMError`` in LLM mode
    when the backend fails (hybrid mode falls back to the parser's reading).
    """
    text = instruction.strip()
    if not text:
        raise ValueError("the instruction is empty")
    if len(text) > MAX_INSTRUCTION_LENGTH:
        raise ValueError(f"the instruction is longer than {MAX_INSTRUCTION_LENGTH} characters")

    if mode is PlannerMode.LLM:
        if backend is None:
            raise LLMError("LLM planning needs a backend")
        intents = await async_llm_intents(backend, text, home, timeout=timeout)
        return InstructionPlan(text, tuple(validate_intents(intents, home)), mode.value)

    parser = InstructionParser(home)
    intents = parser.parse(text)
    used = PlannerMode.PARSER
    if mode is PlannerMode.HYBRID and backend is not None and any(map(_unreadable, intents)):
        resolved: list[Intent] = []
        for intent in intents:
            if not _unreadable(intent):
                resolved.append(intent)
                continue
            try:
                resolved.extend(
                    await async_llm_intents(backend, intent.text, home, timeout=timeout)
                )
                used = PlannerMode.HYBRID
            except LLMError:
                resolved.append(intent)
        intents = resolved
    if not intents:
        intents = [Intent(text=c, action=None) for c in split_clauses(text)] or [
            Intent(text=text, action=None)
        ]
    return InstructionPlan(text, tuple(validate_intents(intents, home)), used.value)
