"""Share of HA-Assist-style sentences the instruction check plans as Assist would.

    .venv/bin/python scripts/bench_assist_sentences.py [--seed 7] [--no-assist] [--failures 20]
        [--action] [--extra-sensors 1000]

``--action`` also times the whole ``anomaly_monitor.check_instruction`` action on every
sentence (home snapshot, templates, planning), optionally in a home with N more sensors.

See benchmark_replay/assist/bench.py for how sentences and expected calls are made.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmark_replay.assist.bench import (
    Outcome,
    Sentence,
    async_run,
    percentiles,
    sample_sentences,
    summarize,
)


async def _run(
    config_dir: str, sentences: list[Sentence], args: argparse.Namespace
) -> tuple[list[Outcome], str | None]:
    from pytest_homeassistant_custom_component.common import async_test_home_assistant

    async with async_test_home_assistant(config_dir=config_dir) as hass:
        hass.config.language = "en"
        outcomes = await async_run(hass, sentences, assist=not args.no_assist)
        action = await _time_action(hass, sentences, args.extra_sensors) if args.action else None
        await hass.async_stop(force=True)
    return outcomes, action


async def _time_action(hass: Any, sentences: list[Sentence], extra_sensors: int) -> str:
    """Wall and CPU time of the whole action per sentence, in the home async_run built."""
    from homeassistant.core import Context
    from homeassistant.helpers import area_registry

    from custom_components.anomaly_monitor.instructions.service import (
        async_register_instruction_service,
    )

    async_register_instruction_service(hass)
    for index in range(extra_sensors):
        hass.states.async_set(
            f"sensor.extra_{index}", "21.5", {"friendly_name": f"Extra sensor {index}"}
        )
    living_room = area_registry.async_get(hass).async_get_area_by_name("Living Room")
    assert living_room is not None
    satellite = living_room.id  # where the satellite is, as in async_run
    wall, cpu = [], []
    for sentence in sentences:
        data = {"instruction": sentence.text} | ({"area_id": satellite} if sentence.here else {})
        start, cpu_start = time.perf_counter(), time.process_time()
        await hass.services.async_call(
            "anomaly_monitor", "check_instruction", data, blocking=True,
            return_response=True, context=Context(),
        )  # fmt: skip
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - cpu_start)
    w, c = percentiles(wall), percentiles(cpu)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"whole check_instruction action ({extra_sensors} extra sensors): median {w[0]:.1f} ms, "
        f"p95 {w[1]:.1f} ms; CPU time median {c[0]:.1f} ms, p95 {c[1]:.1f} ms "
        f"(load average {load})"
    )


async def _main(args: argparse.Namespace) -> None:
    sentences = sample_sentences(args.seed, args.per_template)
    # A private config dir: the harness's default one is shared, and registries get saved.
    with tempfile.TemporaryDirectory() as config_dir:
        outcomes, action = await _run(config_dir, sentences, args)
    label = "parser only" if args.no_assist else "HA templates + parser"
    print(f"{len(outcomes)} sentences (seed {args.seed}), planner: {label}")
    print(summarize(outcomes))
    if action:
        print(action)
    wrong = [o for o in outcomes if not o.correct]
    for outcome in wrong[: args.failures]:
        s = outcome.sentence
        print(f"- {s.text!r} [{s.intent}{'' if s.here else ', no area'}]")
        print(f"    Assist: {sorted(outcome.expected) if outcome.expected else 'refuses'}")
        print(
            f"    check:  {sorted(outcome.planned)} refused={outcome.refused} ({outcome.planner})"
        )


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--per-template", type=int, default=2)
    parser.add_argument("--no-assist", action="store_true", help="the parser alone (before)")
    parser.add_argument("--failures", type=int, default=0, help="print N disagreements")
    parser.add_argument("--action", action="store_true", help="time the whole action too")
    parser.add_argument("--extra-sensors", type=int, default=0, help="for --action")
    asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
