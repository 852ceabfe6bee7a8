#!/usr/bin/env bash
# Quick start, part 2: set up with the test extras, run ruff, mypy and the whole test suite.
# The archive's and the mail's browser tests drive Debian's chromium; the IMAP tests start
# their own dovecot (dovecot-imapd) with certificates made by openssl; the PNG board needs
# fonts-dejavu-core and time zones tzdata. As root, scripts/setup-system.sh installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh test
bash scripts/setup-env.sh test
.venv/bin/ruff check pbem tests bench
.venv/bin/python -m mypy pbem   # configured in pyproject.toml: strict on rules, notation, records
.venv/bin/python -m pytest -q "$@"
