"""The web protocol, version 2 (docs/protocol.md): client messages validated into typed
values with pydantic (an ``act`` carries an :class:`~erqishi.core.engine.Action`, not a
string), and the JSON the server sends (views, events, errors), built from the engine's
and the table's values.

Card and action strings are the ASCII forms of FORMATS.md. Nothing here reads a
:class:`~erqishi.core.engine.State` except through a view, so what a message can hold is
what the view allows (R-9).
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import replace
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic.functional_validators import BeforeValidator
from pydantic_core import PydanticCustomError

from erqishi.core import Card, ErqishiError
from erqishi.core.engine import Action, PlayerView, PublicView, SeatView
from erqishi.core.hands import Group
from erqishi.core.rule_info import PRESET_NAMES, describe_rules
from erqishi.core.rules import PRESETS, RuleSet
from erqishi.play.narrate import TEMPLATES
from erqishi.records.names import BOT_WORDS, display_name, looks_like_bot, printable_name
from erqishi.server.guard import json_too_deep
from erqishi.server.settings import PROTOCOL_VERSION, Settings

__all__ = [
    "BOT_LEVELS",
    "EMOTES",
    "MAX_TALK_CHARS",
    "PHRASES",
    "Act",
    "Again",
    "AnyClientMessage",
    "AutoPass",
    "ClientMessage",
    "CreateRoom",
    "CreateTournament",
    "Hello",
    "OrganiserToken",
    "ProtocolError",
    "RegisterEntrant",
    "Rename",
    "Say",
    "SeatCache",
    "Simple",
    "Sit",
    "Tuoguan",
    "Unbot",
    "Vote",
    "cards_json",
    "clean_name",
    "clean_talk",
    "error_message",
    "group_json",
    "narration_json",
    "parse_client_message",
    "presets_json",
    "seat_json",
    "talk_json",
    "view_json",
]

#: The bot levels a room may seat (erqishi.bots).
BOT_LEVELS = ("random", "heuristic", "search", "learned")
BotLevel = Literal["random", "heuristic", "search", "learned"]


class ProtocolError(Exception):
    """A client message that cannot be accepted; ``code`` is one of the protocol's error
    codes (docs/protocol.md) and ``ref`` the message's type when known."""

    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


def clean_name(name: str) -> str:
    """A display name as the server keeps it (:func:`erqishi.records.names.display_name`:
    control and invisible characters removed, spaces collapsed, something visible, at most
    24 characters), and not one that passes for a bot's seat (:func:`looks_like_bot`: the
    seats of bots show ``heuristic-bot-2`` and the tag 机器人).

    Raises:
        PydanticCustomError: ``bad_name``, saying what is wrong (the protocol's
            ``bad_name`` error).

    >>> clean_name("  小  明 ")
    '小 明'
    """
    try:
        kept = display_name(name)
    except ValueError as exc:
        raise PydanticCustomError("bad_name", str(exc)) from None
    if looks_like_bot(kept, BOT_LEVELS):
        raise PydanticCustomError("bad_name", "names like a bot's (bot, 机器人, a bot level) are kept for the bots")
    return kept


def _exact_version(value: object) -> object:
    """The protocol version is the integer 2 (not ``true``, not ``2.0``)."""
    if type(value) is not int:
        raise ValueError(f"the protocol version must be the integer {PROTOCOL_VERSION}")
    return value


def _parse_action(value: object) -> Action:
    """An action string of FORMATS.md, read by the engine's notation."""
    if isinstance(value, Action):
        return value
    if not isinstance(value, str) or not 1 <= len(value) <= 120:
        raise ValueError("an action is a string of 1-120 characters (FORMATS.md)")
    try:
        return Action.parse(value)
    except ErqishiError as exc:
        raise ValueError(str(exc)) from None


#: An action in its ASCII notation on the wire, an :class:`Action` in the server.
WireAction = Annotated[
    Action,
    BeforeValidator(_parse_action),
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": "string"}),
]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, arbitrary_types_allowed=True)

    v: Literal[2]

    _version = field_validator("v", mode="before")(_exact_version)


