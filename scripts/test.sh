#!/usr/bin/env bash
# Quick start, part 2: set up with the test extras, run ruff, mypy and the whole test suite.
# The archive's and the mail's browser tests drive Debian's chromium; the IMAP tests start
# their own dovecot (dovecot-imapd) with certificates made by openssl; the PNG board needs
# fonts-dejavu-core and time zones tzdata. As root, scripts/setup-system.sh installs them.
# axe-core (the accessibility check of every page and mail) comes from the npm registry, at
# the version tests/axe/package-lock.json pins.
# The referee's tests (tests/referee, tests/hostile) run a second time with every referee
# home's store on PostgreSQL (PBEM_TEST_STORE=postgresql: a throw-away server of Debian's
# postgresql package, tests/pgserver.py; the psycopg driver is the postgresql extra).
# The notation's tests run a second time with the lowest lark pyproject.toml allows (the
# suite itself runs with the newest), in .venv-lark-low: pbem uses lark's public API only.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh test
bash scripts/setup-env.sh test,postgresql
if command -v npm >/dev/null 2>&1; then
  [ -f tests/axe/node_modules/axe-core/axe.min.js ] ||
    npm ci --prefix tests/axe --no-audit --no-fund --loglevel=error >/dev/null
else
  echo "note: npm is not installed: the axe-core checks will not run (tests skip)" >&2
fi
.venv/bin/ruff check pbem tests bench
.venv/bin/python -m mypy pbem   # configured in pyproject.toml: strict on rules, notation, records
# first the notation's tests on the lowest lark, then the whole suite (its count is the last line)
lowest=$(grep -o '"lark>=[0-9.]*' pyproject.toml | cut -d= -f2)
PY=${PYTHON:-python3}
[ -x .venv-lark-low/bin/python ] || "$PY" -m venv .venv-lark-low
.venv-lark-low/bin/python -m pip install --quiet --disable-pip-version-check \
  "lark==$lowest" "pyyaml>=6" "pytest>=8" "hypothesis>=6.100"
PYTHONPATH=. .venv-lark-low/bin/python -m pytest -q -p no:cacheprovider tests/notation
# the referee's tests on PostgreSQL: binding, as the whole suite is. Skipped with a note only
# where setup-system.sh could not install postgresql (not root, or no apt-get); as root with
# apt-get (as on CI) it was installed above, so a missing initdb there is a failure, not a skip
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  PBEM_TEST_STORE=postgresql .venv/bin/python -m pytest -q -p no:cacheprovider \
    tests/referee tests/hostile
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "error: postgresql should have been installed (scripts/setup-system.sh) but is not" >&2
  exit 1
else
  echo "note: postgresql is not installed: the referee's tests ran on SQLite only" >&2
fi
.venv/bin/python -m pytest -q "$@"
