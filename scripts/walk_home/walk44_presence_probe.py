"""Walk 44's offline check: the recorder's person rows through ``HomeBaselines``, and
whether the baselines know the home empty (``away.empty_since``) at a moment.

    PYTHONPATH=. python scripts/walk_home/walk44_presence_probe.py DIR 2026-12-06T00:38:01+00:00
    PYTHONPATH=. python scripts/walk_home/walk44_presence_probe.py DIR WHEN person.owner

With onboarding's owner (no tracker, ``unknown`` for ever) counted, ``occupied`` stays None
and ``empty_since`` is never set; left out (the last argument), the home is empty from
the moment the last phone left.
"""

from datetime import datetime
from pathlib import Path
import sys
from zoneinfo import ZoneInfo

from recorded_rows import fed_ids, recorded_rows

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo

CFG = Path(sys.argv[1])
Z = ZoneInfo("Etc/GMT-2")
now = datetime.fromisoformat(sys.argv[2])
skip = set(sys.argv[3:])
rows = recorded_rows(CFG)
ids = fed_ids(rows, skip)
print([i for i in ids if i.startswith("person")])
b = HomeBaselines(Z)
b.describe([EntityInfo(e, e, None, None) for e in ids])
b.watching(ids, rows[0][0])
for t, e, s in rows:
    if e in ids and t <= now:
        b.observe(t, e, s)
b.advance(now)
print("empty_since", b.away.empty_since, "occupied", b.quiet.occupied, b.quiet.presence)
