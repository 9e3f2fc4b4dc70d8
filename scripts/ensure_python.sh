#!/usr/bin/env bash
# Print the path of a Python 3.13.x (>= 3.13.2) interpreter, building one if none exists.
# HA 2026.2.3 (our test target) needs Python >= 3.13.2 and Debian 12 ships none,
# so a fresh machine builds 3.13.5 from Debian trixie's source tarball (~2-3 min).
set -euo pipefail

PY_VERSION=3.13.5
PY_SHA256=93e583f243454e6e9e4588ca2c2662206ad961659863277afcdb96801647d640
PREFIX=${ANOMALY_MONITOR_PYTHON_PREFIX:-$HOME/.cache/anomaly-monitor/python-$PY_VERSION}

suitable() {
  "$1" -c 'import sys, ssl, sqlite3, ctypes; sys.exit(0 if (3, 13, 2) <= sys.version_info[:3] < (3, 14) else 1)' \
    >/dev/null 2>&1
}

for candidate in "$PREFIX/bin/python3" python3.13 /root/.pyenv/versions/3.13.*/bin/python3 \
  /usr/local/bin/python3.13 /usr/bin/python3.13 python3; do
  path=$(command -v "$candidate" 2>/dev/null || true)
  if [ -n "$path" ] && suitable "$path"; then
    echo "$path"
    exit 0
  fi
done

echo "No Python >= 3.13.2 found; building $PY_VERSION into $PREFIX" >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache="$work/cache"
mkdir -p "$cache" "$work/apt/lists/partial" "$work/apt/cache/archives/partial"
echo "deb-src http://deb.debian.org/debian trixie main" >"$work/src.list"
apt_opts=(-o "Dir::Etc::SourceList=$work/src.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache")
if ! dpkg -s libssl-dev libsqlite3-dev libffi-dev zlib1g-dev libbz2-dev liblzma-dev libreadline-dev >/dev/null 2>&1; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq build-essential libssl-dev libsqlite3-dev \
    libffi-dev zlib1g-dev libbz2-dev liblzma-dev libreadline-dev uuid-dev >&2
fi
(cd "$work" && apt-get "${apt_opts[@]}" update -qq >&2 &&
  apt-get "${apt_opts[@]}" source --download-only "python3.13/trixie" >&2)
tarball=$(ls "$work"/python3.13_"$PY_VERSION"*.orig.tar.xz | head -n 1)
echo "$PY_SHA256  $tarball" | sha256sum -c - >&2
cp "$tarball" "$cache/Python-$PY_VERSION.tar.xz"
PYTHON_BUILD_CACHE_PATH="$cache" MAKE_OPTS="-j$(nproc)" \
  /root/.pyenv/plugins/python-build/bin/python-build "$PY_VERSION" "$PREFIX" >&2
suitable "$PREFIX/bin/python3"
echo "$PREFIX/bin/python3"
