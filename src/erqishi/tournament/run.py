"""Play the rounds of a bot-only 争霸赛 (``erqishi tournament run``): every table of a round
is a :class:`~erqishi.play.Table` of bots (``erqishi.bots``: a bot entrant's level, or the
filler's), seeing only their seat's view (R-9), each bot with its own generator derived
from the tournament's seed, the table dealing the round's duplicate deals
(:meth:`~erqishi.tournament.Tournament.new_table`). Tables run one after the other or on a
local process pool; the results are the same either way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from erqishi.bots import make_bot
from erqishi.play import play_until
from erqishi.records import MatchRecord
from erqishi.storage.lifetime import pool_worker_signals
from erqishi.tournament.tournament import TableResult, Tournament, TournamentError, TournamentStatus

__all__ = ["PlayedTable", "play_round", "play_table", "run_tournament"]


@dataclass(frozen=True, slots=True)
class PlayedTable:
    """A table's finished match: where (round from 1, table from 0), its result, the seed
    of its deals and its record (every hand with its result)."""

    round: int
    table: int
    result: TableResult
    seed: int
    record: MatchRecord


def play_table(tournament: Tournament, number: int, table: int) -> PlayedTable:
    """Play the match of ``table`` (from 0) in round ``number`` with bots in every seat.

    Raises:
        TournamentError: no such table, or a person sits at it.
    """
    levels = tournament.seat_bots(number, table)
    people = [s for s, level in enumerate(levels) if level is None]
    if people:
        raise TournamentError(
            f"round {number} table {table + 1} seats a person (seat {people[0]}): only bots play here"
        )
    board = tournament.new_table(number, table)
    players = {seat: make_bot(level) for seat, level in enumerate(levels) if level is not None}
    rngs = {seat: random.Random(tournament.bot_seed(number, table, seat)) for seat in players}
    while not board.match_over:
        board.start_hand()
        play_until(board, players, rngs)
    return PlayedTable(number, table, TableResult.from_table(board), tournament.deal_seed(number), board.match_record())


def _play(tournament: Tournament, number: int, table: int) -> PlayedTable:
    return play_table(tournament, number, table)


def play_round(tournament: Tournament, *, workers: int = 1) -> tuple[Tournament, tuple[PlayedTable, ...]]:
    """Play the current round (starting the next one first when none is being played)
    and record every table's result.

    Args:
        tournament: a bot-only tournament that is not finished.
        workers: processes; 1 plays here, more play the tables on a local process pool.

    Returns:
        The tournament with the round's results, and the tables played, in table order.

    Raises:
        TournamentError: the tournament is finished, cannot start its round, or seats a
            person.
        ValueError: ``workers`` below 1.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if tournament.status is TournamentStatus.FINISHED:
        raise TournamentError("the tournament is finished")
    if not tournament.is_bots_only:
        person = next(e.name for e in tournament.entrants if e.bot is None)
        raise TournamentError(f"{person!r} is a person: only a tournament of bots plays here")
    if tournament.status is not TournamentStatus.PLAYING:
        tournament = tournament.start_round()
    current = tournament.played[-1]
    todo = [i for i, t in enumerate(current.tables) if t.result is None]
    if workers == 1 or len(todo) <= 1:
        played = [play_table(tournament, current.number, i) for i in todo]
    else:
        # workers that end with this process, however it is stopped (kill, kill -9)
        with ProcessPoolExecutor(max_workers=min(workers, len(todo)), initializer=pool_worker_signals) as pool:
            played = list(pool.map(_play, [tournament] * len(todo), [current.number] * len(todo), todo))
    for p in played:
        tournament = tournament.record(p.round, p.table, p.result)
    return tournament, tuple(played)


def run_tournament(
    tournament: Tournament,
    *,
    workers: int = 1,
    after_round: Callable[[Tournament, Sequence[PlayedTable]], Tournament | None] | None = None,
) -> Tournament:
    """Play every round left of a bot-only tournament, to its end.

    Args:
        tournament: a bot-only tournament.
        workers: processes per round (see :func:`play_round`).
        after_round: called after each round with the tournament and the tables played
            (to show or store them); may return the tournament to carry on with.

    Raises:
        TournamentError: as :func:`play_round`.

    >>> t = Tournament.create("T", rounds=1, seed=3)
    >>> for level in ("random", "random", "random"):
    ...     t = t.register_bot(level)
    >>> run_tournament(t).status.value
    'finished'
    """
    while tournament.status is not TournamentStatus.FINISHED:
        tournament, played = play_round(tournament, workers=workers)
        if after_round is not None:
            tournament = after_round(tournament, played) or tournament
    return tournament
