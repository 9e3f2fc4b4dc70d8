"""Share of HA-Assist-style sentences the instruction check plans as Assist would.

    .venv/bin/python scripts/bench_assist_sentences.py [--seed 7] [--no-assist] [--failures 20]

See benchmark_replay/assist/bench.py for how sentences and expected calls are made.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
import sys
import tempfile

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmark_replay.assist.bench import (
    Outcome,
    Sentence,
    async_run,
    sample_sentences,
    summarize,
)


async def _run(config_dir: str, sentences: list[Sentence], assist: bool) -> list[Outcome]:
    from pytest_homeassistant_custom_component.common import async_test_home_assistant

    async with async_test_home_assistant(config_dir=config_dir) as hass:
        hass.config.language = "en"
        outcomes = await async_run(hass, sentences, assist=assist)
        await hass.async_stop(force=True)
    return outcomes


async def _main(args: argparse.Namespace) -> None:
    sentences = sample_sentences(args.seed, args.per_template)
    # A private config dir: the harness's default one is shared, and registries get saved.
    with tempfile.TemporaryDirectory() as config_dir:
        outcomes = await _run(config_dir, sentences, not args.no_assist)
    label = "parser only" if args.no_assist else "HA templates + parser"
    print(f"{len(outcomes)} sentences (seed {args.seed}), planner: {label}")
    print(summarize(outcomes))
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
    asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
