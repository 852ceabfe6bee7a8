#!/usr/bin/env bash
# Quick start, part 1: set up, validate every bundled game, show the sample game's final board.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh || exit 2
.venv/bin/pbem validate games
status=$?
echo
echo "== The article's sample game, after its last turn (pbem replay games/sample-game-2002.realm)"
.venv/bin/pbem replay games/sample-game-2002.realm || status=$?
exit $status
