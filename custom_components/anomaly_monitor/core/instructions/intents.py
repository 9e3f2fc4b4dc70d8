"""What an instruction asks for (``Intent``) and what the check decides (plan, refusals)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

# Verbs that change a setting rather than trigger an action.
SET = "set"
INCREASE = "increase"
DECREASE = "decrease"
SETTING_ACTIONS = frozenset({SET, INCREASE, DECREASE})


@dataclass(frozen=True, slots=True)
class Intent:
    """One requested operation, in home vocabulary, before it is checked against the home.

    ``action`` is a canonical action (``turn_on``, ``open``, ``pack`` …) or one of
    ``set`` / ``increase`` / ``decrease`` for settings. ``value`` is a number or an option word;
    with ``relative`` it is a change (``by 10``), with ``steps`` a change in option levels.
    """

    text: str
    action: str | None
    device_kind: str | None = None
    area_id: str | None = None
    unknown_area: str | None = None  # an area the instruction names that the home lacks
    attribute: str | None = None  # canonical attribute word (vocabulary.ATTRIBUTES key)
    value: float | str | None = None
    relative: bool = False
    steps: bool = False
    unit: str | None = None  # "percent", "degree", "second", "minute"
    # Names no device of its own: "…the diffuser in the hall and lower its intensity".
    continues: bool = False


class RefusalCode(StrEnum):
    """Why a part of an instruction was refused."""

    NOT_UNDERSTOOD = "not_understood"
    UNKNOWN_AREA = "unknown_area"
    UNKNOWN_DEVICE = "unknown_device"
    AMBIGUOUS_DEVICE = "ambiguous_device"
    UNSUPPORTED_ACTION = "unsupported_action"
    UNSUPPORTED_ATTRIBUTE = "unsupported_attribute"
    MISSING_VALUE = "missing_value"
    OUT_OF_RANGE = "out_of_range"
    INVALID_OPTION = "invalid_option"
    # "here" (or no area at all) and the call does not say where the request comes from
    NO_SPEAKER_AREA = "no_speaker_area"


@dataclass(frozen=True, slots=True)
class PlannedOperation:
    """A Home Assistant service call that passed every check."""

    text: str
    entity_id: str
    service: str  # "domain.service"
    data: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form for service responses."""
        return {
            "text": self.text,
            "entity_id": self.entity_id,
            "service": self.service,
            "data": dict(self.data),
        }


@dataclass(frozen=True, slots=True)
class RefusedPart:
    """A requested operation the home cannot (or must not) carry out."""

    text: str
    code: RefusalCode
    reason: str

    def as_dict(self) -> dict[str, str]:
        """JSON-friendly form for service responses."""
        return {"text": self.text, "code": self.code.value, "reason": self.reason}


# One entry per requested operation, in the order of the instruction.
PlanStep = PlannedOperation | RefusedPart


@dataclass(frozen=True, slots=True)
class InstructionPlan:
    """The outcome of checking one instruction."""

    instruction: str
    steps: tuple[PlanStep, ...]
    planner: str  # which planner produced the intents ("parser", "llm", "hybrid")

    @property
    def operations(self) -> list[PlannedOperation]:
        """The valid service calls."""
        return [s for s in self.steps if isinstance(s, PlannedOperation)]

    @property
    def refused(self) -> list[RefusedPart]:
        """The refused parts."""
        return [s for s in self.steps if isinstance(s, RefusedPart)]