class Hello(_Message):
    """Join a room, or resume as an earlier member with its ``token``."""

    type: Literal["hello"]
    name: str | None = Field(default=None, max_length=64)
    token: str | None = Field(default=None, min_length=1, max_length=128)
    lang: Literal["zh", "en"] | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else clean_name(value)


class Rename(_Message):
    """Change the display name."""

    type: Literal["name"]
    name: str = Field(max_length=64)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value)


class Sit(_Message):
    """Take an empty seat (lobby)."""

    type: Literal["sit"]
    seat: int = Field(ge=0, le=3)


class Unbot(_Message):
    """Empty a bot's seat (lobby)."""

    type: Literal["unbot"]
    seat: int = Field(ge=0, le=3)


class Act(_Message):
    """A decision: an action (FORMATS.md) answering the state numbered ``seq``."""

    type: Literal["act"]
    action: WireAction
    seq: int = Field(ge=0)


class Simple(_Message):
    """A message with no fields."""

    type: Literal["stand", "bots", "start", "next", "hints", "ping", "dissolve"]


class Again(_Message):
    """After a match: ready (or no longer ready) for another one in the same seats (再来一局)."""

    type: Literal["again"]
    ready: bool = True


class Tuoguan(_Message):
    """Hand one's seat to the room's bot (托管, ``on``) or take it back."""

    type: Literal["tuoguan"]
    on: bool


class AutoPass(_Message):
    """Pass by oneself every response window with no 胡 and no 开 owed (``on``), or stop."""

    type: Literal["autopass"]
    on: bool


class Vote(_Message):
    """The answer to the open 解散 vote: ``agree`` (同意) or not (拒绝)."""

    type: Literal["vote"]
    agree: bool


#: The quick phrases of ``say`` (id → Chinese, English); some in Sichuan dialect.
PHRASES: dict[str, tuple[str, str]] = {
    "hello": ("各位好", "Hello, everyone"),
    "hurry": ("快点嘛", "Hurry up"),
    "no_rush": ("莫慌", "No rush"),
    "think": ("等我想哈", "Let me think"),
    "nice": ("巴适", "Nice"),
    "lovely": ("安逸", "Lovely"),
    "well_played": ("你打得好", "Well played"),
    "lucky": ("运气好哦", "Lucky you"),
    "oops": ("遭了", "Oh no"),
    "come_on": ("雄起", "Come on!"),
    "thanks": ("谢了哈", "Thanks"),
    "again": ("再来", "Again"),
    "bye": ("走了哈", "Bye for now"),
}

#: The emotes of ``say`` (id → symbol, Chinese, English).
EMOTES: dict[str, tuple[str, str, str]] = {
    "thumbs": ("\U0001f44d", "点赞", "Thumbs up"),
    "laugh": ("\U0001f604", "哈哈", "Ha ha"),
    "wow": ("\U0001f62e", "哇", "Wow"),
    "sob": ("\U0001f62d", "哭了", "Sob"),
    "tea": ("\U0001f375", "喝茶", "Tea break"),
    "fire": ("\U0001f525", "手气火热", "On fire"),
    "clap": ("\U0001f44f", "鼓掌", "Applause"),
    "hmm": ("\U0001f914", "想一想", "Hmm"),
}

#: The longest free text of ``say``, in characters after cleaning (a room option allows it).
MAX_TALK_CHARS = 40


def clean_talk(text: str) -> str:
    """Free text of ``say`` as the server passes it on: cleaned like a display name
    (:func:`erqishi.records.names.printable_name`: control, format and invisible characters
    removed, spaces collapsed), holding something visible, at most :data:`MAX_TALK_CHARS`
    characters. The browser shows it as text (never as HTML).

    Raises:
        PydanticCustomError: ``bad_message``, saying what is wrong.

    >>> clean_talk("  好\u200b  牌 ")
    '好 牌'
    """
    kept = printable_name(text)
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in kept):
        raise PydanticCustomError("bad_message", "the text needs at least one visible character")
    if len(kept) > MAX_TALK_CHARS:
        raise PydanticCustomError("bad_message", f"at most {MAX_TALK_CHARS} characters")
    return kept


