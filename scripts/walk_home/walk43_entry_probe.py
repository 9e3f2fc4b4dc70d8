"""walk43's E home offline (docs/walks.md, "Walk of main, session 43", item 2): the
recorder's rows through ``HomeBaselines`` and through the integration's own stored
baselines, a window of the last two hours, then ``entry_at_an_unused_hour``'s checks one
by one, the learning gate and the whole ``CombinedDetector``. In hass nothing was told;
here it is: the difference is in the window the integration builds.

    PYTHONPATH=. .venv/bin/python scripts/walk_home/walk43_entry_probe.py DIR 2026-12-05T22:33:14Z
"""

from datetime import UTC, datetime, timedelta
import json
from pathlib import Path
import sys
from zoneinfo import ZoneInfo

from recorded_rows import fed_ids, recorded_rows

from custom_components.anomaly_monitor.core import learning_gate as G
from custom_components.anomaly_monitor.core.baselines import (
    HomeBaselines,
    door_unentered as D,
    unused_hour_entry as U,
)
from custom_components.anomaly_monitor.core.baselines.area_unused import (
    SPREAD,
    days_unused,
    hours_near,
)
from custom_components.anomaly_monitor.core.baselines.inside_doors import (
    first_used_inside,
    inner_door,
    only_used_from_inside,
)
from custom_components.anomaly_monitor.core.baselines.outside_entries import nights_at
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Transition
from tests.core_factories import environment, window

CFG = Path(sys.argv[1])

Z = ZoneInfo("Asia/Dubai")
AREA = {
    "binary_sensor.back_door": "Kitchen",
    "binary_sensor.kitchen_motion": "Kitchen",
    "binary_sensor.fridge_door": "Kitchen",
    "binary_sensor.hall_motion": "Hall",
    "binary_sensor.front_door": "Hall",
    "lock.front_door_lock": "Hall",
    "binary_sensor.bedroom_motion": "Bedroom",
    "binary_sensor.bedroom_window": "Bedroom",
    "binary_sensor.wc_door": "WC",
}
CLS = {
    "binary_sensor.back_door": "door",
    "binary_sensor.front_door": "door",
    "binary_sensor.wc_door": "door",
    "binary_sensor.fridge_door": "opening",
    "binary_sensor.kitchen_motion": "motion",
    "binary_sensor.hall_motion": "motion",
    "binary_sensor.bedroom_motion": "motion",
    "binary_sensor.bedroom_window": "window",
}
rows = recorded_rows(CFG)
ids = fed_ids(rows)
infos = [EntityInfo(e, e, AREA.get(e), CLS.get(e)) for e in ids]
now = datetime.fromisoformat(sys.argv[2]) if len(sys.argv) > 2 else rows[-1][0]
b = HomeBaselines(Z)
b.describe(infos)
b.watching(ids, rows[0][0])
last = {}
for t, e, s in rows:
    if e in ids and t <= now:
        b.observe(t, e, s)
        last[e] = (s, t)
b.advance(now)
states = [
    EntityState(i, last[i.entity_id][0], last_changed=last[i.entity_id][1])
    for i in infos
    if i.entity_id in last
]
trans = [
    Transition(t, e, s) for t, e, s in rows if e in ids and now - timedelta(hours=2) <= t <= now
]
home = HomeView(window(states, environment(now.astimezone(Z), persons_home=2), trans))
print("occupancy", home.occupancy)
opened = max(t for t, e, s in rows if e == "binary_sensor.back_door" and s == "on" and t <= now)
print("opened", opened.astimezone(Z))
print(
    "quiet typical",
    b.quiet.typical(opened.astimezone(Z).hour, skip_day=opened.astimezone(Z).date().toordinal()),
)
print("days_unused", days_unused(home, b, "Kitchen", opened))
print(
    "hours",
    hours_near(opened, b),
    "rate",
    b.activity.rate_of_day("Kitchen", opened.astimezone(Z).hour, SPREAD),
)
print(
    "went_out_before",
    D.went_out_before(home, opened),
    "seen_inside",
    D.seen_inside(home, opened),
    "came_in",
    D.came_in(home, opened),
)
print(
    "out_at",
    b.lonely.entries.out_at(opened),
    "entered",
    b.lonely.entries.nights_entered("binary_sensor.back_door", opened, hours_near(opened, b)),
)
print("nights_unentered", D.nights_unentered(home, b, "binary_sensor.back_door", "Kitchen", opened))
print("presence_near", U._presence_near(home, opened))
print("findings", [f.reasoning for f in U.entry_at_an_unused_hour(home, b)])

print(
    "since",
    b.usual.since.get("binary_sensor.back_door"),
    "inner",
    inner_door(b, home, "binary_sensor.back_door"),
    "read_cold",
    b.inside.read_cold("binary_sensor.back_door"),
    "first_used_inside",
    first_used_inside(b, home, "binary_sensor.back_door"),
)
for f in U.entry_at_an_unused_hour(home, b):
    print("only_used_from_inside", only_used_from_inside(f, b, home))

stored_at = datetime.fromtimestamp(
    next((CFG / ".storage").glob("anomaly_monitor.*.baselines")).stat().st_mtime, UTC
)
raw = json.load(next((CFG / ".storage").glob("anomaly_monitor.*.baselines")).open())
data = raw.get("data", raw)
print(list(data.keys())[:10])
data = data.get("baselines", data)
rb = HomeBaselines.from_dict(data, Z)
rb.describe(infos)
for t, e, s in rows:
    if e in ids and stored_at < t <= now:
        rb.observe(t, e, s)
rb.advance(now)
print(
    "REAL: quiet",
    rb.quiet.typical(opened.astimezone(Z).hour, skip_day=opened.astimezone(Z).date().toordinal()),
    "days_unused",
    days_unused(home, rb, "Kitchen", opened),
    "rate",
    rb.activity.rate_of_day("Kitchen", opened.astimezone(Z).hour, SPREAD),
    "out_at",
    rb.lonely.entries.out_at(opened),
    "entered",
    rb.lonely.entries.nights_entered("binary_sensor.back_door", opened, hours_near(opened, rb)),
    "unentered",
    D.nights_unentered(home, rb, "binary_sensor.back_door", "Kitchen", opened),
    "used_inside",
    rb.inside.used_from_inside("binary_sensor.back_door"),
)

print(
    "uses",
    nights_at(rb.lonely.uses.get("binary_sensor.back_door", ()), opened, hours_near(opened, rb), Z),
)
print("REAL findings", [f.reasoning[:80] for f in U.entry_at_an_unused_hour(home, rb)])

fs = list(U.entry_at_an_unused_hour(home, rb))
print(
    "not_held",
    [f.rule for f in G.not_held(fs, rb, now, True)],
    "learning",
    rb.learning("binary_sensor.back_door", now),
    rb.learning_until("binary_sensor.back_door"),
)

w = window(states, environment(now.astimezone(Z), persons_home=2), trans)
print("combined", [f.rule for f in CombinedDetector(baselines=lambda: rb).findings(w)])
