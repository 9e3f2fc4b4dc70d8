"""Cost of the monitor on HA's state bus: events/s with and without it, and the ratio.

Fires N state changes (a mix of sensors, binary sensors and locks, all watched) into a
real in-process Home Assistant, once bare and once with the integration loaded, and
prints throughput. Run: .venv/bin/python scripts/bench_bus.py [--events N] [--entities M]
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
import sys
import time

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from homeassistant import loader
from homeassistant.core import HomeAssistant, callback
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_test_home_assistant,
)

# Imported before any hass exists, or HA's loader mounts the harness's own custom_components.
import custom_components  # noqa: F401

DOMAIN = "anomaly_monitor"


def _entities(count: int) -> list[tuple[str, dict[str, str]]]:
    kinds = [
        ("sensor.temp_{}", {"device_class": "temperature", "unit_of_measurement": "°C"}),
        ("binary_sensor.motion_{}", {"device_class": "motion"}),
        ("light.lamp_{}", {}),
        ("binary_sensor.door_{}", {"device_class": "door"}),
    ]
    return [(kinds[i % 4][0].format(i), kinds[i % 4][1]) for i in range(count)]


def _value(entity_id: str, step: int) -> str:
    if entity_id.startswith("sensor."):
        return f"{20 + (step % 50) / 10:.1f}"
    return "on" if step % 2 else "off"


async def _fire(hass: HomeAssistant, entities: list[tuple[str, dict[str, str]]], n: int) -> float:
    start = time.perf_counter()
    for step in range(n):
        entity_id, attributes = entities[step % len(entities)]
        hass.states.async_set(entity_id, _value(entity_id, step // len(entities)), attributes)
        if step % 1000 == 999:
            await hass.async_block_till_done()
    await hass.async_block_till_done()
    return n / (time.perf_counter() - start)


async def _run(events: int, entity_count: int, mode: str) -> tuple[float, int]:
    entities = _entities(entity_count)
    async with async_test_home_assistant() as hass:
        for entity_id, attributes in entities:
            hass.states.async_set(entity_id, "0", attributes)
        buffered = 0
        with_monitor = mode == "monitor"
        if mode == "listener":
            # Any subscriber makes HA build an Event per change; real homes always have
            # some (recorder, logbook, frontend), so this is the fair baseline.
            hass.bus.async_listen(
                "state_changed", callback(lambda event: None), event_filter=callback(lambda d: True)
            )
        if with_monitor:
            # The harness hides custom integrations unless a test enables them.
            hass.data.pop(loader.DATA_CUSTOM_COMPONENTS, None)
            entry = MockConfigEntry(
                domain=DOMAIN,
                title="bench",
                options={
                    "use_exposed_entities": False,
                    "include_entities": [e for e, _ in entities],
                    "analysis_interval": 60,
                    "window_length": 60,
                },
            )
            entry.add_to_hass(hass)
            assert await hass.config_entries.async_setup(entry.entry_id)
            await hass.async_block_till_done()
        await _fire(hass, entities, min(events, 2000))  # warm up
        rate = await _fire(hass, entities, events)
        buffered = 0
        if with_monitor:
            watcher = entry.runtime_data.coordinator.watcher
            buffered = watcher.events_seen
            assert await hass.config_entries.async_unload(entry.entry_id)
        await hass.async_stop(force=True)
        return rate, buffered


def main() -> None:
    """Print events/s with and without the monitor."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--entities", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rates: dict[str, list[float]] = {"bare": [], "listener": [], "monitor": []}
    seen = 0
    for _ in range(args.rounds):
        for mode, found in rates.items():
            rate, events_seen = asyncio.run(_run(args.events, args.entities, mode))
            found.append(rate)
            seen = events_seen or seen
    best = {mode: max(found) for mode, found in rates.items()}
    print(f"events per run: {args.events:,}, entities: {args.entities}, best of {args.rounds}")
    print(f"bare HA (no subscriber at all):   {best['bare']:>10,.0f} events/s")
    print(f"HA with one no-op subscriber:     {best['listener']:>10,.0f} events/s")
    print(
        f"HA with the anomaly monitor:      {best['monitor']:>10,.0f} events/s "
        f"(it saw {seen:,} events)"
    )
    for baseline in ("bare", "listener"):
        ratio = best["monitor"] / best[baseline]
        per_event = 1e6 * (1 / best["monitor"] - 1 / best[baseline])
        print(
            f"vs {baseline:<8}: ratio {ratio:.3f}; monitor adds {per_event:.1f} µs per event "
            f"= {per_event * 1e4 / 1e4:.1f} % of one core at 10k events/s"
        )


if __name__ == "__main__":
    main()