class Say(_Message):
    """Talk at the table without typing: one quick ``phrase`` or ``emote`` by its id, or
    (where the room allows it) a short ``text``."""

    type: Literal["say"]
    phrase: str | None = Field(default=None, max_length=32)
    emote: str | None = Field(default=None, max_length=32)
    text: str | None = Field(default=None, max_length=200)

    @field_validator("phrase")
    @classmethod
    def _phrase(cls, value: str | None) -> str | None:
        if value is not None and value not in PHRASES:
            raise ValueError(f"no phrase {value[:32]!r}; the phrases are {', '.join(PHRASES)}")
        return value

    @field_validator("emote")
    @classmethod
    def _emote(cls, value: str | None) -> str | None:
        if value is not None and value not in EMOTES:
            raise ValueError(f"no emote {value[:32]!r}; the emotes are {', '.join(EMOTES)}")
        return value

    @field_validator("text")
    @classmethod
    def _text(cls, value: str | None) -> str | None:
        return None if value is None else clean_talk(value)

    @model_validator(mode="after")
    def _one(self) -> Say:
        if sum(x is not None for x in (self.phrase, self.emote, self.text)) != 1:
            raise ValueError("say one thing: a phrase, an emote or a text")
        return self


def talk_json() -> dict[str, Any]:
    """The quick phrases and emotes (``welcome.talk``): what a client offers and how it
    shows a ``said`` message in either language."""
    return {
        "phrases": [{"id": key, "zh": zh, "en": en} for key, (zh, en) in PHRASES.items()],
        "emotes": [{"id": key, "symbol": sym, "zh": zh, "en": en} for key, (sym, zh, en) in EMOTES.items()],
        "max_text": MAX_TALK_CHARS,
    }


AnyClientMessage = Hello | Rename | Sit | Unbot | Act | Simple | Again | Tuoguan | AutoPass | Vote | Say
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
_CLIENT = TypeAdapter[AnyClientMessage](ClientMessage)


def _preset(value: object) -> object:
    if isinstance(value, str) and value not in PRESETS:
        raise ValueError(f"unknown preset {value!r}; presets are {', '.join(PRESETS)}")
    return value


