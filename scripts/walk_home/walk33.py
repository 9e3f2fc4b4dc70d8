"""walk32.py's home with a leak sensor by the water pump, for session 33's walk (walk33).

walk32.py's home and fortnight (walk31's kettle plug with its three boils a day, the
water pump in the Utility room at 600 W for 2 min twice a day, nobody up this morning),
with a **Utility leak** sensor beside the pump (no history: it never went off). What the
walk does with it (docs/walks.md, "Walk of session 33"): the pump runs on and its coupling
leaks; the kettle is left on, then everybody leaves.

    python scripts/walk_home/walk33.py prepare DIR   # walk32's config + the leak sensor
    python scripts/walk_home/walk33.py VERB DIR ...  # any other verb of walk.py

Onboarding no longer finishes HA's core_config step (``walk.onboard``): no met.no, Radio
Browser, Google Translate or shopping list is set up. Run with ``WALK_TZ`` a zone where
it is mid-morning and ``WALK_PORT`` a port of one's own.
"""

from __future__ import annotations

from pathlib import Path
import sys

import seed_history as sh
import walk
import walk32

LEAK = "binary_sensor.utility_leak"
sh.ATTRIBUTES[LEAK] = {"device_class": "moisture", "friendly_name": "Utility leak"}
walk.AREAS["Utility"].append(LEAK)
HELPER = """
  utility_leak: {name: Utility leak raw}
"""
SENSOR = """
      - name: Utility leak
        unique_id: walk_utility_leak
        device_class: moisture
        state: "{{ is_state('input_boolean.utility_leak', 'on') }}"
"""


def prepare(cfg: Path) -> None:
    walk32.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    text = text.replace("input_boolean:\n", "input_boolean:" + HELPER, 1)
    text = text.replace("  - binary_sensor:\n", "  - binary_sensor:" + SENSOR, 1)
    path.write_text(text)


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(Path(sys.argv[2]).resolve())
    else:
        walk.main(sys.argv[1:])
