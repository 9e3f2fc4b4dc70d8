"""Plan an instruction: intents from the parser and/or an LLM, then the deterministic check."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from enum import StrEnum
import re

from ..llm.backend import LLMBackend, LLMError
from .capabilities import HomeCapabilities
from .clauses import MAX_CLAUSES, MAX_INSTRUCTION_LENGTH, split_clauses
from .intents import (
    SETTING_ACTIONS,
    InstructionPlan,
    Intent,
    PlannedOperation,
    PlanStep,
    RefusalCode,
    RefusedPart,
)
from .llm_planner import async_llm_intents
from .parser import InstructionParser
from .validator import validate_intents


class PlannerMode(StrEnum):
    """Where intents come from."""

    PARSER = "parser"  # deterministic vocabulary only
    LLM = "llm"  # the LLM reads the whole instruction
    HYBRID = "hybrid"  # the parser, and the LLM for clauses the parser cannot read


# Reads a sentence (or a clause) with Home Assistant's own templates: the steps, or None when
# no template matches. Supplied by the integration, which has the registries.
AssistReader = Callable[[str], Awaitable[Sequence[PlanStep] | None]]


def _valid(steps: Sequence[PlanStep]) -> int:
    return sum(isinstance(s, PlannedOperation) for s in steps)


def _prefer_assist(assist: Sequence[PlanStep], parsed: Sequence[PlanStep]) -> bool:
    """Assist's reading wins unless the parser's does more of what was asked."""
    if assist and _valid(assist) == len(assist):
        return True
    if any(isinstance(s, RefusedPart) and s.code is RefusalCode.NO_SPEAKER_AREA for s in assist):
        return True  # "here" without knowing where the call comes from: never guess
    if parsed and _valid(parsed) == len(parsed):
        return False
    return _valid(assist) > _valid(parsed)


async def _merge_assist(
    text: str, steps: list[PlanStep], assist: AssistReader
) -> tuple[list[PlanStep], bool]:
    """HA's reading of each clause the parser refused, where it does better."""
    merged: list[PlanStep] = []
    used = False
    index = 0
    while index < len(steps):
        clause = steps[index].text
        group = [steps[index]]
        index += 1
        while index < len(steps) and steps[index].text == clause:
            group.append(steps[index])
            index += 1
        if _valid(group) < len(group) and clause != text:
            read = await assist(clause)
            if read is not None and _prefer_assist(read, group):
                merged.extend(read)
                used = True
                continue
        merged.extend(group)
    return merged, used


# Where a compound sentence may be cut: commas, "and", "then".
_JOINS = re.compile(r"\s*,\s*(?:and\s+)?(?:then\s+)?|\s+and\s+(?:then\s+)?|\s+then\s+", re.I)


async def _read_pieces(text: str, assist: AssistReader) -> list[PlanStep] | None:
    """A compound sentence cut at every join, when HA's templates read every piece.

    Catches clauses the parser does not split off ("…21 degrees and lock the front door").
    A piece the templates cannot read makes it None: read alone, a piece loses the pronouns
    and ellipsis ("…and decrease its intensity") the parser resolves across clauses.
    """
    pieces = [p for p in _JOINS.split(text) if p.strip()][:MAX_CLAUSES]
    if len(pieces) < 2:
        return None
    steps: list[PlanStep] = []
    for piece in pieces:
        read = await assist(piece)
        if not read:
            return None
        steps.extend(read)
    return steps


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
    assist: AssistReader | None = None,
) -> InstructionPlan:
    """Plan and check one instruction.

    Raises ``ValueError`` for an empty or over-long instruction, and ``LLMError`` in LLM mode
    when the backend fails (hybrid mode falls back to the parser's reading). ``assist``
    reads with Home Assistant's sentence templates first (not in LLM mode).
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

    whole = await assist(text) if assist is not None else None
    if whole:
        # A sentence HA's templates read is read as Assist would, refusals included: the
        # parser must not guess another device ("open the shutters" where there are none).
        return InstructionPlan(text, tuple(whole), "assist")
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
    steps = validate_intents(intents, home)
    if assist is not None and _valid(steps) < len(steps):
        steps, with_assist = await _merge_assist(text, steps, assist)
        if _valid(steps) < len(steps):
            pieces = await _read_pieces(text, assist)
            if pieces is not None and _valid(pieces) > _valid(steps):
                steps, with_assist = pieces, True
        if with_assist:
            return InstructionPlan(text, tuple(steps), f"assist+{used.value}")
    return InstructionPlan(text, tuple(steps), used.value)
