#!/usr/bin/env bash
# Make (or reuse) the project's virtual environment in .venv and install pbem into it.
# Usage: scripts/setup-env.sh [EXTRAS]   e.g. "test"
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
spec="."
[ -n "${1:-}" ] && spec=".[${1}]"
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