class CreateRoom(BaseModel):
    """The body of ``POST /api/rooms``: a preset of :data:`~erqishi.core.rules.PRESETS` and
    the room's rule options over it (``rules``: any option of R-10 by its name, e.g.
    ``{"cap": 100, "piao_fan": false}``; checked by :class:`~erqishi.core.rules.RuleSet`),
    the match length in 圈 (``match_quan``, the rule option's name, R-10), the bot level for
    empty seats, optionally the player count and the room's timers, whether the coach
    comments on the people's moves (``coach``), and whether the room is listed to everyone
    (``public``). ``match_quan``, ``players`` and ``preset`` may also be given inside
    ``rules``; given twice they must agree."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    v: Literal[2]
    preset: str = "leshan"
    #: the rule options over the preset (R-10), as in a record's ``rules`` object
    options: dict[str, Any] | None = Field(default=None, alias="rules")
    match_quan: int = Field(default=1, ge=1, le=10)
    #: seconds each seat has to answer a discard or flip (None: the server's --response-seconds)
    response_seconds: float | None = Field(default=None, ge=5, le=120)
    #: seconds a seat has to discard or open (None: the server's --turn-seconds)
    turn_seconds: float | None = Field(default=None, ge=10, le=300)
    bots: BotLevel = "heuristic"
    players: int | None = Field(default=None, ge=2, le=4)
    #: the coach's notes on the seated players' moves (erqishi.learn.coach; the lessons' last one)
    coach: bool = False
    #: listed to everyone by ``GET /api/rooms`` (else the room is found only by its link or code)
    public: bool = False
    #: how long a 解散 vote lasts, in seconds
    vote_seconds: float = Field(default=60.0, ge=0.5, le=600.0)
    #: what a seat that has not answered a 解散 vote when its time runs out counts as
    vote_timeout: Literal["agree", "refuse"] = "agree"
    #: whether ``say`` may carry a short free text (else only the quick phrases and emotes)
    free_text: bool = False

    _version = field_validator("v", mode="before")(_exact_version)
    _known_preset = field_validator("preset", mode="before")(_preset)

    @model_validator(mode="before")
    @classmethod
    def _fields_in_rules(cls, data: Any) -> Any:
        """``preset``, ``match_quan`` and ``players`` inside ``rules`` are the fields of those
        names (given in both places, they must agree)."""
        return _rule_fields(data)

    def rules(self) -> RuleSet:
        """The room's rule set: the preset, the ``rules`` options over it, ``match_quan`` and
        ``players``.

        Raises:
            InvalidRulesError: the options make no valid rule set (the message names the
                option).
        """
        options: dict[str, Any] = {"preset": self.preset, **(self.options or {}), "match_quan": self.match_quan}
        if self.players is not None:
            options["players"] = self.players
        return RuleSet.load(options)

    def timed(self, settings: Settings) -> Settings:
        """The server's ``settings`` with this room's timers (where it sets them)."""
        return replace(
            settings,
            response_seconds=settings.response_seconds if self.response_seconds is None else self.response_seconds,
            turn_seconds=settings.turn_seconds if self.turn_seconds is None else self.turn_seconds,
        )


def _rule_fields(data: Any) -> Any:
    """A body's ``rules`` with ``preset``, ``match_quan`` and ``players`` lifted out to the
    fields of those names (given in both places, they must agree)."""
    if not isinstance(data, dict) or not isinstance(data.get("rules"), dict):
        return data
    data, options = dict(data), dict(data["rules"])
    for key in ("preset", "match_quan", "players"):
        if key in options:
            value = options.pop(key)
            if key in data and data[key] != value:
                raise ValueError(f"rules.{key} is {value!r} but {key} is {data[key]!r}: give it once")
            data[key] = value
    data["rules"] = options
    return data


def _start_time(value: object) -> object:
    """A start time: ISO 8601 with its time zone (``2025-03-01T19:30:00+08:00``)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError("start: an ISO 8601 date and time with its time zone, or null")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"start: not an ISO 8601 date and time: {value[:40]!r}") from None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("start: give the time zone (2025-03-01T19:30:00+08:00, or Z for UTC)")
    return value


class CreateTournament(BaseModel):
    """The body of ``POST /api/tournaments`` (docs/tournament.md, "In the web game"): the
    tournament's name, its rule set as a room's (``preset`` and ``rules`` options over it,
    ``players``), the Swiss ``rounds``, the 圈 per round (``match_quan``), the announced
    ``start`` (ISO 8601 with its time zone: round 1 starts then by itself unless the
    organiser starts it sooner), a 擂台 final (``leitai``), the bot level of the fillers and
    of absent players (``bots``), how long a table waits for its players (``wait_seconds``),
    and the tables' timers."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    v: Literal[2]
    name: str = Field(min_length=1, max_length=64)
    preset: str = "leshan"
    options: dict[str, Any] | None = Field(default=None, alias="rules")
    players: int | None = Field(default=None, ge=2, le=4)
    rounds: int = Field(default=3, ge=1, le=10)
    match_quan: int = Field(default=1, ge=1, le=10)
    start: str | None = Field(default=None, max_length=40)
    leitai: bool = False
    bots: BotLevel = "heuristic"
    wait_seconds: float = Field(default=60.0, ge=0, le=600)
    response_seconds: float | None = Field(default=None, ge=5, le=120)
    turn_seconds: float | None = Field(default=None, ge=10, le=300)

    _version = field_validator("v", mode="before")(_exact_version)
    _known_preset = field_validator("preset", mode="before")(_preset)
    _start = field_validator("start", mode="before")(_start_time)

    @model_validator(mode="before")
    @classmethod
    def _fields_in_rules(cls, data: Any) -> Any:
        return _rule_fields(data)

    def start_time(self) -> datetime | None:
        """The start time (aware), or None."""
        return None if self.start is None else datetime.fromisoformat(self.start)

    def room(self) -> CreateRoom:
        """The settings of every table's room: the rule set, the bots, the timers.

        Raises:
            InvalidRulesError: the options make no valid rule set (the message names it).
        """
        config = CreateRoom.model_validate(
            {
                "v": PROTOCOL_VERSION,
                "preset": self.preset,
                "rules": self.options or {},
                "match_quan": self.match_quan,
                "players": self.players,
                "bots": self.bots,
                "response_seconds": self.response_seconds,
                "turn_seconds": self.turn_seconds,
            }
        )
        config.rules()
        return config


class RegisterEntrant(BaseModel):
    """The body of ``POST /api/tournaments/{id}/register``: the player's display name."""

    model_config = ConfigDict(extra="forbid", strict=True)

    v: Literal[2]
    name: str = Field(min_length=1, max_length=64)

    _version = field_validator("v", mode="before")(_exact_version)


