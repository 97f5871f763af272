"""争霸赛 tournaments: Swiss-style seating at tables of three (:mod:`.seating`), the
:class:`Tournament` value from registration to the champion with its standings and 擂台
final (:mod:`.tournament`), bot-only rounds (:mod:`.run`) and keeping tournaments in the
store (:mod:`.persist`). The core (seating, tournament) does no I/O: its state is plain
data (``to_json``/``from_json``) that the web server and ``erqishi tournament`` store.
See docs/tournament.md.
"""

from erqishi.tournament.run import PlayedTable, play_round, play_table, run_tournament
from erqishi.tournament.seating import Seating, SeatingHistory, seat_round, table_sizes
from erqishi.tournament.tournament import (
    Entrant,
    Round,
    RoundTable,
    Standing,
    TableResult,
    Tournament,
    TournamentError,
    TournamentStatus,
)

__all__ = [
    "Entrant",
    "PlayedTable",
    "Round",
    "RoundTable",
    "Seating",
    "SeatingHistory",
    "Standing",
    "TableResult",
    "Tournament",
    "TournamentError",
    "TournamentStatus",
    "play_round",
    "play_table",
    "run_tournament",
    "seat_round",
    "table_sizes",
]
