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

# llama-cpp-python is built once, portable, into our own wheel cache (see llama_wheel.sh).
llama_version=$(sed -n 's/^llama-cpp-python==//p' requirements_test.txt)
llama_wheel=$(bash scripts/llama_wheel.sh "$VENV/bin/python" "$llama_version")

stamp="$VENV/.requirements.sha256"
wanted=$(cat requirements.txt requirements_test.txt pyproject.toml scripts/setup_env.sh |
  cat - <(echo "$llama_wheel") | sha256sum | cut -d' ' -f1)
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
# The wheel file given explicitly satisfies requirements_test.txt's llama-cpp-python pin, so
# no other build of it (say a -march=native one from pip's cache) is ever installed.
"$VENV/bin/python" -m pip install -q -c "$constraints" -r requirements.txt -r requirements_test.txt \
  "$llama_wheel" 2>&1 | { grep -v "WARNING: Location 'file://" || true; }
if [ "$(cat "$VENV/.llama-wheel" 2>/dev/null)" != "$llama_wheel" ]; then
  # An earlier install of the same version came from elsewhere: replace it with ours.
  "$VENV/bin/python" -m pip install -q --force-reinstall --no-deps "$llama_wheel" 2>&1 |
    { grep -v "WARNING: Location 'file://" || true; }
  echo "$llama_wheel" >"$VENV/.llama-wheel"
fi
echo "$wanted" >"$stamp"
