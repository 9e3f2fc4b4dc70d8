#!/usr/bin/env bash
# Set up everything on a fresh machine, then lint, type-check and run the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_env.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/python -m pytest -p no:sugar -q "$@"
