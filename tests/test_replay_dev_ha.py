"""Dev-HA mode against a real hass whose REST API is served on loopback."""

from __future__ import annotations

from pathlib import Path

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from benchmark_replay.home_scene import scene_for
from benchmark_replay.remote_ha import RemoteHAError, RemoteHARunner
from benchmark_replay.replay import predict
from benchmark_replay.smartbench_loader import load_smartbench
from custom_components.anomaly_monitor.const import CONF_USE_EXPOSED, DOMAIN

FIXTURES = Path(__file__).parent / "fixtures" / "smartbench"


@pytest.fixture
async def served_hass(
    hass: HomeAssistant, socket_enabled: None, unused_tcp_port: int
) -> HomeAssistant:
    """The test hass with http, api and config served on 127.0.0.1."""
    await hass.config.async_set_time_zone("UTC")
    http = {"server_host": "127.0.0.1", "server_port": unused_tcp_port}
    assert await async_setup_component(hass, "http", {"http": http})
    assert await async_setup_component(hass, "api", {})
    assert await async_setup_component(hass, "config", {})
    await hass.http.start()
    yield hass
    await hass.http.stop()


async def test_dev_ha_mode_scores_like_the_replay(
    served_hass: HomeAssistant, hass_access_token: str, unused_tcp_port: int
) -> None:
    """Fake entities go in over REST, the options flow points the monitor at them,
    analyze answers with the verdict; evidence maps back to device names."""
    hass = served_hass
    entry = MockConfigEntry(domain=DOMAIN, title="Dev home", options={CONF_USE_EXPOSED: False})
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()

    records = {r.answer.key: r for r in load_smartbench(FIXTURES).records}
    url = f"http://127.0.0.1:{unused_tcp_port}"
    runner = RemoteHARunner(url=url, token=hass_access_token)
    await runner.async_start()
    try:
        assert runner.entry_id == entry.entry_id
        smoke = scene_for(records["ci/anomaly_fx01"].sample)
        result = predict(await runner.async_run(smoke), smoke)
        assert result["verdict"]["label"] == "anomaly"
        assert "Kitchen Smoke Detector" in result["predicted_devices"]
        assert "binary_sensor.kitchen_smoke_detector" in entry.options["include_entities"]
        assert hass.states.get("weather.home").state == "rainy"

        calm = scene_for(records["ci/normal_fx01"].sample)
        assert predict(await runner.async_run(calm), calm)["verdict"]["label"] == "normal"

        trace = scene_for(records["cd-tdcs/TDCS_FX_LEAK_anomaly"].sample)
        window = (await runner.async_run(trace))["window"]
        assert window["transitions"] > 10
        assert hass.states.get("binary_sensor.ground_leak_sensor").state == "on"
    finally:
        await runner.async_stop()
    # The fake entities are gone again.
    assert hass.states.get("binary_sensor.ground_leak_sensor") is None


async def test_dev_ha_mode_rejects_a_bad_token(
    served_hass: HomeAssistant, unused_tcp_port: int
) -> None:
    """A wrong token is a clear error, not a silent empty score."""
    runner = RemoteHARunner(url=f"http://127.0.0.1:{unused_tcp_port}", token="wrong")
    with pytest.raises(RemoteHAError, match="401"):
        await runner.async_start()
    await runner.async_stop()
