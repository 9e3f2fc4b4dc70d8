"""Walk of session 35 (options): the phoneless count in a real hass's options flow over REST.

    WALK_PORT=18390 python scripts/walk_home/walk.py prepare|start|onboard|add /tmp/walk35p
    WALK_PORT=18390 python scripts/walk_home/walk35_options.py /tmp/walk35p

Sets, changes and empties "People who live here without a tracked phone" over
/api/config/config_entries/options/flow, watching the entry reload (config_entries/subscribe)
and reading diagnostics after each save (docs/walks.md, "Walk of session 35 (options)").
"""

import asyncio
import json
import os
from pathlib import Path
import sys

import aiohttp

CFG = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/walk35p")
BASE = f"http://127.0.0.1:{os.environ.get('WALK_PORT', '18390')}"
TOKEN = json.loads((CFG / "walk_tokens.json").read_text())["owner"]
H = {"Authorization": f"Bearer {TOKEN}"}
NAME = "Hortensia"


async def entry_id(s):
    async with s.get(f"{BASE}/api/config/config_entries/entry?domain=anomaly_monitor") as r:
        entries = await r.json()
    return entries[0]["entry_id"], entries[0]["state"]


async def diag(s, eid):
    async with s.get(f"{BASE}/api/diagnostics/config_entry/{eid}") as r:
        return (await r.json())["data"]


async def options(s, eid, household, show=False):
    url = f"{BASE}/api/config/config_entries/options/flow"
    async with s.post(url, json={"handler": eid}) as r:
        step = await r.json()
    if show:
        house = next(f for f in step["data_schema"] if f["name"] == "household")
        print("form household section:", json.dumps(house["schema"], indent=None))
    async with s.post(f"{url}/{step['flow_id']}", json={"household": household}) as r:
        step = await r.json()
    while step.get("type") == "form":  # later steps (none expected)
        print("  next step", step.get("step_id"))
        async with s.post(f"{url}/{step['flow_id']}", json={}) as r:
            step = await r.json()
    print("  flow ->", step.get("type"), r.status)


async def ws_translations(s):
    async with s.ws_connect(f"{BASE}/api/websocket") as ws:
        await ws.receive_json()
        await ws.send_json({"type": "auth", "access_token": TOKEN})
        await ws.receive_json()
        await ws.send_json(
            {
                "id": 1,
                "type": "frontend/get_translations",
                "language": "en",
                "category": "options",
                "integration": ["anomaly_monitor"],
            }
        )
        reply = await ws.receive_json()
        res = reply["result"]["resources"]
        return {k: v for k, v in res.items() if "residents_without_phone" in k}


async def step(s, eid, label, household, show=False):
    print(f"\n== {label}: household={household}")
    async with s.ws_connect(f"{BASE}/api/websocket") as ws:
        await ws.receive_json()
        await ws.send_json({"type": "auth", "access_token": TOKEN})
        await ws.receive_json()
        await ws.send_json({"id": 1, "type": "config_entries/subscribe"})
        await ws.receive_json()
        await ws.receive_json()  # the current entries
        await options(s, eid, household, show)
        seen = []
        try:
            while True:
                msg = await asyncio.wait_for(ws.receive_json(), 5)
                for change in msg.get("event", []):
                    if change["entry"]["domain"] == "anomaly_monitor":
                        seen.append(change["entry"]["state"])
        except TimeoutError:
            pass
        print("  entry states while saving:", " -> ".join(seen))
    _, state = await entry_id(s)
    d = await diag(s, eid)
    print(
        "  entry state:",
        state,
        "| options.residents_without_phone:",
        d["entry"]["options"].get("residents_without_phone", "<unset>"),
        "| profile in diagnostics:",
        d["entry"]["options"].get("household_profile"),
    )
    print("  diagnostics household:", d.get("household"))
    print("  name in diagnostics:", NAME in json.dumps(d))
    return d


async def main():
    async with aiohttp.ClientSession(headers=H) as s:
        eid, state = await entry_id(s)
        print("entry", eid, state)
        d = await diag(s, eid)
        print(
            "defaults: household",
            d.get("household"),
            "option:",
            d["entry"]["options"].get("residents_without_phone", "<unset>"),
        )
        print("translations:", json.dumps(await ws_translations(s), indent=1))
        await step(
            s,
            eid,
            "1. count 1, no profile",
            {"household_profile": "", "residents_without_phone": 1},
            show=True,
        )
        await step(
            s,
            eid,
            "2. profile names a phoneless grandmother, count 0",
            {
                "household_profile": f"Our grandmother {NAME} lives with us; she has no phone.",
                "residents_without_phone": 0,
            },
        )
        await step(
            s,
            eid,
            "3. count emptied, profile kept",
            {"household_profile": f"Our grandmother {NAME} lives with us; she has no phone."},
        )
        url = f"{BASE}/api/config/config_entries/options/flow"
        async with s.post(url, json={"handler": eid}) as r:
            st = await r.json()
        async with s.post(
            f"{url}/{st['flow_id']}", json={"household": {"residents_without_phone": 25}}
        ) as r:
            print("\n== 4. count 25:", r.status, (await r.text())[:300])
        async with s.get(f"{BASE}/api/states") as r:
            print("name in any state:", NAME in await r.text())


asyncio.run(main())
