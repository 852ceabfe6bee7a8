#!/usr/bin/env bash
# Quick start, part 2: set up with the test extras and run the whole test suite.
# The archive's browser test drives Debian's chromium; as root, this installs it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "note: chromium is not installed; the browser test will be skipped" >&2
  fi
fi
bash scripts/setup-env.sh test
.venv/bin/ruff check pbem tests bench
.venv/bin/python -m pytest -q "$@"