class OrganiserToken(BaseModel):
    """The body of the organiser's ``POST /api/tournaments/{id}/start``: the organiser token."""

    model_config = ConfigDict(extra="forbid", strict=True)

    v: Literal[2]
    token: str = Field(min_length=1, max_length=128)

    _version = field_validator("v", mode="before")(_exact_version)


def parse_client_message(text: str | bytes, max_bytes: int, max_depth: int = 20) -> AnyClientMessage:
    """Check one client frame against the protocol and read it into a typed message: its
    size and nesting (at most ``max_depth`` arrays and objects deep) are checked before it
    is parsed.

    Raises:
        ProtocolError: ``too_big``, ``too_deep``, ``bad_json``, ``bad_version``,
            ``bad_message`` or ``bad_name``, naming the fault (the field and what was wrong).
    """
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "messages are JSON in text frames, not binary frames")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise ProtocolError("too_big", f"message of {size} bytes; the limit is {max_bytes}")
    if max_depth and json_too_deep(text, max_depth):
        raise ProtocolError("too_deep", f"JSON nested deeper than {max_depth} levels")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ProtocolError("bad_json", f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    kind = data.get("type")
    ref = kind if isinstance(kind, str) and len(kind) <= 32 else None
    version = data.get("v")
    if type(version) is not int or version != PROTOCOL_VERSION:
        shown = repr(version) if isinstance(version, int | float | str | bool) or version is None else "of that type"
        message = f"protocol version {shown[:40]} is not supported; use {PROTOCOL_VERSION}"
        raise ProtocolError("bad_version", message, ref)
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p)[:32] for p in first["loc"]) or "message"
        message = str(first["msg"]).removeprefix("Value error, ")
        code = "bad_name" if first["type"] == "bad_name" else "bad_message"
        raise ProtocolError(code, f"{where}: {message}", ref) from None


