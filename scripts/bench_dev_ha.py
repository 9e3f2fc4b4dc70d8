"""Dev-HA replay benchmark: a real ``hass -c CONFIG`` on loopback, with a homeowner in it.

Starts Home Assistant from the venv on 127.0.0.1 with this repository's integration,
onboards it over REST, creates a long-lived access token (as a developer would in the
profile page), gives it a homeowner setup (a monitor, a smoke detector, persons at home),
runs ``python -m benchmark_replay smartbench --ha-url ...`` on a seeded stratified
sample, then the in-process replay on the same samples, and prints:

- samples per second of the live replay (wall time of the replay loop, from summary.md);
- whether every verdict, window and predicted device set equals the in-process one;
- whether the homeowner's states and config entries are unchanged.

The HA is configured in another time zone and hemisphere than the replayed homes, to show
the replay's clock and seasons do not come from the live instance.

    .venv/bin/python scripts/bench_dev_ha.py --data /work/shared/datasets/smartbench \
        --limit 200 --seed 0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from pathlib import Path
import re
import resource
import subprocess
import sys
import tempfile
import time
from typing import Any

import aiohttp

REPO = Path(__file__).resolve().parent.parent
CLIENT_ID = "http://127.0.0.1/"
CONFIG = """\
homeassistant:
  name: Dev home
  latitude: -33.87
  longitude: 151.21
  elevation: 0
  unit_system: metric
  time_zone: Australia/Sydney
http:
  server_host: 127.0.0.1
  server_port: {port}
api:
config:
onboarding:
person:
logger:
  default: warning
"""


async def wait_until_up(url: str, process: subprocess.Popen[bytes], limit: float = 180) -> None:
    """Poll until HA answers (onboarding is served before any user exists)."""
    deadline = time.monotonic() + limit
    async with aiohttp.ClientSession() as http:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise SystemExit(f"hass exited with {process.returncode}")
            try:
                async with http.get(f"{url}/api/onboarding") as reply:
                    if reply.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.5)
    raise SystemExit(f"hass did not come up in {limit:.0f} s")


async def onboard_and_token(url: str) -> str:
    """Create the owner over REST and a long-lived access token over the WebSocket API."""
    async with aiohttp.ClientSession() as http:
        user = {
            "client_id": CLIENT_ID,
            "name": "Developer",
            "username": "dev",
            "password": "dev-password-123",
            "language": "en",
        }
        async with http.post(f"{url}/api/onboarding/users", json=user) as reply:
            reply.raise_for_status()
            code = (await reply.json())["auth_code"]
        form = {"grant_type": "authorization_code", "code": code, "client_id": CLIENT_ID}
        async with http.post(f"{url}/auth/token", data=form) as reply:
            reply.raise_for_status()
            access = (await reply.json())["access_token"]
        async with http.ws_connect(f"{url}/api/websocket") as ws:
            await ws.receive_json()  # auth_required
            await ws.send_json({"type": "auth", "access_token": access})
            assert (await ws.receive_json())["type"] == "auth_ok"
            await ws.send_json(
                {
                    "id": 1,
                    "type": "auth/long_lived_access_token",
                    "client_name": "benchmark_replay",
                    "lifespan": 30,
                }
            )
            answer = await ws.receive_json()
            return str(answer["result"])


async def homeowner(url: str, token: str) -> None:
    """A monitor (the default options: Assist-exposed entities), a smoke detector that
    the fixtures reuse by id, and persons at home."""
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        for entity_id, state, attributes in (
            ("person.alice", "home", {"friendly_name": "Alice"}),
            ("person.bob", "home", {"friendly_name": "Bob"}),
            (
                "binary_sensor.kitchen_smoke_detector",
                "off",
                {"device_class": "smoke", "friendly_name": "Kitchen Smoke Detector"},
            ),
            ("weather.home", "sunny", {"temperature": 24, "friendly_name": "Home"}),
        ):
            payload = {"state": state, "attributes": attributes}
            async with http.post(f"{url}/api/states/{entity_id}", json=payload) as reply:
                reply.raise_for_status()
        async with http.post(
            f"{url}/api/config/config_entries/flow", json={"handler": "anomaly_monitor"}
        ) as reply:
            flow = await reply.json()
        options = {"name": "Home"}  # the defaults a homeowner keeps
        async with http.post(
            f"{url}/api/config/config_entries/flow/{flow['flow_id']}", json=options
        ) as reply:
            created = await reply.json()
            if created.get("type") != "create_entry":
                raise SystemExit(f"the homeowner's monitor was not created: {created}")


async def home_view(url: str, token: str) -> dict[str, Any]:
    """States and entries as the REST API shows them."""
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.get(f"{url}/api/states") as reply:
            states = {s["entity_id"]: s for s in await reply.json()}
        async with http.get(f"{url}/api/config/config_entries/entry") as reply:
            entries = await reply.json()
    for state in states.values():
        state.pop("last_reported", None)  # sun and the like report on their own
    return {"states": states, "entries": entries}


def replay(args: argparse.Namespace, out: Path, *extra: str) -> str:
    command = [
        sys.executable, "-m", "benchmark_replay", "smartbench", "--data", str(args.data),
        "--limit", str(args.limit), "--seed", str(args.seed), "--out", str(out), "--fresh",
        "--no-plots", "--no-progress", *extra,
    ]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"replay failed ({done.returncode}): {done.stderr[-2000:]}")
    return done.stdout


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds() -> float:
    """User + system CPU time of this script's finished children (the replay command)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wall_time(summary: str) -> tuple[float, int]:
    """Seconds and samples of a run's replay loop, as summary.md states them."""
    wall = re.search(r"wall time\*\*: ([\d.]+) s for (\d+)", summary)
    if wall is None:
        raise SystemExit("no wall time in the summary")
    return float(wall[1]), int(wall[2])


