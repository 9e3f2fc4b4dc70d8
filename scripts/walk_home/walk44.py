"""walk43.py's ``late`` home for session 44's walk (walk44; docs/walks.md, "session 44").

walk43's home and fortnight (walk43.py imported, not copied; ``WALK43=late``: **Alice never
goes out**, **Bob** out 08:32-17:29 every day by the front door), run in the small hours
(00:30-03:00 local) with two evenings of Bob's added:

- one **evening out learned**: six days ago out at 20:10 by the front door, back at 00:55
  the next night (the latest he was ever back at night; one such outing is no habit of
  its own, so ``usual_return`` knows none like tonight's);
- **tonight**: back at 17:29 as every day, out again at 19:45 (the front door unlocked,
  opened, locked behind him) and not back. His phone's place ``unknown`` (walk43's
  ``dark``) is the phone gone dark.

Verbs (besides walk43's and walk42's):

    python scripts/walk_home/walk44.py prepare|seed DIR ...   # as walk43.py's (late)
    python scripts/walk_home/walk44.py dark DIR    # Bob's phone stops reporting
    python scripts/walk_home/walk44.py home DIR    # Bob home: phone, key, door, hall
    python scripts/walk_home/walk44.py leave DIR   # the hall, the lock unlocked, the front door
                                                   # opened and left open; then both phones away
    python scripts/walk_home/walk44.py shut DIR    # the front door shut and locked (nobody in)
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
import os
from pathlib import Path
import sys

os.environ["WALK43"] = "late"

import seed_history as sh
import walk43

LEARNED_OUT, LEARNED_BACK = (20, 10), (0, 55)  # six days ago, back the next night
TONIGHT_OUT = (19, 45)
_lived = sh._day


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    """walk43's late day; Bob's evening out learned six days ago, and tonight's."""
    rows = _lived(d, tonight_locked=tonight_locked)
    ago = (datetime.now(d.tzinfo).date() - d.date()).days
    if ago == 6:
        rows += walk43._front_door_use(d, *LEARNED_OUT, out=True)
        rows += [(d.replace(hour=20, minute=12), who, "not_home") for who in walk43.BOB]
        back = d.replace(hour=LEARNED_BACK[0], minute=LEARNED_BACK[1]) + timedelta(days=1)
        rows += [(back, who, "home") for who in walk43.BOB]
        rows += walk43._front_door_use(back, 0, 56, out=False)
        rows.append((back + timedelta(minutes=3), walk43.LOCK, "locked"))
    elif ago == 1:
        rows += walk43._front_door_use(d, *TONIGHT_OUT, out=True)
        rows += [(d.replace(hour=19, minute=47), who, "not_home") for who in walk43.BOB]
        # The evening lock (22:45) is his doing on other days; tonight Alice's, as ever.
    return rows


sh._day = day


async def home(cfg: Path) -> None:
    """Bob home: his phone, the key, the front door, the hall; the door locked behind."""
    await walk43._where(cfg, "bob", "home")
    await walk43.walk42._steps(
        cfg,
        [
            ("front_lock_locked", False, 10),
            ("front_door", True, 10),
            ("front_door", False, 5),
            ("hall_motion", True, 30),
            ("hall_motion", False, 30),
            ("front_lock_locked", True, 0),
        ],
    )


async def leave(cfg: Path) -> None:
    """Both out together, the last ones out: the hall, the lock unlocked, the front door
    opened while their phones are still home; the phones leave the home zone 20 s later,
    the door left open and unlocked behind them."""
    await walk43.walk42._steps(
        cfg,
        [
            ("hall_motion", True, 10),
            ("front_lock_locked", False, 5),
            ("front_door", True, 5),
            ("hall_motion", False, 15),
        ],
    )
    await walk43._where(cfg, "alice", "not_home")
    await walk43._where(cfg, "bob", "not_home")


async def shut(cfg: Path) -> None:
    await walk43.walk42._steps(cfg, [("front_door", False, 10), ("front_lock_locked", True, 0)])


if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb in ("home", "leave", "shut"):
        asyncio.run(globals()[verb](where))
    elif verb == "prepare":
        walk43.prepare(where)
    elif verb == "dark":  # Bob's phone stops reporting
        asyncio.run(walk43._where(where, "bob", "unknown"))
    elif verb == "gone":
        asyncio.run(walk43.gone(where))
    elif verb == "cycle":
        asyncio.run(walk43.walk42.walk41.cycle(where))
    elif verb == "events":
        asyncio.run(walk43.walk42.walk41.events(where))
    elif verb in ("options", "diag"):
        asyncio.run(getattr(walk43.walk42.walk41.walk39, verb)(where))
    else:
        walk43.walk.main(sys.argv[1:])
        if verb == "seed":
            walk43.walk42.walk41.fill(where)
            walk43.unseen(where)
