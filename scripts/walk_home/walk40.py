"""walk39.py's home again, for session 40's walk (walk40; docs/walks.md, "Walk of main,
session 40"): the same kit, its switches named ``WALK40_*`` (``WALK40_PAST``,
``WALK40_DOOR``, ``WALK40_UP``: set-ups B, C and D as walk39.py describes them).

Runs walk39.py with the switches passed on, rather than a copy of it.
"""

import os
from pathlib import Path
import runpy

for _switch in ("PAST", "DOOR", "UP"):
    if (_value := os.environ.get(f"WALK40_{_switch}")) is not None:
        os.environ[f"WALK39_{_switch}"] = _value

runpy.run_path(str(Path(__file__).with_name("walk39.py")), run_name="__main__")
