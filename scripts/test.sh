#!/usr/bin/env bash
# Set up everything on a fresh machine, lint and type-check once, then run the whole test
# suite on each Home Assistant target (docs/compatibility.md): "oldest" (.venv, the oldest
# HA the integration claims) and "newest" (.venv-newest, the newest the harness supports).
# ANOMALY_MONITOR_TEST_TARGETS picks them (default: both, "oldest newest"; "oldest" alone
# for a quicker run). Arguments go to every pytest run; PYTEST_WORKERS sets the xdist
# workers (default 2). The exit status is non-zero if any target failed.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${ANOMALY_MONITOR_TEST_TARGETS:-oldest newest}
bash scripts/setup_env.sh oldest # ruff and mypy live there
for target in $targets; do
  [ "$target" = oldest ] || bash scripts/setup_env.sh "$target"
done
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
status=0
for target in $targets; do
  venv=.venv
  [ "$target" = oldest ] || venv=.venv-$target
  echo "== $("$venv/bin/python" -c 'import platform
from homeassistant.const import __version__
print(f"Home Assistant {__version__}, Python {platform.python_version()}")') =="
  "$venv/bin/python" -m pytest -p no:sugar -q -n "${PYTEST_WORKERS:-2}" "$@" || status=$?
done
exit "$status"
