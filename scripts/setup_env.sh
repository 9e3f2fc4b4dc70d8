#!/usr/bin/env bash
# Create (or refresh) .venv with Home Assistant 2026.2.3, the test harness and the tools.
# Idempotent: re-running with unchanged requirements installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

HA_VERSION=2026.2.3
VENV=.venv
python=$(bash scripts/ensure_python.sh)

if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import sys; sys.exit(0 if (3,13,2) <= sys.version_info[:3] < (3,14) else 1)'; then
  rm -rf "$VENV"
  "$python" -m venv "$VENV"
fi

stamp="$VENV/.requirements.sha256"
wanted=$(cat requirements.txt requirements_test.txt pyproject.toml | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
  exit 0
fi

"$VENV/bin/python" -m pip install -q --upgrade pip
# HA's own pins stop pip from backtracking for minutes.
constraints="$VENV/ha_constraints.txt"
if [ ! -f "$constraints" ]; then
  tmp=$(mktemp -d)
  "$VENV/bin/python" -m pip download -q --no-deps -d "$tmp" "homeassistant==$HA_VERSION"
  "$VENV/bin/python" - "$tmp" "$constraints" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(f"{sys.argv[1]}/homeassistant-*.whl")[0]
with zipfile.ZipFile(wheel) as archive, open(sys.argv[2], "wb") as out:
    out.write(archive.read("homeassistant/package_constraints.txt"))
PY
  rm -rf "$tmp"
fi
# This machine's pip config lists local indexes that may be absent: hide those warnings.
"$VENV/bin/python" -m pip install -q -c "$constraints" -r requirements.txt -r requirements_test.txt 2>&1 |
  { grep -v "WARNING: Location 'file://" || true; }
echo "$wanted" >"$stamp"
