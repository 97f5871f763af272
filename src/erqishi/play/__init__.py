"""The one table: every front end (the terminal game, the web server, sims, search
playouts, the RL environment, lessons) runs hands and matches here and tells them through
one vocabulary of events (R-2 to R-9; FORMATS.md)."""

from erqishi.play.run import Chooser, PlayedHand, PlayedMatch, play_hand, play_match, random_chooser, table_chooser
from erqishi.play.step import Player, asked, resolve, step, step_players

__all__ = [
    "Chooser",
    "PlayedHand",
    "PlayedMatch",
    "Player",
    "asked",
    "play_hand",
    "play_match",
    "random_chooser",
    "resolve",
    "step",
    "step_players",
    "table_chooser",
]
