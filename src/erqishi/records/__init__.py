"""Game records (FORMATS.md, format 1): reading, writing, verifying and replaying.

:class:`HandRecord` and :class:`MatchRecord` are read with :func:`load_record` /
:func:`parse_record` (every field checked, :class:`RecordFieldError` naming the first bad
one), carry a typed :class:`RecordResult`, and write the same JSON back with ``to_json``.
:func:`verify` replays a record into a typed verdict (:class:`HandVerdict`,
:class:`MatchVerdict`; :class:`InvalidVerdict` for a file that is no record) whose
``to_json()`` is the output of ``erqishi verify --json``.
"""

from erqishi.records.model import (
    FORMAT,
    RESULT_FIELDS,
    HandRecord,
    MatchRecord,
    RecordFieldError,
    RecordResult,
    dumps,
    load_record,
    parse_record,
)
from erqishi.records.names import MAX_NAME_CHARS, display_name, looks_like_bot, printable_name
from erqishi.records.replay import HandReplay, replay_hand, run_out
from erqishi.records.verify import (
    HandVerdict,
    InvalidVerdict,
    MatchResult,
    MatchVerdict,
    Verdict,
    verify,
    verify_hand,
    verify_match,
)

__all__ = [
    "FORMAT",
    "MAX_NAME_CHARS",
    "RESULT_FIELDS",
    "HandRecord",
    "HandReplay",
    "HandVerdict",
    "InvalidVerdict",
    "MatchRecord",
    "MatchResult",
    "MatchVerdict",
    "RecordFieldError",
    "RecordResult",
    "Verdict",
    "display_name",
    "dumps",
    "load_record",
    "looks_like_bot",
    "parse_record",
    "printable_name",
    "replay_hand",
    "run_out",
    "verify",
    "verify_hand",
    "verify_match",
]
