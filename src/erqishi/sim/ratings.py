"""Ratings: ``erqishi ratings``. Every stored hand is a multiplayer game, and every bot and
every named web player gets a rating with its uncertainty.

The model is OpenSkill's Plackett-Luce (Weng & Lin 2011, the ``openskill`` package): a
player's skill is a normal belief ``N(μ, σ²)``, starting at ``μ = 25``, ``σ = 25/3``; each
game updates the beliefs of the players in it from their ranking. The conservative
``ordinal`` is ``μ − 3σ``: the skill the player has at least, with about 99.9% belief;
the table is sorted by it.

A hand is a game ranked by its payments (score units, R-8): the seat that received most
first; seats with equal payments share their rank (the two payers of a 自摸 tie, every seat
of a dead hand ties). A seat sitting the hand out (four players, R-10) is not in the game.
Plackett-Luce rankings restricted to a subset of the players are Plackett-Luce again, so a
game keeps its named seats when others are dropped (an unnamed web seat), as long as two
are left.

Who is who: in a sim run (``sim_runs``) every seat's name is a bot (``bot``); in a web match
(``web_matches``) a seat named ``LEVEL-bot-N`` (what the server calls a bot's seat, LEVEL a
known bot) is that bot, so web bots and sim bots of the same name are one player, and any
other non-empty name is a person (``player``). Two seats of one player in one game (a sim
of ``heuristic,heuristic,search``) are rated as two players with the same prior, and the
player's rating takes the sum of their changes of μ and the product of their factors of σ²,
as if the two seats' results had been seen one after the other.

Order: games are rated in time order (a sim run's hands at the time the run was stored, in
hand order; web hands when each was stored), ties broken by database, then sim before web,
then run or match id and hand index. The same stored data give the same ratings, to the
last digit. ``tau`` (the drift of a skill per game, OpenSkill's τ) is 0 by default: a bot's
skill does not change between hands, and σ then shrinks with the evidence.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from openskill.models import PlackettLuce
from rich import box
from rich.table import Table
from sqlalchemy import Engine, create_engine, pool, select

from erqishi.bots import BOTS
from erqishi.core import RuleSet
from erqishi.core.engine import sitting_out_seat
from erqishi.storage import database_urls, upgrade
from erqishi.storage.schema import sim_hands, sim_runs, web_hands, web_matches

__all__ = [
    "BETA",
    "MU",
    "SIGMA",
    "Game",
    "Player",
    "Rating",
    "RatingTable",
    "game_ranks",
    "games_of_hands",
    "rate_games",
    "reading",
    "render_ratings",
    "stored_games",
    "stored_ratings",
    "web_player",
]

#: The prior mean skill (OpenSkill's default).
MU = 25.0
#: The prior standard deviation of skill (OpenSkill's default, μ / 3).
SIGMA = 25.0 / 3.0
#: The spread of one game's performance around the skill (OpenSkill's default, σ / 2).
BETA = 25.0 / 6.0

_WEB_BOT = re.compile(r"^(?P<bot>.+)-bot-\d+$")
#: a 争霸赛's bot entrant: ``LEVEL#N`` (erqishi.tournament, Tournament.register_bot)
_ENTRANT_BOT = re.compile(r"^(?P<bot>[a-z][a-z-]*)#[1-9][0-9]*$")


@dataclass(frozen=True, slots=True, order=True)
class Player:
    """Someone rated: a bot (by its name, in sim runs and web bot seats) or a named web player.

    Attributes:
        kind: ``"bot"`` or ``"player"``.
        name: the bot's name or the player's display name.
    """

    kind: Literal["bot", "player"]
    name: str


@dataclass(frozen=True, slots=True)
class Game:
    """One hand as a game: the rated seats that were dealt in, each with its payment.

    Attributes:
        seats: per rated seat, the player and the payment it received (+) or paid (−),
            in score units (R-8). At least two seats.
        key: where the hand comes from, for messages (``"sim run 3 hand 17"``).
    """

    seats: tuple[tuple[Player, int], ...]
    key: str = ""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating after every game.

    Attributes:
        player: who.
        mu: the mean skill μ (prior 25).
        sigma: the standard deviation σ of the skill (prior 25/3).
        games: games (hands dealt in) rated.
        wins: hands won (the one seat with a positive payment).
    """

    player: Player
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The conservative skill ``μ − 3σ``."""
        return self.mu - 3.0 * self.sigma

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "name", "mu", "sigma", "ordinal", "games", "wins"}``."""
        return {
            "kind": self.player.kind,
            "name": self.player.name,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "games": self.games,
            "wins": self.wins,
        }


