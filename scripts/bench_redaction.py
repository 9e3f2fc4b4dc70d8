"""How long the redactor takes on what it scrubs: a verdict's text, a model reply, and
replies far larger or more hostile than any model should send.

    .venv/bin/python scripts/bench_redaction.py

Replies up to INLINE_SCRUB_LIMIT characters are scrubbed in the event loop; longer ones in
the executor (redaction.RedactingBackend). Prints the best of five runs per input.
"""

from __future__ import annotations

import json
from pathlib import Path
import sys
import time

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from custom_components.anomaly_monitor.redaction import INLINE_SCRUB_LIMIT, Redactor

PROFILE = (
    "Two adults; Zoë works night shifts at Saint Mary's hospital and sleeps until noon. "
    "The cat Biscuit stays in the garage. Nobody is home on weekday afternoons."
)
REDACTOR = Redactor.from_config(
    {
        "api_key": "sk-live-0123456789",
        "base_url": "http://bob:secret-pass@10.0.0.5:8080/v1",
        "notify_targets": ["notify.mobile_app_janes_phone"],
        "household_profile": PROFILE,
    }
)
VERDICT = json.dumps(
    {
        "label": "anomaly",
        "evidence": ["binary_sensor.kitchen_smoke"],
        "reasoning": f"Smoke in the kitchen at night. {PROFILE}",
        "recommendation": "Check the kitchen now.",
    }
)
INPUTS = {
    "verdict reply (echoing the profile)": VERDICT,
    f"reply at the inline limit ({INLINE_SCRUB_LIMIT} chars)": (VERDICT * 20)[:INLINE_SCRUB_LIMIT],
    "1 MB of ordinary text": ("motion in the hallway while the door is locked " * 22000)[
        :1_000_000
    ],
    "1 MB of profile words in a loop": ("works night shifts at the hospital " * 29000)[:1_000_000],
    "1 MB of escapes": ("\\n%20&#39;" * 100_000)[:1_000_000],
}


def main() -> None:
    for name, text in INPUTS.items():
        best = min(_timed(text) for _ in range(5))
        print(f"{name:45s} {len(text):>9,} chars  {best * 1000:9.2f} ms")


def _timed(text: str) -> float:
    start = time.perf_counter()
    REDACTOR.text(text)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
