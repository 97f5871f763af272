"""Sending each connection of a room its own ``state`` (docs/protocol.md): the room, who
it is, and the game as its seat sees it (R-9), numbered per connection.

Each seat's game is built once per broadcast however many connections share it, and the
hand's log of events, the same for everyone, is encoded once and put into each seat's
game; an unchanged state is not sent again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from erqishi.play import Viewer
from erqishi.server.connection import Connection
from erqishi.server.lobby import Member
from erqishi.server.settings import PROTOCOL_VERSION

__all__ = ["Broadcaster"]

#: Stands for the log in a ``game`` object while it is encoded (the log is put in after).
_LOG_SLOT = "\u0000log\u0000"
_LOG_SLOT_JSON = json.dumps(_LOG_SLOT)


class Broadcaster:
    """The connections of one room and what each was last sent."""

    def __init__(self) -> None:
        self.conns: set[Connection] = set()

    def add(self, conn: Connection) -> None:
        """A new connection."""
        self.conns.add(conn)

    def discard(self, conn: Connection) -> None:
        """A connection closed."""
        self.conns.discard(conn)

    def close(self) -> None:
        """Close every connection."""
        for conn in list(self.conns):
            conn.close()

    def send_states(
        self,
        *,
        room: dict[str, Any],
        viewer_of: Callable[[Member], Viewer],
        game_for: Callable[[Viewer], dict[str, Any] | None],
        log: Callable[[], Iterable[dict[str, Any]]],
        you: Callable[[Member], dict[str, Any]],
        window: tuple[int, int] | None,
        only: int | None = None,
    ) -> None:
        """Send a ``state`` to every joined connection (or only to those of seat ``only``)
        whose state changed.

        Args:
            room: the ``room`` object.
            viewer_of: the viewer a member is (its seat, or a spectator).
            game_for: the ``game`` object for a viewer (without its log), None in the lobby.
            log: the hand's events as JSON (asked for once, if anyone needs a game).
            you: the ``you`` object of a member.
            window: the open decision window; an ``act`` must answer a state of it.
            only: send only to this seat's connections (a declaration changes only the
                declarer's state).
        """
        room_text = json.dumps(room, ensure_ascii=False)
        games: dict[Viewer, str] = {}
        log_text: str | None = None
        for conn in list(self.conns):
            member = conn.member
            if member is None:
                continue
            viewer = viewer_of(member)
            if only is not None and viewer != only:
                continue
            if viewer not in games:
                game = game_for(viewer)
                if game is None:
                    games[viewer] = "null"
                else:
                    game["log"] = _LOG_SLOT
                    if log_text is None:
                        log_text = json.dumps(list(log()), ensure_ascii=False)
                    games[viewer] = json.dumps(game, ensure_ascii=False).replace(_LOG_SLOT_JSON, log_text, 1)
            you_text = json.dumps(you(member), ensure_ascii=False)
            body = f'"room": {room_text}, "you": {you_text}, "game": {games[viewer]}'
            if body == conn.last_state:
                continue  # nothing new for this connection
            conn.last_state = body
            conn.seq += 1
            if conn.window != window:
                conn.window, conn.window_seq = window, conn.seq
            conn.send(f'{{"v": {PROTOCOL_VERSION}, "type": "state", "seq": {conn.seq}, {body}}}')
