"""Swiss pairings by the FIDE Dutch system, through py4swiss (tested by its authors to give
bbpPairings' pairings, bbpPairings being the FIDE-endorsed reference).

The event's history is handed to py4swiss as the TRF(x) records it reads (built in memory,
no file): each player's starting number (seeded by rating), his results round by round
and who is out of the round. What comes back is the next round's pairs, colours included;
the player left over gets the pairing-allocated bye (one point, as FIDE scores it).
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.errors import PbemError


class PairingError(PbemError):
    """No pairing is possible (every remaining pair has met, say)."""

    code = "tournament.pairing"


@dataclass(frozen=True, slots=True)
class Played:
    """One round of a player's history, from his side."""

    #: the opponent's starting number; None: a bye or out of the round
    opponent: int | None
    #: 'w' or 'b' for a game
    colour: str | None
    #: 1, 0.5 or 0 (a bye: 1; out of the round: 0)
    points: float
    #: the game was not played: a forfeit by withdrawal (it counts, but for no colour)
    forfeit: bool = False
    #: a round without a game: 'bye' (the pairing-allocated bye) or 'absent'
    rest: str | None = None


def pair_round(ratings: list[float], history: list[list[Played]], rounds: int,
               out: frozenset[int] = frozenset()) -> list[tuple[int, int | None]]:
    """The next round's (white, black) pairs by starting number (1 = the highest seed);
    ``black`` None is the bye. ``ratings[i]`` and ``history[i]`` are player ``i + 1``'s;
    ``out``: starting numbers not to be paired (withdrawn)."""
    from py4swiss.engines import DutchEngine
    from py4swiss.engines.common.exceptions import PairingError as LibraryError
    from py4swiss.trf import ParsedTrf
    from py4swiss.trf.codes import PlayerCode
    from py4swiss.trf.results import RoundResult
    from py4swiss.trf.results.color_token import ColorToken
    from py4swiss.trf.results.result_token import ResultToken
    from py4swiss.trf.sections import PlayerSection, XSection

    def token(p: Played) -> RoundResult:
        if p.opponent is None:
            kind = ResultToken.PAIRING_ALLOCATED_BYE if p.rest == "bye" else \
                ResultToken.ZERO_POINT_BYE
            return RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=kind)
        colour = ColorToken.WHITE if p.colour == "w" else ColorToken.BLACK
        if p.forfeit:
            kind = ResultToken.FORFEIT_WIN if p.points else ResultToken.FORFEIT_LOSS
        else:
            kind = {1: ResultToken.WIN, 0.5: ResultToken.DRAW, 0: ResultToken.LOSS}[p.points]
        return RoundResult(id=p.opponent, color=colour, result=kind)

    sections = [
        PlayerSection(
            code=PlayerCode.PLAYER, starting_number=i + 1, fide_rating=round(rating),
            points_times_ten=round(10 * sum(p.points for p in history[i])), rank=i + 1,
            results=[token(p) for p in history[i]],
        )
        for i, rating in enumerate(ratings)
    ]
    trf = ParsedTrf(player_sections=sections,
                    x_section=XSection(number_of_rounds=rounds, zeroed_ids=set(out)))
    try:
        found = DutchEngine.generate_pairings(trf)
    except LibraryError as exc:
        raise PairingError(f"no Swiss pairing is possible for the next round: {exc}") from None
    pairs: list[tuple[int, int | None]] = []
    for p in found:
        if p.white and p.black:
            pairs.append((p.white, p.black))
        else:
            pairs.append((p.white or p.black, None))
    return pairs
