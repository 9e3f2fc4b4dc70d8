"""walk31.py's home, for session 32's restart checks (walk32).

The same devices and fortnight as walk31.py (a kettle with a routine of three boils, a
morning nobody got up), with three changes for what a restart does:

- the persons and trackers **are recorded** (walk31.py left them out: the ``see``
  trackers read ``not_home`` for ~15 s at every start, walk28, and the history read at
  start took it for everybody leaving and coming back; ``core/baselines/start_blinks``
  is for that now);
- the recorder writes as HA's default does (every 5 s, not every second), so the rows a
  start writes are still in its queue when the monitor reads its history
  (``recorder/history_learning.async_written``);
- the front lock's helper has no ``initial``: it comes back as it was after a restart
  (with ``initial: true`` every restart locked the walk's lock: the lead's re-walk of
  session 31 saw an unlocked door read "Locked" after one; the kit's, not the monitor's).

    python scripts/walk_home/walk32.py prepare DIR   # config + this checkout's integration
    python scripts/walk_home/walk32.py VERB DIR ...  # any other verb of walk31.py/walk.py

Run with ``WALK_TZ`` a zone where it is mid-morning and ``WALK_PORT`` a port of one's own.
"""

from __future__ import annotations

from pathlib import Path
import sys

import walk
import walk31


def prepare(cfg: Path) -> None:
    walk31.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    text = text.replace("  exclude:\n    domains: [person, device_tracker]\n", "", 1)
    text = text.replace("recorder:\n  commit_interval: 1\n", "recorder:\n", 1)
    text = text.replace(
        "front_lock_locked: {name: Front lock raw, initial: !env_var WALK_LOCK_INITIAL true}",
        "front_lock_locked: {name: Front lock raw}",
        1,
    )
    path.write_text(text)


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(Path(sys.argv[2]).resolve())
    else:
        walk.main(sys.argv[1:])
