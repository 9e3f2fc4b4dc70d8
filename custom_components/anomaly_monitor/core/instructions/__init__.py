"""Instruction check: plan service calls from a user instruction and refuse what the home cannot do.

The flow is parse (deterministic vocabulary, an LLM, or both) → ``Intent`` per requested
operation → ``validate`` against a ``HomeCapabilities`` built from the home's own data →
``PlannedOperation`` or ``RefusedPart`` with a reason. Nothing here imports Home Assistant.
"""

from .capabilities import Area, DeviceCapability, Feature, FeatureKind, HomeCapabilities
from .intents import InstructionPlan, Intent, PlannedOperation, RefusalCode, RefusedPart
from .planner import PlannerMode, async_plan_instruction

__all__ = [
    "Area",
    "DeviceCapability",
    "Feature",
    "FeatureKind",
    "HomeCapabilities",
    "InstructionPlan",
    "Intent",
    "PlannedOperation",
    "PlannerMode",
    "RefusalCode",
    "RefusedPart",
    "async_plan_instruction",
]
