#!/usr/bin/env bash
# Create (or refresh) the virtualenv of one Home Assistant target, with the test harness
# and the tools. Usage: setup_env.sh [oldest|newest]   (default: oldest)
#   oldest -> .venv         the oldest HA the integration claims (requirements_ha_oldest.txt)
#   newest -> .venv-newest  the newest HA the test harness supports (requirements_ha_newest.txt)
# Each requirements_ha_*.txt names its HA, harness and minimum Python ("# python >= X.Y.Z").
# Idempotent: re-running with unchanged requirements installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-oldest}
case "$target" in
  oldest) venv=.venv ;;
  newest) venv=.venv-newest ;;
  *)
    echo "setup_env.sh: unknown target '$target' (oldest or newest)" >&2
    exit 2
    ;;
esac
pins="requirements_ha_$target.txt"
min_python=$(sed -n 's/^# python >= //p' "$pins")
ha_version=$(sed -n 's/^homeassistant==//p' "$pins")
series=${min_python%.*}
# This machine's pip config lists local indexes that may be absent: hide those warnings.
quiet_pip() { { grep -v "WARNING: Location 'file://" || true; } >&2; }

python=$(bash scripts/ensure_python.sh "$min_python")

venv_ok() {
  "$venv/bin/python" - "$min_python" >/dev/null 2>&1 <<'PY'
import sys
want = tuple(int(part) for part in sys.argv[1].split("."))
sys.exit(0 if want <= sys.version_info[:3] and sys.version_info[:2] == want[:2] else 1)
PY
}
if [ ! -x "$venv/bin/python" ] || ! venv_ok; then
  rm -rf "$venv"
  "$python" -m venv --without-pip "$venv"
  # Debian's interpreters bring pip as a wheel beside them; others have ensurepip.
  bundled=$(ls "$(dirname "$python")"/../share/python-wheels/pip-*.whl 2>/dev/null | head -n 1 || true)
  if [ -n "$bundled" ]; then
    "$venv/bin/python" "$bundled/pip" install -q --no-index "$bundled" 2>&1 | quiet_pip
  else
    "$venv/bin/python" -m ensurepip -q --upgrade
  fi
fi

# llama-cpp-python is built once, portable, into our own wheel cache (see llama_wheel.sh);
# the same wheel serves every Python.
llama_version=$(sed -n 's/^llama-cpp-python==//p' requirements_test.txt)
llama_wheel=$(bash scripts/llama_wheel.sh "$venv/bin/python" "$llama_version")

stamp="$venv/.requirements.sha256"
wanted=$(cat requirements.txt requirements_test.txt "$pins" pyproject.toml scripts/setup_env.sh |
  cat - <(echo "$llama_wheel") | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
  exit 0
fi

"$venv/bin/python" -m pip install -q --upgrade pip 2>&1 | quiet_pip
# HA's own pins stop pip from backtracking for minutes.
constraints="$venv/ha_constraints-$ha_version.txt"
if [ ! -f "$constraints" ]; then
  tmp=$(mktemp -d)
  "$venv/bin/python" -m pip download -q --no-deps -d "$tmp" "homeassistant==$ha_version" 2>&1 | quiet_pip
  "$venv/bin/python" - "$tmp" "$constraints" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(f"{sys.argv[1]}/homeassistant-*.whl")[0]
with zipfile.ZipFile(wheel) as archive, open(sys.argv[2], "wb") as out:
    out.write(archive.read("homeassistant/package_constraints.txt"))
PY
  rm -rf "$tmp"
fi
# The wheel file given explicitly satisfies requirements_test.txt's llama-cpp-python pin, so
# no other build of it (say a -march=native one from pip's cache) is ever installed.
"$venv/bin/python" -m pip install -q -c "$constraints" -r "$pins" -r requirements.txt \
  -r requirements_test.txt "$llama_wheel" 2>&1 | quiet_pip
if [ "$(cat "$venv/.llama-wheel" 2>/dev/null)" != "$llama_wheel" ]; then
  # An earlier install of the same version came from elsewhere: replace it with ours.
  "$venv/bin/python" -m pip install -q --force-reinstall --no-deps "$llama_wheel" 2>&1 | quiet_pip
  echo "$llama_wheel" >"$venv/.llama-wheel"
fi
echo "$wanted" >"$stamp"
echo "$venv: Home Assistant $ha_version on Python $("$venv/bin/python" -c 'import platform; print(platform.python_version())') ($series series)" >&2
