"""Game records (FORMATS.md, format 1): reading, writing, verifying and replaying."""

from erqishi.records.model import FORMAT, HandRecord, MatchRecord, dumps, load_record, parse_record
from erqishi.records.replay import describe, replay_hand, run_out, verify, verify_hand

__all__ = [
    "FORMAT",
    "HandRecord",
    "MatchRecord",
    "describe",
    "dumps",
    "load_record",
    "parse_record",
    "replay_hand",
    "run_out",
    "verify",
    "verify_hand",
]
