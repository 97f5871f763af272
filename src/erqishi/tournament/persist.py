"""Keep tournaments in the store (:mod:`erqishi.storage.tournaments`): a tournament's state
and the match records of its tables, saved together after every step, so a server or a
command line stopped between rounds (or in the middle of one) carries on from the store.
"""

from __future__ import annotations

from collections.abc import Sequence

from erqishi.storage import Store, StoredTournament, TournamentInfo, TournamentMatch
from erqishi.tournament.run import PlayedTable
from erqishi.tournament.tournament import Tournament, TournamentError

__all__ = ["create_stored", "info_of", "load_stored", "save_stored"]


def info_of(tournament: Tournament) -> TournamentInfo:
    """The listing columns of a tournament."""
    champion = tournament.champion
    return TournamentInfo(
        name=tournament.name,
        status=tournament.status.value,
        players=len(tournament.entrants),
        rounds=tournament.total_rounds,
        played=len(tournament.played),
        champion=tournament.entrants[champion].name if champion is not None else None,
    )


async def create_stored(store: Store, tournament: Tournament) -> int:
    """Store a new tournament; its id."""
    return await store.create_tournament(tournament.to_json(), info_of(tournament))


async def save_stored(
    store: Store,
    tournament_id: int,
    tournament: Tournament,
    played: Sequence[PlayedTable] = (),
    *,
    version: int | None = None,
) -> tuple[int, list[int]]:
    """Save the tournament's state with the match records of the tables just ``played``,
    in one transaction; the new version and the stored matches' ids.

    Raises:
        as :meth:`erqishi.storage.Store.save_tournament`.
    """
    matches = [TournamentMatch(p.round, p.table, p.seed, p.record) for p in played]
    return await store.save_tournament(
        tournament_id, tournament.to_json(), info_of(tournament), version=version, matches=matches
    )


async def load_stored(store: Store, tournament_id: int) -> tuple[Tournament, StoredTournament]:
    """A stored tournament, read back, with what the store keeps of it.

    Raises:
        TournamentError: no such tournament, or its state does not read.
    """
    found = await store.get_tournament(tournament_id)
    if found is None:
        raise TournamentError(f"no tournament {tournament_id}", zh=f"没有编号为 {tournament_id} 的争霸赛")
    return Tournament.from_json(found.state), found
