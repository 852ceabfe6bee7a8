#!/usr/bin/env bash
# Quick start, part 2: set up with the test extras and run the whole test suite.
# The archive's browser test drives Debian's chromium; the IMAP tests start their own
# dovecot (dovecot-imapd) with certificates made by openssl. As root, this installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -x /usr/sbin/dovecot ] && [ -x /usr/lib/dovecot/imap ] || missing+=(dovecot-imapd)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "note: not installed: ${missing[*]}; the tests that need them will be skipped" >&2
  fi
fi
bash scripts/setup-env.sh test
.venv/bin/ruff check pbem tests bench
.venv/bin/python -m pytest -q "$@"
