#!/usr/bin/env bash
# scripts/measure_sets.sh OUT "SETS" [REPO]: every home set (and the dev set under real ids, SmartBench
# direct) into OUT/{SET}/report.json, then OUT/summary.txt: one line per set and its false alarms by rule.
# SETS: words among scenarios blind blind2 ... (default: all); also "realids" (the dev homes under real
# integration ids), "realids:SET" (any set under them) and "smartbench".
set -u
out=$(realpath -m "$1"); sets=${2:-"scenarios blind blind2 blind3 blind4 blind5 blind6 blind7 blind8 blind9 blind10 blind11 blind12 blind13 blind14 realids smartbench"}; repo=${3:-$(pwd)}
mkdir -p "$out"; cd "$repo"
py=.venv/bin/python
for s in $sets; do
  case $s in
    realids) $py -m benchmark_replay home --scenario benchmark_replay/home/scenarios --real-ids names --workers 2 --out "$out/realids" > "$out/realids.log" 2>&1 ;;
    realids:*) $py -m benchmark_replay home --scenario "benchmark_replay/home/${s#realids:}" --real-ids names --workers 2 --out "$out/realids-${s#realids:}" > "$out/realids-${s#realids:}.log" 2>&1 ;;
    smartbench) { $py scripts/eval_direct.py --detector combined > "$out/smartbench.txt" 2>&1; } ;;
    *) $py -m benchmark_replay home --scenario benchmark_replay/home/$s --workers 2 --out "$out/$s" > "$out/$s.log" 2>&1 ;;
  esac
done
$py - "$out" <<'PY' > "$out/summary.txt"
import json, sys, pathlib, collections
out = pathlib.Path(sys.argv[1])
for rep in sorted(out.glob("*/report.json")):
    d = json.loads(rep.read_text()); t = d["overall"]
    rules = collections.Counter()
    for s in d["scenarios"]:
        for fa in s.get("false_alarm_rows", s.get("false_alarms_list", [])) or []:
            if isinstance(fa, dict): rules[str(fa.get("rule"))] += 1
    print(f"{rep.parent.name:10} recall {t.get('recall')} safety {t.get('safety_recall')} FA {t.get('false_alarms')} FA/wk {t.get('false_alarms_per_week')} rr {t.get('re_raises')} esc {t.get('escalations')} fb {t.get('feedback_honoured')} J {t.get('evidence_jaccard')} cpu {t.get('cpu_s')}")
    if rules: print("   ", dict(rules.most_common(8)))
sb = out / "smartbench.txt"
if sb.exists(): print(sb.read_text()[-1500:])
PY
cat "$out/summary.txt"
