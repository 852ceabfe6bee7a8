#!/usr/bin/env bash
# Quick start, part 2: set up with the test extras and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh test
.venv/bin/ruff check pbem tests bench
.venv/bin/python -m pytest -q "$@"