def _sendable(text: str) -> str:
    """``text`` with any lone surrogate (which UTF-8 cannot carry) made U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)
    return text


def error_message(code: str, message: str, ref: str | None = None, *, zh: str = "") -> dict[str, Any]:
    """An ``error`` message (``message`` in English, ``message_zh`` in Chinese when ``zh`` is
    given: an :class:`~erqishi.core.ErqishiError`'s own ``zh``); text quoted from the client
    that UTF-8 cannot carry (a lone surrogate) is replaced, so the error always reaches the
    client."""
    out = {
        "v": PROTOCOL_VERSION,
        "type": "error",
        "code": code,
        "message": _sendable(message),
        "ref": None if ref is None else _sendable(ref),
    }
    if zh:
        out["message_zh"] = _sendable(zh)
    return out


#: ASCII notation by card value (``x1``…``d10``).
ASCII: tuple[str, ...] = tuple(card.ascii for card in Card)


def cards_json(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    """Cards in ASCII notation."""
    return [ASCII[card] for card in cards]


_GROUPS: dict[Group, dict[str, Any]] = {}


def group_json(group: Group) -> dict[str, Any]:
    """A group: kind, Chinese name, cards, hu (R-7.1). Groups are values: each is
    encoded once (the object returned is shared; do not change it)."""
    found = _GROUPS.get(group)
    if found is None:
        found = {"kind": group.kind.value, "name": group.name, "cards": cards_json(group.cards), "hu": group.hu}
        if len(_GROUPS) < 10_000:
            _GROUPS[group] = found
    return found


#: a cache of :func:`seat_json` for one table: by (seat, concealed hand shown), the
#: :class:`SeatView` it was built from and the object
SeatCache = dict[tuple[int, bool], tuple[SeatView, dict[str, Any]]]


def seat_json(sv: SeatView) -> dict[str, Any]:
    """One seat's public part (R-9): hand size, melds, row, 八块 announcements, and its
    concealed hand only where the view shows it (the viewer's own, or once the hand is over)."""
    return {
        "seat": sv.seat,
        "hand_size": sv.hand_size,
        "melds": [group_json(g) for g in sv.melds],
        "row": cards_json(sv.row),
        "announced": sv.announced,
        "hand": cards_json(sv.hand) if sv.hand is not None else None,
    }


def view_json(v: PublicView, cache: SeatCache | None = None) -> dict[str, Any]:
    """The ``view`` object (docs/protocol.md) of a player's or a spectator's view (R-9).

    Only fields of the view go out: concealed hands of other seats are ``None`` in the view
    until the hand is over, and the stock is only a count. A spectator's view has no seat,
    no hand and no options.

    ``cache`` (one per table, kept by the caller) reuses each seat's object while the
    engine gives the same :class:`SeatView` (it keeps one per seat state, so a move
    changes one seat's): the objects returned are shared; do not change them.
    """
    mine = v if isinstance(v, PlayerView) else None
    if cache is None:
        seats = [seat_json(sv) for sv in v.seats]
    else:
        seats = []
        for sv in v.seats:
            key = (sv.seat, sv.hand is not None)
            found = cache.get(key)
            if found is None or found[0] is not sv:
                found = cache[key] = (sv, seat_json(sv))
            seats.append(found[1])
    return {
        "seat": mine.seat if mine is not None else None,
        "quan": v.quan,
        "dealer": v.dealer,
        "order": list(v.order),
        "phase": v.phase.value,
        "turn": v.turn,
        "pending": ASCII[v.pending] if v.pending is not None else None,
        "pending_flip": v.pending_flip,
        "stock_left": v.stock_left,
        "hand": cards_json(mine.hand) if mine is not None else [],
        "seats": seats,
    }


def presets_json() -> dict[str, Any]:
    """``GET /api/presets``: every rule preset (R-10) with its name in words and what it
    changes (``[Chinese, English]``, from :mod:`erqishi.core.rule_info`) and all its
    options, in the order of :data:`~erqishi.core.rules.PRESETS`, and the bot levels a room
    may seat."""
    presets = []
    for name in PRESETS:
        rules = RuleSet.preset(name)
        zh, en = PRESET_NAMES.get(name, (name, name))
        presets.append(
            {
                "name": name,
                "words": [zh, en],
                "about": [describe_rules(rules, "zh"), describe_rules(rules, "en")],
                "rules": rules.to_options(),
            }
        )
    # each level's words for people: the name its seats are shown with (机器人·稳健 2) and how it plays
    words = {
        level: {"name": list(BOT_WORDS[level][0]), "about": list(BOT_WORDS[level][1])}
        for level in BOT_LEVELS
        if level in BOT_WORDS
    }
    return {"v": PROTOCOL_VERSION, "presets": presets, "bots": list(BOT_LEVELS), "bot_words": words}


def narration_json() -> dict[str, Any]:
    """``GET /api/narration``: the one narration's sentences (:data:`erqishi.play.narrate.TEMPLATES`),
    by key, each ``[Chinese, English]``, for the browser's renderer of events."""
    return {"v": PROTOCOL_VERSION, "templates": {key: list(pair) for key, pair in TEMPLATES.items()}}
