#!/usr/bin/env bash
# Print the path of a portable llama-cpp-python wheel, building it once if needed.
# Usage: llama_wheel.sh PYTHON VERSION
#
# llama-cpp-python is source-only on PyPI. A default build uses -march=native, and pip's
# shared wheel cache then hands that wheel to any later install, including one on a machine
# whose CPU lacks those instructions (it dies with SIGILL). So we build with
# GGML_NATIVE=OFF (SSE4.2/AVX/AVX2/FMA/F16C baseline, ~25 % slower prompt processing), never
# read or write pip's cache, and keep the wheel in a cache of our own keyed by the
# version and build flags. The wheel loads its libraries with ctypes and is tagged
# py3-none-linux_x86_64, so one build serves every Python version.
set -euo pipefail

python=$1
version=$2
flags="-DGGML_NATIVE=OFF"
key=$(printf '%s %s %s' "$version" "$flags" "$(uname -m)" | sha256sum | cut -c1-12)
dir=${ANOMALY_MONITOR_WHEEL_CACHE:-$HOME/.cache/anomaly-monitor/wheels}/llama-cpp-python-$version-$key

wheel=$(ls "$dir"/llama_cpp_python-"$version"-*.whl 2>/dev/null | head -n 1 || true)
if [ -z "$wheel" ]; then
  echo "Building llama-cpp-python $version ($flags), once for every Python (~5-10 min)" >&2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  CMAKE_ARGS="$flags" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    "$python" -m pip wheel -q --no-cache-dir --no-deps --no-binary llama-cpp-python \
    -w "$tmp" "llama-cpp-python==$version" 2>&1 | { grep -v "WARNING: Location 'file://" || true; } >&2
  built=$(ls "$tmp"/llama_cpp_python-"$version"-*.whl)
  mkdir -p "$dir"
  mv "$built" "$dir/"
  wheel="$dir/$(basename "$built")"
fi
echo "$wheel"
