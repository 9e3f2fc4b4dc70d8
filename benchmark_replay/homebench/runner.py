"""Run HomeBench cases through the instruction check inside a real in-process Home Assistant."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
import time

from homeassistant.core import HomeAssistant

from custom_components.anomaly_monitor.core.instructions import (
    InstructionPlan,
    PlannedOperation,
    PlannerMode,
    async_plan_instruction,
)
from custom_components.anomaly_monitor.core.llm.backend import LLMBackend, LLMError
from custom_components.anomaly_monitor.instructions.assist import async_assist_reader
from custom_components.anomaly_monitor.instructions.home import async_build_home_capabilities

from .dataset import HomeBenchCase, HomeBenchHome
from .home_builder import PLATFORM, BuiltHome, HomeBuilder
from .scoring import Scoreboard

ERROR = "error_input"


@dataclass(frozen=True, slots=True)
class CaseResult:
    """What happened to one case."""

    case: HomeBenchCase
    predicted: str
    success: bool
    seconds: float
    planner: str
    reasons: tuple[str, ...]


def plan_to_output(plan: InstructionPlan, built: BuiltHome) -> str:
    """HomeBench's output notation for a plan: one entry per step, refusals as error_input."""
    parts = []
    for step in plan.steps:
        if isinstance(step, PlannedOperation):
            call = built.to_homebench(step.entity_id, step.service, step.data)
            parts.append(call or ERROR)
        else:
            parts.append(ERROR)
    if len(parts) == 1:
        return f"''' {parts[0]}'''"
    return "'''" + "".join(f"{p}," for p in parts) + "'''"


async def async_build_home(hass: HomeAssistant, home: HomeBenchHome) -> BuiltHome:
    """Create the home's areas, devices and entities in ``hass``."""
    from pytest_homeassistant_custom_component.common import MockConfigEntry

    entry = MockConfigEntry(domain=PLATFORM, title=f"HomeBench home {home.home_id}")
    entry.add_to_hass(hass)
    built = HomeBuilder(hass, entry.entry_id).build(home)
    await hass.async_block_till_done()
    return built


async def async_run_cases(
    cases: Iterable[HomeBenchCase],
    homes: dict[int, HomeBenchHome],
    *,
    mode: PlannerMode = PlannerMode.PARSER,
    backend: LLMBackend | None = None,
    timeout: float = 120.0,
    on_result: Callable[[CaseResult], None] | None = None,
    assist: bool = True,
) -> tuple[Scoreboard, list[CaseResult]]:
    """Score cases home by home, each home in a fresh in-process Home Assistant."""
    from pytest_homeassistant_custom_component.common import async_test_home_assistant

    by_home: dict[int, list[HomeBenchCase]] = {}
    for case in cases:
        by_home.setdefault(case.home_id, []).append(case)
    board = Scoreboard()
    results: list[CaseResult] = []
    for home_id in sorted(by_home):
        if home_id not in homes:
            raise ValueError(f"home {home_id} is not in the homes file")
        async with async_test_home_assistant() as hass:
            built = await async_build_home(hass, homes[home_id])
            capabilities = async_build_home_capabilities(hass)
            # Home Assistant's own sentence templates first, as the action does.
            reader = (
                await async_assist_reader(hass, capabilities, language="en") if assist else None
            )
            for case in by_home[home_id]:
                start = time.perf_counter()
                planner = mode.value
                try:
                    plan = await async_plan_instruction(
                        case.instruction,
                        capabilities,
                        backend=backend,
                        mode=mode,
                        timeout=timeout,
                        assist=reader,
                    )
                    predicted = plan_to_output(plan, built)
                    planner = plan.planner
                    reasons = tuple(r.reason for r in plan.refused)
                except (LLMError, ValueError) as err:
                    predicted = f"''' {ERROR}'''"
                    reasons = (f"planner failed: {err}",)
                seconds = time.perf_counter() - start
                ok = board.add(case.group, predicted, case.expected, seconds)
                result = CaseResult(case, predicted, ok, seconds, planner, reasons)
                results.append(result)
                if on_result is not None:
                    on_result(result)
            await hass.async_stop(force=True)
    return board, results
