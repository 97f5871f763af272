"""Playing hands and matches: drive the engine with a chooser per decision and write the
record (FORMATS.md). Bots and interfaces sit on top of this."""

from erqishi.play.run import Chooser, PlayedHand, PlayedMatch, play_hand, play_match, random_chooser
from erqishi.play.table import table_chooser

__all__ = ["Chooser", "PlayedHand", "PlayedMatch", "play_hand", "play_match", "random_chooser", "table_chooser"]
