"""walk44.py's home for session 45's walk (walk45; docs/walks.md, "Walk of main, session 45").

walk44's ``late`` home and fortnight (walk44.py imported, not copied: **Alice never goes
out**, **Bob** out 08:32-17:29 every day, one evening out learned, out again tonight at
19:45), run in the small hours. Walked: Bob home (``home``), then both out together past
the hall's motion sensor, the front door unlocked, opened and left open (``leave``), and a
restart minutes after they left (``stop`` / ``start``; the phones kept away by walk41's
``input_select`` places).

Verbs (besides walk44's):

    python scripts/walk_home/walk45.py watch DIR    # every 20 s: what the homeowner reads
                                                    # (notifications, repairs, the event
                                                    # entity), printed when it changes
    python scripts/walk_home/walk45.py back DIR     # both home again (the door shut first)
    python scripts/walk_home/walk45.py code DIR     # (hass stopped) this checkout's
                                                    # integration copied in again

Run with ``WALK_TZ`` a zone in the small hours (walk 45: ``Etc/GMT+1``) and ``WALK_PORT``
a port of one's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
import shutil
import sys
import time

import aiohttp
import walk44

walk = walk44.walk43.walk


async def _read(cfg: Path) -> dict[str, str]:
    """What a homeowner reads now, keyed by where it is read."""
    seen: dict[str, str] = {}
    owner = walk._tokens(cfg)["owner"]
    async with aiohttp.ClientSession() as session, walk.Ws(session, owner) as ws:
        for note in await ws.call({"type": "persistent_notification/get"}):
            words = f"{note.get('title')}\n  {note.get('message')}"
            seen[f"note {note['notification_id']}"] = words
        for issue in (await ws.call({"type": "repairs/list_issues"}))["issues"]:
            if issue["domain"] == "anomaly_monitor":
                words = json.dumps(issue.get("translation_placeholders"), ensure_ascii=False)
                seen[f"repair {issue['issue_id']}"] = f"{issue['severity']} {words}"
        for state in await ws.call({"type": "get_states"}):
            if state["entity_id"] == "event.anomaly_monitor_anomaly":
                attrs = state["attributes"]
                seen["event"] = f"{state['state']} {json.dumps(attrs, ensure_ascii=False)[:700]}"
    return seen


async def watch(cfg: Path) -> None:
    """Print what changed in what the homeowner reads, every 20 s, until stopped."""
    said: dict[str, str] = {}
    while True:
        try:
            now = await _read(cfg)
        except (aiohttp.ClientError, OSError, KeyError, TypeError):
            await asyncio.sleep(20)
            with contextlib.suppress(aiohttp.ClientError, OSError, KeyError, TypeError):
                await walk.login(cfg)  # tokens last 30 min; hass may be restarting
            continue
        stamp = time.strftime("%H:%M:%S UTC", time.gmtime())
        for key in sorted(set(now) | set(said)):
            if now.get(key) != said.get(key):
                print(f"[{stamp}] {key}: {now.get(key, '(gone)')}", flush=True)
        said = now
        await asyncio.sleep(20)


async def back(cfg: Path) -> None:
    """Both home again (the door shut first if it stood open): their phones, the key, the
    front door, the hall; the door locked behind them."""
    await walk44.shut(cfg)
    await walk44.walk43._where(cfg, "alice", "home")
    await walk44.home(cfg)


def code(cfg: Path) -> None:
    """This checkout's integration copied in again (hass stopped): the mends walked in the
    same home, its recorder and stored baselines kept."""
    target = cfg / "custom_components" / "anomaly_monitor"
    shutil.rmtree(target)
    source = walk.REPO / "custom_components" / "anomaly_monitor"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    print(f"copied {source} to {target}")


if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "watch":
        asyncio.run(watch(where))
    elif verb == "prepare":
        walk44.walk43.prepare(where)
    elif verb == "code":
        code(where)
    elif verb == "gone":
        asyncio.run(walk44.walk43.gone(where))
    elif verb in ("home", "leave", "shut"):
        asyncio.run(getattr(walk44, verb)(where))
    elif verb == "back":
        asyncio.run(back(where))
    elif verb == "cycle":
        asyncio.run(walk44.walk43.walk42.walk41.cycle(where))
    else:  # prepare, seed (walk44's fortnight, imported above), start, stop, read, ...
        walk.main(sys.argv[1:])
        if verb == "seed":
            walk44.walk43.walk42.walk41.fill(where)
            walk44.walk43.unseen(where)
