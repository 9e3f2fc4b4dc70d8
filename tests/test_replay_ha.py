"""The replay through a real hass running the integration agrees with the direct path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aiohttp import web
from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant

from benchmark_replay.direct import window_for
from benchmark_replay.ha_runner import InProcessReplay
from benchmark_replay.home_scene import scene_for
from benchmark_replay.replay import predict
from benchmark_replay.runners import DirectRunner
from benchmark_replay.smartbench_loader import load_smartbench
from custom_components.anomaly_monitor.core.llm.explanations import (
    MAX_EXPLANATIONS,
    SYSTEM as EXPLAIN_SYSTEM,
)

FIXTURES = Path(__file__).parent / "fixtures" / "smartbench"


async def test_fixtures_replay_through_home_assistant(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Same windows and verdicts in HA as in the direct path; nothing leaks into HA."""
    await hass.config.async_set_time_zone("UTC")
    records = load_smartbench(FIXTURES).records
    direct = DirectRunner({"detector": "rules"})
    await direct.async_start()
    replay = InProcessReplay({"detector": "rules"}, hass=hass, frozen=freezer)
    await replay.async_start()
    try:
        for record in records:
            scene = scene_for(record.sample)
            outcome = await replay.async_replay(scene)
            ha = predict(outcome.response, scene)
            expected = predict(await direct.async_run(scene), scene)
            key = record.answer.key
            assert ha["window"]["entities"] == expected["window"]["entities"], key
            assert ha["window"]["transitions"] == expected["window"]["transitions"], key
            assert ha["window"]["tokens"] == expected["window"]["tokens"], key
            assert ha["window"]["end"] == scene.clock.isoformat(), key
            assert ha["verdict"]["label"] == expected["verdict"]["label"], key
            assert ha["predicted_devices"] == expected["predicted_devices"], key
            # The answers never reach Home Assistant.
            raw = record.path.read_text()
            for state in hass.states.async_all():
                shown = f"{state.state} {dict(state.attributes)}"
                assert record.answer.reasoning not in shown
                assert "Counterfactual" not in shown
            assert raw  # the file itself still holds them, for scoring only
    finally:
        await replay.async_stop()


async def test_snapshot_gets_areas_clock_and_persons(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Registry areas reach the window; the clock is the sample's; persons count occupancy."""
    await hass.config.async_set_time_zone("UTC")
    record = next(
        r for r in load_smartbench(FIXTURES, ["ci"]).records if r.answer.key == "ci/anomaly_fx01"
    )
    scene = scene_for(record.sample)
    replay = InProcessReplay({"detector": "rules"}, hass=hass, frozen=freezer)
    await replay.async_start()
    try:
        outcome = await replay.async_replay(scene)
        verdict = outcome.response["verdict"]
        assert verdict["label"] == "anomaly"
        assert "binary_sensor.kitchen_smoke_detector" in verdict["evidence"]
        entry = hass.config_entries.async_entries("anomaly_monitor")[0]
        window = entry.runtime_data.coordinator.build_window()
        smoke = window.by_id()["binary_sensor.kitchen_smoke_detector"]
        assert smoke.info.area == "Kitchen"
        assert smoke.info.device_class == "smoke"
        assert (window.environment.local_time.hour, window.environment.local_time.minute) == (
            19,
            42,
        )
        assert window.environment.persons_home == 2
        direct_window, _ = window_for(record.sample)
        assert window.environment.weather == direct_window.environment.weather == "rainy"
    finally:
        await replay.async_stop()


async def test_hybrid_run_records_the_models_own_verdict(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, socket_enabled: None
) -> None:
    """A hybrid replay keeps the LLM's verdict beside the merged one (the LLM-only view)."""
    requests: list[dict[str, Any]] = []

    async def chat(request: web.Request) -> web.Response:
        requests.append(await request.json())
        content = json.dumps(
            {
                "label": "normal",
                "evidence": [],
                "anomaly_type": "none",
                "severity": "none",
                "reasoning": "Looks fine.",
                "recommendation": "",
            }
        )
        return web.json_response({"choices": [{"message": {"content": content}}]})

    app = web.Application()
    app.router.add_post("/v1/chat/completions", chat)
    runner = web.AppRunner(app, shutdown_timeout=0.1, handler_cancellation=True)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    await hass.config.async_set_time_zone("UTC")
    record = next(
        r for r in load_smartbench(FIXTURES, ["ci"]).records if r.answer.key == "ci/anomaly_fx01"
    )
    scene = scene_for(record.sample)
    options = {"detector": "hybrid", "backend": "openai", "base_url": url, "model": "m"}
    replay = InProcessReplay(options, hass=hass, frozen=freezer)
    await replay.async_start()
    try:
        outcome = await replay.async_replay(scene)
    finally:
        await replay.async_stop()
        await runner.cleanup()
    # One verdict asked of the model; the rest are explanations of the findings (a JSON
    # reply is not one: the rules' words stay), at most MAX_EXPLANATIONS of them.
    asked = [r for r in requests if r["messages"][0]["content"] != EXPLAIN_SYSTEM]
    assert len(asked) == 1
    assert len(requests) - len(asked) <= MAX_EXPLANATIONS
    prediction = predict(outcome.response, scene)
    # The smoke finding is critical, so the hybrid keeps it although the model said normal.
    assert prediction["verdict"]["label"] == "anomaly"
    assert prediction["predicted_devices"] == ["Kitchen Smoke Detector"]
    assert prediction["model_verdict"]["label"] == "normal"
    assert prediction["model_verdict"]["reasoning"] == "Looks fine."
    assert prediction["model_predicted_devices"] == []