@dataclass(frozen=True, slots=True)
class RatingTable:
    """Every player's rating, best ordinal first (then higher μ, then kind and name).

    Attributes:
        ratings: the ratings, sorted.
        games: how many games were rated.
        tau: the skill drift per game used (OpenSkill's τ).
        sources: the databases read (passwords masked).
    """

    ratings: tuple[Rating, ...]
    games: int
    tau: float = 0.0
    sources: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"model", "mu0", "sigma0", "beta", "tau", "games", "sources", "ratings": [{"rank",
        "kind", "name", "mu", "sigma", "ordinal", "games", "wins"}, ...]}``."""
        return {
            "model": "openskill PlackettLuce",
            "mu0": MU,
            "sigma0": SIGMA,
            "beta": BETA,
            "tau": self.tau,
            "games": self.games,
            "sources": list(self.sources),
            "ratings": [{"rank": i + 1, **r.to_json()} for i, r in enumerate(self.ratings)],
        }


def game_ranks(payments: Sequence[int]) -> list[int]:
    """The rank of each seat by its payment: 1 for the most received, equal payments share
    a rank, and the next rank counts the seats ahead (competition ranking, "1224").

    >>> game_ranks([60, 0, -60]), game_ranks([-20, 40, -20]), game_ranks([0, 0, 0])
    ([1, 2, 3], [2, 1, 2], [1, 1, 1])
    """
    return [1 + sum(1 for q in payments if q > p) for p in payments]


def rate_games(games: Iterable[Game], *, tau: float = 0.0) -> RatingTable:
    """Rate ``games`` in order with OpenSkill's Plackett-Luce (prior μ 25, σ 25/3, β 25/6).

    Args:
        games: the games, in the order they were played; a game with fewer than two
            seats is skipped.
        tau: the skill drift added (as τ² to σ²) to each player's variance before each of
            their games; 0 (the default) takes skills as fixed.

    Returns:
        The ratings of every player seen, best ordinal first.

    Raises:
        ValueError: a negative or non-finite ``tau``.
    """
    if not math.isfinite(tau) or tau < 0:
        raise ValueError(f"tau must be a finite number ≥ 0, got {tau!r}")
    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=0.0)
    state: dict[Player, tuple[float, float]] = {}
    played: dict[Player, int] = {}
    won: dict[Player, int] = {}
    count = 0
    for game in games:
        if len(game.seats) < 2:
            continue
        count += 1
        prior: dict[Player, tuple[float, float]] = {}
        for player, payment in game.seats:
            mu, sigma = state.get(player, (MU, SIGMA))
            prior[player] = (mu, math.sqrt(sigma * sigma + tau * tau))
            played[player] = played.get(player, 0) + 1
            if payment > 0:
                won[player] = won.get(player, 0) + 1
        teams = [[model.rating(mu=prior[p][0], sigma=prior[p][1])] for p, _ in game.seats]
        ranks = game_ranks([pay for _, pay in game.seats])
        rated = model.rate(teams, ranks=[float(r) for r in ranks])
        shift: dict[Player, float] = {}
        shrink: dict[Player, float] = {}
        for (player, _), team in zip(game.seats, rated, strict=True):
            mu0, sigma0 = prior[player]
            shift[player] = shift.get(player, 0.0) + (team[0].mu - mu0)
            shrink[player] = shrink.get(player, 1.0) * (team[0].sigma / sigma0) ** 2
        for player in prior:
            mu0, sigma0 = prior[player]
            state[player] = (mu0 + shift[player], sigma0 * math.sqrt(shrink[player]))
    ratings = [Rating(p, mu, sigma, played[p], won.get(p, 0)) for p, (mu, sigma) in state.items()]
    ratings.sort(key=lambda r: (-r.ordinal, -r.mu, r.player.kind, r.player.name))
    return RatingTable(tuple(ratings), count, tau)


def games_of_hands(
    hands: Iterable[tuple[Sequence[str], Sequence[int], Sequence[bool]]], *, key: str = ""
) -> Iterator[Game]:
    """The games of sim hands: per hand the bot name, payment and dealt-in flag of each seat.

    Every seat is a bot (:class:`Player` ``("bot", name)``); seats not dealt in are left out.
    """
    for i, (seats, payments, active) in enumerate(hands):
        yield Game(
            tuple((Player("bot", name), pay) for name, pay, on in zip(seats, payments, active, strict=True) if on),
            f"{key} hand {i}".strip(),
        )


def web_player(name: str) -> Player | None:
    """Who a web seat's name is: ``LEVEL-bot-N`` (a room's bot seat) or ``LEVEL#N`` (a
    争霸赛's bot entrant) with a known bot LEVEL is that bot (no person may take such a
    name: it passes for a bot), another non-empty name (spaces stripped) a player; None for
    an empty name.

    >>> web_player("search-bot-2"), web_player("heuristic#3"), web_player(" 小明 "), web_player("")
    (Player(kind='bot', name='search'), Player(kind='bot', name='heuristic'), Player(kind='player', name='小明'), None)
    """
    text = name.strip()
    if not text:
        return None
    found = _WEB_BOT.match(text) or _ENTRANT_BOT.match(text)
    if found is not None and found["bot"] in BOTS:
        return Player("bot", found["bot"])
    return Player("player", text)


@contextmanager
def reading(url: str) -> Iterator[Engine]:
    """An engine on the database ``url`` (an SQLite file path or a URL, as for
    :func:`erqishi.storage.database_urls`), migrated to the newest schema first as every
    reader of the store does; disposed of afterwards.

    Raises:
        ValueError: not a supported database.
        sqlalchemy.exc.OperationalError: it cannot be opened or migrated.
    """
    sync_url = database_urls(url)[1]
    upgrade(url)
    engine = create_engine(sync_url, poolclass=pool.NullPool)
    try:
        yield engine
    finally:
        engine.dispose()


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _sim_dealer(index: int, players: int, summary: dict[str, Any], record: Any) -> int:
    """The dealer of a stored sim hand: from its record, else from the runner's rotation."""
    if isinstance(record, dict):
        deal = record.get("deal")
        if isinstance(deal, dict) and isinstance(deal.get("dealer"), int):
            return int(deal["dealer"])
    duplicate = summary.get("duplicate")
    if isinstance(duplicate, dict) and isinstance(duplicate.get("games_per_deal"), int):
        return (index // int(duplicate["games_per_deal"])) % players
    return (index // players) % players


_Keyed = tuple[tuple[datetime, int, int, int, int], Game]


def _sim_games(engine: Engine, db: int, label: str) -> list[_Keyed]:
    out: list[_Keyed] = []
    with engine.connect() as conn:
        run_rows = conn.execute(select(sim_runs.c.id, sim_runs.c.created, sim_runs.c.rules, sim_runs.c.summary)).all()
        for run in run_rows:
            try:
                players = RuleSet.load(run.rules).players
            except ValueError:
                players = 3
            summary = _json(run.summary) or {}
            cols = [sim_hands.c.idx, sim_hands.c.seats, sim_hands.c.payments]
            if players == 4:
                cols.append(sim_hands.c.record)
            rows = conn.execute(select(*cols).where(sim_hands.c.run_id == run.id).order_by(sim_hands.c.idx)).all()
            created = _utc(run.created)
            for row in rows:
                seats = _json(row.seats)
                payments = _json(row.payments)
                out_seat = (
                    sitting_out_seat(_sim_dealer(row.idx, players, summary, _json(row.record)), players)
                    if players == 4 and len(seats) == 4
                    else None
                )
                game = Game(
                    tuple(
                        (Player("bot", str(name)), int(pay))
                        for s, (name, pay) in enumerate(zip(seats, payments, strict=True))
                        if s != out_seat
                    ),
                    f"{label} sim run {run.id} hand {row.idx}",
                )
                out.append(((created, db, 0, int(run.id), int(row.idx)), game))
    return out


def _web_games(engine: Engine, db: int, label: str) -> list[_Keyed]:
    out: list[_Keyed] = []
    with engine.connect() as conn:
        names = {int(r.id): _json(r.seats) for r in conn.execute(select(web_matches.c.id, web_matches.c.seats))}
        rows = conn.execute(
            select(web_hands.c.match_id, web_hands.c.idx, web_hands.c.created, web_hands.c.dealer, web_hands.c.payments)
        ).all()
        for row in rows:
            seats = names.get(int(row.match_id), [])
            payments = _json(row.payments)
            if len(seats) != len(payments):
                continue
            out_seat = sitting_out_seat(int(row.dealer), 4) if len(seats) == 4 else None
            rated: list[tuple[Player, int]] = []
            for s, (name, pay) in enumerate(zip(seats, payments, strict=True)):
                who = web_player(str(name)) if s != out_seat else None
                if who is not None:
                    rated.append((who, int(pay)))
            game = Game(tuple(rated), f"{label} web match {row.match_id} hand {row.idx}")
            out.append(((_utc(row.created), db, 1, int(row.match_id), int(row.idx)), game))
    return out


def stored_games(urls: Sequence[str]) -> list[Game]:
    """Every stored hand of every database in ``urls`` as a game, in rating order (see the
    module text): the sim runs' hands and the web matches' hands.

    Args:
        urls: SQLite file paths or database URLs; each may hold sim runs, web matches or both.

    Raises:
        ValueError: a URL is not a supported database.
        sqlalchemy.exc.OperationalError: a database cannot be opened or migrated.
    """
    from erqishi.storage import mask_url

    keyed: list[_Keyed] = []
    for db, url in enumerate(urls):
        label = mask_url(url)
        with reading(url) as engine:
            keyed.extend(_sim_games(engine, db, label))
            keyed.extend(_web_games(engine, db, label))
    keyed.sort(key=lambda kg: kg[0])
    return [game for _, game in keyed]


def stored_ratings(urls: Sequence[str], *, tau: float = 0.0) -> RatingTable:
    """The ratings of every bot and named web player from the databases ``urls``
    (:func:`stored_games`, then :func:`rate_games`).

    Raises:
        ValueError: a URL is not a supported database, or a bad ``tau``.
        sqlalchemy.exc.OperationalError: a database cannot be opened or migrated.
    """
    from erqishi.storage import mask_url

    table = rate_games(stored_games(urls), tau=tau)
    return RatingTable(table.ratings, table.games, tau, tuple(mask_url(u) for u in urls))


_KIND = {"bot": "机器人 bot", "player": "玩家 player"}


def render_ratings(table: RatingTable) -> Table:
    """The ratings as a rich table with Chinese and English headings: rank, player, kind,
    the ordinal μ − 3σ, μ, σ, games and wins; the games rated in the caption."""
    # numbers never wrap or shrink (a cut number reads as another); names fold
    out = Table(
        title="等级分 ratings (OpenSkill Plackett-Luce; 保守分 ordinal = μ − 3σ)",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    out.add_column("名次\nrank", justify="right", no_wrap=True)
    out.add_column("选手\nplayer", overflow="fold", ratio=1)
    out.add_column("类\nkind", overflow="fold")
    for head in ("保守分\nordinal", "均值\nμ", "标准差\nσ", "局\ngames", "胜\nwins"):
        out.add_column(head, justify="right", no_wrap=True)
    for i, r in enumerate(table.ratings, 1):
        out.add_row(
            str(i),
            r.player.name,
            _KIND[r.player.kind],
            f"{r.ordinal:.2f}",
            f"{r.mu:.2f}",
            f"{r.sigma:.2f}",
            str(r.games),
            str(r.wins),
        )
    drift = f", τ {table.tau:g}" if table.tau else ""
    out.caption = f"{table.games} 局 games (每手一局 each hand a game, 按收付排名 ranked by payments){drift}"
    return out
