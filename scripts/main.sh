#!/usr/bin/env bash
# Set up everything on a fresh machine, then run the main job: replay SmartBench-format
# samples through a real in-process Home Assistant running the integration and print the
# scores. With no arguments it replays the bundled fixtures with the rule-based detector
# (no server needed); any arguments go to `python -m benchmark_replay`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_env.sh
if [ "$#" -eq 0 ]; then
  set -- smartbench --data tests/fixtures/smartbench --out results/demo
fi
exec .venv/bin/python -m benchmark_replay "$@"
