"""The web game (docs/protocol.md): ``erqishi serve`` runs a FastAPI app with one WebSocket
per player or spectator; the server holds every game and sends each seat its own view only
(R-9)."""

from erqishi.server.settings import PROTOCOL_VERSION, Settings

__all__ = ["PROTOCOL_VERSION", "Settings"]
