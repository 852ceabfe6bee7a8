"""Random games as canonical records: ``pbem generate`` and the benchmarks' test sets.

Game ``i`` of seed ``S`` is played from its own random stream (seeded with the text
``pbem-generate/S/i``, which Python hashes the same way in every process), so a set
of N games is the first N of any larger set with the same seed, and one game can be
made again alone.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.notation.format import format_game
from pbem.notation.syntax import TurnText
from pbem.notation.write import game_text
from pbem.players.realm_coverage import Coverage, coverage_of
from pbem.players.registry import GeneratedGame, policy
from pbem.records.rulesets import differences, load_ruleset, preset_names
from pbem.rules.game import GameRuleset
from pbem.rules.registry import featured, game_of

#: ``--ruleset random``: a different random ruleset for every game
RANDOM = "random"


def game_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"pbem-generate/{seed}/{index}")


def generate_game(
    seed: int, index: int, ruleset: Any, *, max_turns: int | None = None
) -> GeneratedGame:
    """Game ``index`` of ``seed``, played by its game's policy; ``ruleset`` may be
    ``"random"`` (a random ruleset of the Featured Game)."""
    rng = game_rng(seed, index)
    if ruleset == RANDOM:
        player = policy(featured().name)
        rules = player.random_ruleset(rng)
    else:
        player = policy(game_of(ruleset).name)
        rules = ruleset
    return player.generate(rng, rules, max_turns=max_turns)


def ruleset_spec(ruleset: GameRuleset) -> str | dict[str, object]:
    """What the front matter says: the preset's name, or the options that differ (with
    the game, where it is not the Featured Game)."""
    if _presets().get(ruleset.name) == ruleset:
        return ruleset.name
    game = game_of(ruleset)
    named = {"game": game.name} if game is not featured() else {}
    return {**named, "name": ruleset.name, **differences(ruleset)}


@functools.lru_cache(maxsize=1)
def _presets() -> dict[str, GameRuleset]:
    return {name: load_ruleset(name) for name in preset_names()}


def record_text(played: GeneratedGame, seed: int, index: int) -> str:
    """The game in canonical notation, every special event written, with its front matter."""
    turns = [(side, TurnText(texts)) for side, texts in played.turns]
    result = played.final.result or "*"
    headers: dict[str, Any] = {
        "game": f"Random game {seed}-{index:05d}",  # as its file; "1-0" read as a result
        "ruleset": ruleset_spec(played.ruleset),
        "white": "Random White",
        "black": "Random Black",
        "source": f"pbem generate --seed {seed}",
        "result": result,
    }
    return format_game(game_text(turns, headers, result))


@dataclass(slots=True)
class Written:
    """What ``write_games`` did."""

    paths: list[Path] = field(default_factory=list)
    games: int = 0
    coverage: Coverage = field(default_factory=Coverage)
    #: games cut off (turn cap or dead end) instead of ending by the rules
    unfinished: int = 0
    #: dead-end games thrown away and played again
    discarded: int = 0


def target_paths(
    folder: Path, n: int, seed: int, prefix: str, one_file: bool
) -> list[Path]:
    if one_file:
        return [folder / f"{prefix}-{seed}.realm"]
    return [folder / f"{prefix}-{seed}-{i:05d}.realm" for i in range(n)]


def write_games(
    folder: Path,
    n: int,
    seed: int,
    ruleset: Any,
    *,
    prefix: str = "random",
    one_file: bool = False,
    force: bool = False,
    stats: bool = False,
) -> Written:
    """Write ``n`` games into ``folder`` (created if need be).

    Refuses (FileExistsError, before writing anything) to overwrite a record unless
    ``force``. ``stats`` gathers the coverage counts (it costs a little time).
    """
    paths = target_paths(folder, n, seed, prefix, one_file)
    if not force:
        for p in paths:
            if p.exists():
                raise FileExistsError(str(p))
    folder.mkdir(parents=True, exist_ok=True)
    done = Written()
    texts: list[str] = []
    for i, playout in enumerate(_games(n, seed, ruleset)):
        text = record_text(playout, seed, i)
        done.games += 1
        done.unfinished += playout.capped
        done.discarded += playout.discarded
        if stats and game_of(playout.ruleset) is featured():
            done.coverage.add(coverage_of(playout.playout))
        if one_file:
            texts.append(text)
        else:
            paths[i].write_text(text, encoding="utf-8")
            done.paths.append(paths[i])
    if one_file:
        paths[0].write_text("".join(texts), encoding="utf-8")
        done.paths.append(paths[0])
    return done


def _games(n: int, seed: int, ruleset: Any) -> Iterator[GeneratedGame]:
    for i in range(n):
        yield generate_game(seed, i, ruleset)
