#!/usr/bin/env bash
# Quick start, part 1: set up, validate every bundled game, show the sample game's final board,
# then run the main job: a referee that plays a few turns of the sample game by mail.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh || exit 2
bash scripts/setup-env.sh || exit 2
.venv/bin/pbem validate games
status=$?
echo
echo "== The article's sample game, after its last turn (pbem replay games/sample-game-2002.realm)"
.venv/bin/pbem replay games/sample-game-2002.realm || status=$?

echo
echo "== The referee: a throwaway home in build/demo-home, two players, replies by mail"
export PBEM_HOME=build/demo-home
rm -rf "$PBEM_HOME"
.venv/bin/pbem init --address referee@realm.example || exit 3
cat >> "$PBEM_HOME/config.yaml" <<'YAML'
site:                 # the live site of the referee's games, rewritten after each turn
  path: site
  title: Demo club
YAML
game=$(.venv/bin/pbem new --white alice@example.org --black bob@example.org --name "Demo" \
  --white-name "Alice Archer") || exit 3
echo "game $game created; invitations are in $PBEM_HOME/outbox/new"
key() { .venv/bin/python - "$PBEM_HOME/pbem.sqlite" "$game" "$1" <<'PY'
import sqlite3, sys
db, game, side = sys.argv[1:]
print(sqlite3.connect(db).execute(
    "SELECT token FROM players WHERE game_id = ? AND side = ?", (game, side)).fetchone()[0])
PY
}
reply() {  # reply FROM SIDE N BODY: a player's reply, carrying his key in the reply address
  printf 'From: %s\nTo: referee+g%s-%s-%s@realm.example\nSubject: Re: [realm g%s-%s-%s] move\nMessage-ID: <demo-%s@example.org>\n\n%s\n\n> (the referee'"'"'s mail, quoted)\n' \
    "$1" "$game" "$2" "$(key "$2")" "$game" "$2" "$(key "$2")" "$3" "$4" \
    | .venv/bin/pbem mail
}
reply alice@example.org w 1 "Bh11"
reply bob@example.org b 2 "Bh2"
reply alice@example.org w 3 "2.Be8"
reply bob@example.org b 4 "Hi Alice, my Base:
2...Be5"
echo "-- a refused turn (a Base must go on a Center):"
reply alice@example.org w 5 "Bh10"
echo
echo "== The outbox ($PBEM_HOME/outbox/new), oldest first:"
for f in $(ls -tr "$PBEM_HOME"/outbox/new/); do  # files are named by Message-ID: sort by time
  f="$PBEM_HOME/outbox/new/$f"
  grep -m1 '^To:' "$f" | tr '\n' ' '; grep -m1 '^Subject:' "$f"
done
echo
echo "== pbem show $game"
.venv/bin/pbem show "$game" || status=$?
echo "== pbem show $game --log"
.venv/bin/pbem show "$game" --log || status=$?
echo
echo "== The game's live page: $PBEM_HOME/site/games/game-$game.html (index: $PBEM_HOME/site/index.html)"
echo "== pbem export $game (a .realm record; no address in it)"
.venv/bin/pbem export "$game" || status=$?
echo
echo "== A tournament: a 4-player round robin (pbem tournament new | add | start | adjudicate | show)"
.venv/bin/pbem tournament new "Demo Cup" --format round-robin --clock none || status=$?
for p in Carol Dave Erin Frank; do
  .venv/bin/pbem tournament add "Demo Cup" "${p,,}@example.org" --name "$p" >/dev/null || status=$?
done
.venv/bin/pbem tournament start "Demo Cup" || status=$?
.venv/bin/pbem tournament adjudicate "Demo Cup" $((game + 1)) 1-0 || status=$?   # two results,
.venv/bin/pbem tournament adjudicate "Demo Cup" $((game + 2)) draw || status=$?  # as if by mail
.venv/bin/pbem tournament show "Demo Cup" || status=$?
echo "== Its page: $PBEM_HOME/site/events/event-demo-cup.html"
exit $status
