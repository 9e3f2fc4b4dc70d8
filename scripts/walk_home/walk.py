"""Walk the integration in a real ``hass -c`` as a homeowner would (docs/walks.md).

    python scripts/walk_home/walk.py prepare DIR      # config + this checkout's integration
    python scripts/walk_home/walk.py start DIR        # hass -c DIR in the background (pid file)
    python scripts/walk_home/walk.py onboard DIR      # owner, non-admin 'kid', areas, trackers
    python scripts/walk_home/walk.py add DIR          # the integration with its defaults
    python scripts/walk_home/walk.py call DIR DOMAIN.SERVICE '{"entity_id": ...}' [--as kid]
    python scripts/walk_home/walk.py ws DIR '{"type": ...}' [--as kid]
    python scripts/walk_home/walk.py read DIR         # notifications, repairs, monitor entities
    python scripts/walk_home/walk.py login DIR        # fresh tokens (they last 30 min)
    python scripts/walk_home/walk.py stop DIR         # SIGTERM to the hass it started
    python scripts/walk_home/walk.py seed DIR [DAYS]  # HA stopped: DAYS of routine history

Loopback only (127.0.0.1, port $WALK_PORT or 18310); stops only the process it started.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
import shutil
import signal
import subprocess
import sys
from typing import Any

import aiohttp

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PORT = int(os.environ.get("WALK_PORT", "18310"))
BASE = f"http://127.0.0.1:{PORT}"
CLIENT = f"{BASE}/"
AREAS = {
    "Hall": ["binary_sensor.front_door", "binary_sensor.hall_motion", "lock.front_door_lock"],
    "Kitchen": ["binary_sensor.kitchen_smoke_detector"],
    "Bathroom": ["binary_sensor.bathroom_leak", "switch.bathroom_fan"],
    "Bedroom": ["binary_sensor.bedroom_window"],
    "Garage": ["sensor.freezer_plug_power"],
    "Lounge": ["sensor.lounge_temperature"],
}


def prepare(cfg: Path) -> None:
    cfg.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "configuration.yaml", cfg / "configuration.yaml")
    target = cfg / "custom_components" / "anomaly_monitor"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(
        REPO / "custom_components" / "anomaly_monitor",
        target,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    print(f"prepared {cfg}")


def start(cfg: Path) -> None:
    hass = Path(sys.executable).with_name("hass")
    log = (cfg / "walk.log").open("a")
    env = os.environ | {"WALK_PORT": str(PORT)}
    proc = subprocess.Popen(
        [str(hass), "-c", str(cfg)], stdout=log, stderr=subprocess.STDOUT, env=env
    )
    (cfg / "walk.pid").write_text(str(proc.pid))
    print(f"hass pid {proc.pid} on {BASE}; log {cfg / 'walk.log'}")


def stop(cfg: Path) -> None:
    pid = int((cfg / "walk.pid").read_text())
    os.kill(pid, signal.SIGTERM)
    print(f"SIGTERM {pid}")


async def _wait_up(session: aiohttp.ClientSession) -> None:
    for _ in range(240):
        try:
            async with session.get(f"{BASE}/api/onboarding") as resp:
                if resp.status in (200, 401, 404):
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.5)
    raise SystemExit("hass did not come up")


async def _token(session: aiohttp.ClientSession, code: str) -> str:
    data = {"grant_type": "authorization_code", "code": code, "client_id": CLIENT}
    async with session.post(f"{BASE}/auth/token", data=data) as resp:
        return (await resp.json())["access_token"]


async def _login(session: aiohttp.ClientSession, username: str, password: str) -> str:
    body = {"client_id": CLIENT, "handler": ["homeassistant", None], "redirect_uri": CLIENT}
    async with session.post(f"{BASE}/auth/login_flow", json=body) as resp:
        flow = await resp.json()
    body = {"username": username, "password": password, "client_id": CLIENT}
    async with session.post(f"{BASE}/auth/login_flow/{flow['flow_id']}", json=body) as resp:
        result = await resp.json()
    return await _token(session, result["result"])


class Ws:
    """One authenticated WebSocket connection."""

    def __init__(self, session: aiohttp.ClientSession, token: str) -> None:
        self._session, self._token, self._id = session, token, 0

    async def __aenter__(self) -> Ws:
        self._ws = await self._session.ws_connect(f"{BASE}/api/websocket")
        await self._ws.receive_json()
        await self._ws.send_json({"type": "auth", "access_token": self._token})
        await self._ws.receive_json()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._ws.close()

    async def call(self, message: dict[str, Any]) -> Any:
        self._id += 1
        await self._ws.send_json({"id": self._id} | message)
        while True:
            reply = await self._ws.receive_json()
            if reply.get("id") == self._id and reply.get("type") == "result":
                return reply["result"] if reply.get("success") else reply.get("error")


def _tokens(cfg: Path) -> dict[str, str]:
    return json.loads((cfg / "walk_tokens.json").read_text())


async def onboard(cfg: Path) -> None:
    async with aiohttp.ClientSession() as session:
        await _wait_up(session)
        body = {
            "client_id": CLIENT,
            "name": "Owner",
            "username": "owner",
            "password": "walk-owner-pass",
            "language": "en",
        }
        async with session.post(f"{BASE}/api/onboarding/users", json=body) as resp:
            owner = await _token(session, (await resp.json())["auth_code"])
        (cfg / "walk_tokens.json").write_text(json.dumps({"owner": owner}))
        headers = {"Authorization": f"Bearer {owner}"}
        # Not the core_config step: finishing it sets up google_translate, met.no, Radio
        # Browser and the shopping list, which reach for the internet (walk of session 32
        # removed them afterwards; a walk is loopback only). The frontend would ask for it
        # again; the walk reads HA over REST and WebSocket.
        for step, body in (
            ("analytics", {}),
            ("integration", {"client_id": CLIENT, "redirect_uri": CLIENT}),
        ):
            async with session.post(
                f"{BASE}/api/onboarding/{step}", json=body, headers=headers
            ) as resp:
                print("onboarding", step, resp.status)
        async with Ws(session, owner) as ws:
            user = await ws.call(
                {"type": "config/auth/create", "name": "Kid", "group_ids": ["system-users"]}
            )
            await ws.call(
                {
                    "type": "config/auth_provider/homeassistant/create",
                    "user_id": user["user"]["id"],
                    "username": "kid",
                    "password": "walk-kid-pass",
                }
            )
            known = {
                area["name"]: area["area_id"]
                for area in await ws.call({"type": "config/area_registry/list"})
            }
            for area, entities in AREAS.items():
                if area not in known:
                    made = await ws.call({"type": "config/area_registry/create", "name": area})
                    known[area] = made["area_id"]
                for entity_id in entities:
                    await ws.call(
                        {
                            "type": "config/entity_registry/update",
                            "entity_id": entity_id,
                            "area_id": known[area],
                        }
                    )
        kid = await _login(session, "kid", "walk-kid-pass")
        (cfg / "walk_tokens.json").write_text(json.dumps({"owner": owner, "kid": kid}))
        for dev in ("alice_phone", "bob_phone"):
            async with session.post(
                f"{BASE}/api/services/device_tracker/see",
                json={"dev_id": dev, "location_name": "home"},
                headers=headers,
            ) as resp:
                resp.raise_for_status()
    print("onboarded: owner, kid; areas set; Alice and Bob home")


async def add(cfg: Path) -> None:
    headers = {"Authorization": f"Bearer {_tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        url = f"{BASE}/api/config/config_entries/flow"
        async with session.post(url, json={"handler": "anomaly_monitor"}) as resp:
            step = await resp.json()
        while step.get("type") == "form":
            print("step", step.get("step_id"), "- defaults")
            async with session.post(f"{url}/{step['flow_id']}", json={}) as resp:
                step = await resp.json()
        print(json.dumps(step, indent=1)[:1500])


async def call(cfg: Path, service: str, data: str, who: str) -> None:
    headers = {"Authorization": f"Bearer {_tokens(cfg)[who]}"}
    domain, name = service.split(".", 1)
    async with aiohttp.ClientSession(headers=headers) as session:
        url = f"{BASE}/api/services/{domain}/{name}"
        if domain == "anomaly_monitor" and name != "remove_false_alarm":  # it returns none
            url += "?return_response"
        async with session.post(url, json=json.loads(data or "{}")) as resp:
            print(resp.status, (await resp.text())[:3000])


async def ws_call(cfg: Path, message: str, who: str) -> None:
    async with aiohttp.ClientSession() as session, Ws(session, _tokens(cfg)[who]) as ws:
        print(json.dumps(await ws.call(json.loads(message)), indent=1)[:6000])


async def read(cfg: Path) -> None:
    owner = _tokens(cfg)["owner"]
    async with aiohttp.ClientSession() as session, Ws(session, owner) as ws:
        notes = await ws.call({"type": "persistent_notification/get"})
        print("== notifications")
        for note in notes:
            when = note.get("created_at", "")[:19]
            print(f"- [{when}] {note.get('title')}\n  {note.get('message')}")
        print("== repairs")
        for issue in (await ws.call({"type": "repairs/list_issues"}))["issues"]:
            if issue["domain"] == "anomaly_monitor":
                words = issue.get("translation_placeholders")
                print(f"- {issue['issue_id']} {issue['severity']} {words}")
        print("== monitor entities")
        for state in await ws.call({"type": "get_states"}):
            if "anomaly_monitor" in state["entity_id"]:
                print(f"- {state['entity_id']}: {state['state']}")


async def login(cfg: Path) -> None:
    """Fresh tokens for owner and kid: HA's access tokens last 30 minutes."""
    async with aiohttp.ClientSession() as session:
        owner = await _login(session, "owner", "walk-owner-pass")
        kid = await _login(session, "kid", "walk-kid-pass")
    (cfg / "walk_tokens.json").write_text(json.dumps({"owner": owner, "kid": kid}))
    print("logged in: owner, kid")


def main(argv: list[str]) -> None:
    verb, cfg = argv[0], Path(argv[1]).resolve()
    who = "kid" if "--as" in argv and argv[argv.index("--as") + 1] == "kid" else "owner"
    rest = [a for a in argv[2:] if a not in ("--as", "kid", "owner")]
    if verb == "prepare":
        prepare(cfg)
    elif verb == "start":
        start(cfg)
    elif verb == "stop":
        stop(cfg)
    elif verb == "onboard":
        asyncio.run(onboard(cfg))
    elif verb == "add":
        asyncio.run(add(cfg))
    elif verb == "call":
        asyncio.run(call(cfg, rest[0], rest[1] if len(rest) > 1 else "{}", who))
    elif verb == "ws":
        asyncio.run(ws_call(cfg, rest[0], who))
    elif verb == "read":
        asyncio.run(read(cfg))
    elif verb == "login":
        asyncio.run(login(cfg))
    elif verb == "seed":
        from seed_history import seed  # a script beside this one

        zone = os.environ.get("WALK_TZ", "Europe/London")
        days = int(rest[0]) if rest else 12
        print("rows", seed(cfg / "home-assistant_v2.db", zone, days), "in", zone)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