def loop_cpu_seconds(summary: str) -> float:
    """CPU seconds the replay command spent in its replay loop (startup and loading aside)."""
    cpu = re.search(r"CPU time of this process\*\*: ([\d.]+) s", summary)
    if cpu is None:
        raise SystemExit("no CPU time in the summary")
    return float(cpu[1])


def predictions(folder: Path) -> dict[str, dict[str, Any]]:
    keep = ("verdict", "window", "predicted_devices", "error")
    lines = (folder / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    return {p["key"]: {k: p.get(k) for k in keep} for p in map(json.loads, lines)}


def rate(count: int, seconds: float) -> str:
    """Samples per second; summary.md rounds to 0.1 s, so a short run may read 0.0 s."""
    if seconds <= 0:
        return f"more than {count / 0.05:.0f} samples/s (under 0.05 s: use more samples)"
    return f"{count / seconds:.1f} samples/s"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=REPO / "tests" / "fixtures" / "smartbench")
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--port", type=int, default=18123)
    parser.add_argument(
        "--pythonpath",
        help="extra import path for hass, e.g. a folder made with `pip install --target DIR "
        "home-assistant-frontend==<HA's pin> mutagen` when the venv has no frontend",
    )
    parser.add_argument("--keep", type=Path, help="an empty folder for HA's config and outputs")
    args = parser.parse_args()
    url = f"http://127.0.0.1:{args.port}"
    with tempfile.TemporaryDirectory(prefix="dev-ha-") as tmp:
        config = args.keep or Path(tmp)
        config.mkdir(parents=True, exist_ok=True)
        (config / "configuration.yaml").write_text(CONFIG.format(port=args.port))
        (config / "custom_components").mkdir()
        (config / "custom_components" / "anomaly_monitor").symlink_to(
            REPO / "custom_components" / "anomaly_monitor"
        )
        hass = Path(sys.executable).with_name("hass")
        log = (config / "hass.log").open("wb")
        env = dict(os.environ)
        if args.pythonpath:
            env["PYTHONPATH"] = args.pythonpath
        process = subprocess.Popen(
            [str(hass), "-c", str(config), "--skip-pip"], stdout=log, stderr=log, env=env
        )
        try:
            started = time.monotonic()
            asyncio.run(wait_until_up(url, process))
            print(f"hass up in {time.monotonic() - started:.1f} s on {url}")
            token = asyncio.run(onboard_and_token(url))
            asyncio.run(homeowner(url, token))
            before = asyncio.run(home_view(url, token))
            live = config / "live"
            hass_cpu, client_cpu = cpu_seconds(process.pid), children_cpu_seconds()
            summary = replay(args, live, "--ha-url", url, "--token", token)
            hass_cpu = cpu_seconds(process.pid) - hass_cpu
            client_cpu = children_cpu_seconds() - client_cpu
            after = asyncio.run(home_view(url, token))
            reference = config / "in-process"
            reference_summary = replay(args, reference)
        finally:
            process.terminate()
            process.wait(timeout=60)
        seconds, count = wall_time(summary)
        in_process, _ = wall_time(reference_summary)
        live_p, reference_p = predictions(live), predictions(reference)
        differing = sorted(k for k in reference_p if live_p.get(k) != reference_p[k])
        print(f"live replay: {count} samples in {seconds:.2f} s = {rate(count, seconds)}")
        loop_cpu = loop_cpu_seconds(summary)
        print(
            f"CPU time of the live replay: hass {hass_cpu:.2f} s + client {client_cpu:.2f} s "
            f"= {1000 * (hass_cpu + client_cpu) / count:.1f} ms per sample; in the replay loop "
            f"(client without startup and loading): {1000 * (hass_cpu + loop_cpu) / count:.1f} "
            f"ms per sample (machine load average {os.getloadavg()[0]:.1f} on "
            f"{os.cpu_count()} cores)"
        )
        print(f"in-process, same samples: {in_process:.2f} s = {rate(count, in_process)}")
        print(
            f"verdicts equal to in-process: {len(reference_p) - len(differing)}/{len(reference_p)}"
        )
        for key in differing[:5]:
            print(f"  differs: {key}")
        print(f"home unchanged (states, entries): {before == after}")
        print(summary.split("## Per anomaly type")[0])


if __name__ == "__main__":
    main()
