#!/usr/bin/env python3
"""compare_sets.py BASE NEW "SETS": per set, overall figures and every incident / false
alarm / re-raise that differs between two measurement folders
(BASE/SET/report.json vs NEW/SET/report.json)."""

import json
import pathlib
import sys

base, new = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
sets = (
    sys.argv[3].split()
    if len(sys.argv) > 3
    else sorted(p.parent.name for p in new.glob("*/report.json"))
)
KEYS = ("recall", "false_alarms", "re_raises", "feedback_honoured", "safety_recall")


def load(folder, s):
    p = folder / s / "report.json"
    return json.loads(p.read_text()) if p.exists() else None


for s in sets:
    a, b = load(base, s), load(new, s)
    if a is None or b is None:
        print(f"{s}: missing ({'base' if a is None else 'new'})")
        continue
    ta, tb = a["overall"], b["overall"]
    figs = "  ".join(f"{k} {ta.get(k)}->{tb.get(k)}" for k in KEYS if ta.get(k) != tb.get(k))
    print(f"== {s}: {figs or 'same figures'}")
    sa = {x["name"]: x for x in a["scenarios"]}
    for sc in b["scenarios"]:
        o = sa.get(sc["name"])
        if o is None:
            print(f"  {sc['name']}: new scenario")
            continue
        ia = {r["id"]: r for r in o["incident_rows"]}
        for r in sc["incident_rows"]:
            q = ia.get(r["id"], {})
            ta_ = q.get("told", [{}])[0].get("time") if q.get("notified") else None
            tb_ = r.get("told", [{}])[0].get("time") if r.get("notified") else None
            if ta_ != tb_ or q.get("notifications") != r.get("notifications"):
                name, told = sc["name"][:28], r["id"][:44]
                was, now = q.get("notifications"), r.get("notifications")
                print(f"  {name:28} {told:44} {ta_} x{was} -> {tb_} x{now}")
        fa = {(f["time"], f["rule"]) for f in o["false_alarm_rows"]}
        fb = {(f["time"], f["rule"]) for f in sc["false_alarm_rows"]}
        for t, rule in sorted(fa - fb):
            print(f"  {sc['name'][:28]:28} FA gone {t} {rule}")
        for t, rule in sorted(fb - fa):
            print(f"  {sc['name'][:28]:28} FA NEW  {t} {rule}")
