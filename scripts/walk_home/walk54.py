"""walk53.py's home for session 54's walk (walk54; docs/walks.md, "Walk of main, session 54").

walk53's home (walk50's Edith without a phone in the profile, Rex, the smoke detector that
can go offline; the garage booster pump every three hours at :05) whose **front door lock
can report ``jammed``** (``jam`` / ``unjam``: a helper the template lock's state reads
before locked/unlocked; HA's lock state ``jammed``).

    WALK_TZ=Etc/GMT-3 WALK_PORT=18754 python scripts/walk_home/walk54.py prepare DIR
    python scripts/walk_home/walk54.py seed DIR 14          # HA stopped
    python scripts/walk_home/walk54.py out|jam|unjam|smoke|nosmoke DIR
    python scripts/walk_home/walk54.py logbook DIR 2026-12-07T05:00:00Z  # the monitor's lines
    python scripts/walk_home/walk54.py VERB DIR ...         # a verb of walk53/walk50/walk
"""

from __future__ import annotations

import asyncio
from pathlib import Path
import sys

import aiohttp
import walk50
import walk53

HELPERS = """
  front_lock_jammed: {name: Front lock jammed raw}
"""
LOCK_STATE = (
    "        state: \"{{ 'locked' if is_state('input_boolean.front_lock_locked', 'on') "
    "else 'unlocked' }}\"\n"
)
JAMMABLE = (
    "        state: \"{{ 'jammed' if is_state('input_boolean.front_lock_jammed', 'on') else "
    "('locked' if is_state('input_boolean.front_lock_locked', 'on') else 'unlocked') }}\"\n"
)


def prepare(cfg: Path) -> None:
    walk53.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    assert LOCK_STATE in text
    text = text.replace(LOCK_STATE, JAMMABLE, 1)
    text = text.replace("input_boolean:", "input_boolean:" + HELPERS, 1)
    path.write_text(text)


async def out(cfg: Path) -> None:
    """Alice and Bob out as every morning: the hall, the lock unlocked, the door opened and
    shut, the lock locked; their phones away."""
    await walk50._steps(
        cfg,
        [
            ("hall_motion", True, 10),
            ("front_lock_locked", False, 5),
            ("front_door", True, 20),
            ("front_door", False, 10),
            ("front_lock_locked", True, 5),
            ("hall_motion", False, 10),
        ],
    )
    await walk50._where(cfg, "alice", "not_home")
    await walk50._where(cfg, "bob", "not_home")


async def logbook(cfg: Path, since: str) -> None:
    """The logbook's lines of the monitor since ``since`` (ISO, UTC): its described events
    and ``logbook.log`` lines (the entity filter leaves the events out: they name no
    entity in their data)."""
    headers = {"Authorization": f"Bearer {walk53.walk._tokens(cfg)['owner']}"}
    url = f"{walk53.walk.BASE}/api/logbook/{since}"
    async with aiohttp.ClientSession(headers=headers) as session, session.get(url) as resp:
        for line in await resp.json():
            if line.get("domain") == "anomaly_monitor":
                print(line.get("when", "")[:19], "|", line.get("message"))


SWITCHES = {
    "jam": [("front_lock_jammed", True, 0)],
    "unjam": [("front_lock_jammed", False, 0)],
    "smoke": [("kitchen_smoke", True, 0)],
    "nosmoke": [("kitchen_smoke", False, 0)],
}

if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(where)
    elif verb in SWITCHES:
        asyncio.run(walk50._steps(where, SWITCHES[verb]))
    elif verb == "logbook":
        asyncio.run(logbook(where, sys.argv[3]))
    elif verb == "out":
        asyncio.run(out(where))
    elif verb in walk53.SWITCHES:
        asyncio.run(walk50._steps(where, walk53.SWITCHES[verb]))
    elif verb == "events":
        asyncio.run(walk53.events(where))
    elif verb == "fix":
        asyncio.run(walk53.fix(where, sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None))
    elif verb == "away":
        asyncio.run(walk50._where(where, "alice", "not_home"))
        asyncio.run(walk50._where(where, "bob", "not_home"))
    elif verb == "phoneshome":
        asyncio.run(walk50._where(where, "alice", "home"))
        asyncio.run(walk50._where(where, "bob", "home"))
    elif verb in walk50.VERBS:
        asyncio.run(getattr(walk50, verb)(where))
    elif verb in walk50.SWITCHES:
        asyncio.run(walk50._steps(where, walk50.SWITCHES[verb]))
    else:
        walk53.walk.main(sys.argv[1:])
