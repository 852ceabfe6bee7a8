#!/usr/bin/env bash
# The Debian packages pbem needs, installed with apt-get when run as root.
# Usage: scripts/setup-system.sh [test]
#   always: fonts-dejavu-core (the letters of the mailed PNG board, drawn by resvg) and
#           tzdata (the players' time zones, for zoneinfo)
#   test:   also chromium (the browser tests), dovecot-imapd and openssl (the IMAP tests),
#           nodejs and npm (npm installs axe-core, the accessibility check: scripts/test.sh),
#           postgresql (the tests start their own throw-away server as an unprivileged
#           user: tests/pgserver.py; the referee's tests run a second time on it)
# Without root (or apt-get) it only says what is missing: the tests that need it skip.
set -euo pipefail
missing=()
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
[ -e /usr/share/zoneinfo/Europe/Paris ] || missing+=(tzdata)
if [ "${1:-}" = test ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  [ -x /usr/sbin/dovecot ] && [ -x /usr/lib/dovecot/imap ] || missing+=(dovecot-imapd)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "note: not installed: ${missing[*]}; what needs them will not work (tests skip)" >&2
  fi
fi
