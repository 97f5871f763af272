"""The one table: every front end (the terminal game, the web server, sims, search
playouts, the RL environment, lessons) runs hands and matches here and tells them through
one vocabulary of events and one narration (R-2 to R-9; FORMATS.md)."""

from erqishi.play.events import Event, EventKind
from erqishi.play.narrate import Names, narrate, narrate_lines
from erqishi.play.run import (
    Chooser,
    PlayedHand,
    PlayedMatch,
    play_hand,
    play_match,
    play_until,
    random_chooser,
    table_chooser,
)
from erqishi.play.step import Player, asked, owed_kai, resolve, step, step_players
from erqishi.play.table import SPECTATOR, FinishedHand, NotYourTurnError, Spectator, Table, Viewer

__all__ = [
    "SPECTATOR",
    "Chooser",
    "Event",
    "EventKind",
    "FinishedHand",
    "Names",
    "NotYourTurnError",
    "PlayedHand",
    "PlayedMatch",
    "Player",
    "Spectator",
    "Table",
    "Viewer",
    "asked",
    "narrate",
    "narrate_lines",
    "owed_kai",
    "play_hand",
    "play_match",
    "play_until",
    "random_chooser",
    "resolve",
    "step",
    "step_players",
    "table_chooser",
]
