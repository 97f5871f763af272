"""争霸赛 tournaments: a :class:`Tournament` value from registration to the champion, with
no I/O (the web server and ``erqishi tournament`` store its :meth:`~Tournament.to_json`).

**Life.** An organiser creates it (name, rule set, Swiss rounds, 圈 per round, start time,
optionally a 擂台 final); players register by name (people, checked by
:func:`erqishi.records.display_name`; bots, named ``LEVEL#N``); the organiser starts each
round. Every method returns a new value (the state machine of :attr:`Tournament.status`:
registering → playing ⇄ between rounds → finished).

**Rounds.** A Swiss round seats everyone at tables of the rule set's player count
(:func:`erqishi.tournament.seating.seat_round`: no repeated co-players while that can be
avoided, bots fill the short tables, seats balanced, similar standings together). Every
table of a round plays a match of ``match_quan`` 圈 (R-2.4) with the same deals
(duplicate): each table's :class:`~erqishi.play.Table` draws its deals from a generator
seeded with the round's :meth:`~Tournament.deal_seed`, its first dealer is seat 0, and the
deal rotates (R-2.2; a tournament refuses ``dealer: winner``, under which the hands of a
match would differ from table to table), so hand *h* of the round is the same deal, dealt
by the same seat, at every table. A table's result is its match totals (score units,
R-8.3), wins and the hu of the wins per seat.

**Standings** (:meth:`Tournament.standings`, after any round): total score over the Swiss
rounds, then the tie-breaks in order:

1. best round (the player's highest round score);
2. head-to-head: among the players still tied, each one's sum over the others of the tie
   of (own score − other's score) in every round the two shared a table;
3. total hu of the hands the player won.

Players still tied share the place (listed in registration order).

**擂台 final** (``leitai``): after the Swiss rounds, the leader (擂主, the champion of the
Swiss standings) defends the title at one final table (seat 0, the first dealer) against
the next ``players − 1`` of the standings (the challengers), over a match of the same
length. The champion keeps the title unless a challenger scores strictly more than the
champion at the final table; then the challenger who scores most (ties: the better Swiss
place) takes it. The finalists take places 1 … players in that order (the title holder
first, the others by final score, then Swiss place); everyone else keeps their Swiss place
order below them (:meth:`Tournament.ranking`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from erqishi.bots import BOTS
from erqishi.core.engine import Match
from erqishi.core.errors import ErqishiError
from erqishi.core.rules import NUMBER_RANGES, DealerRule, RuleSet
from erqishi.records.names import MAX_NAME_CHARS as MAX_PERSON_NAME
from erqishi.records.names import bot_seat_name, display_name, looks_like_bot, name_key, printable_name
from erqishi.tournament.seating import Seating, Tables, seat_round

if TYPE_CHECKING:
    from erqishi.play import Table

__all__ = [
    "FORMAT",
    "MAX_ENTRANTS",
    "MAX_NAME_CHARS",
    "MAX_ROUNDS",
    "MIN_ENTRANTS",
    "Entrant",
    "Round",
    "RoundTable",
    "Standing",
    "TableResult",
    "Tournament",
    "TournamentError",
    "TournamentStatus",
]

#: The version of :meth:`Tournament.to_json`.
FORMAT = 1
#: Fewest entrants to start round 1.
MIN_ENTRANTS = 2
#: Most entrants.
MAX_ENTRANTS = 120
#: Most Swiss rounds.
MAX_ROUNDS = 30
#: The longest tournament name, in characters.
MAX_NAME_CHARS = 48


class TournamentError(ErqishiError):
    """A tournament refused a step (registering, starting a round, recording a result) or
    a stored state does not read; the message says why."""


class TournamentStatus(StrEnum):
    """Where a tournament stands."""

    REGISTERING = "registering"
    PLAYING = "playing"
    BETWEEN_ROUNDS = "between_rounds"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player: a person (``bot`` None) or a bot of level ``bot``."""

    name: str
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class TableResult:
    """What a table's match gave, per seat (bots included): the match totals in score units
    (R-8.3; they sum to 0), the hands won and the hu of those wins (R-7.1), and the hands
    played. (Where its match record is stored is the store's business: the
    ``tournament_matches`` links of :mod:`erqishi.storage.tournaments`.)"""

    totals: tuple[int, ...]
    wins: tuple[int, ...]
    hu: tuple[int, ...]
    hands: int

    @classmethod
    def from_table(cls, table: Table) -> TableResult:
        """The result of a finished match at ``table`` (:class:`erqishi.play.Table`)."""
        n = table.rules.players
        wins, hu = [0] * n, [0] * n
        for hand in table.hands:
            outcome = hand.outcome
            if outcome.is_win and outcome.winner is not None:
                wins[outcome.winner] += 1
                hu[outcome.winner] += outcome.analysis.hu if outcome.analysis is not None else 0
        return cls(tuple(table.match.totals), tuple(wins), tuple(hu), len(table.hands))

    def to_json(self) -> dict[str, Any]:
        """``{"totals", "wins", "hu", "hands"}``."""
        return {"totals": list(self.totals), "wins": list(self.wins), "hu": list(self.hu), "hands": self.hands}


@dataclass(frozen=True, slots=True)
class RoundTable:
    """One table of a round: per seat (seat 0 deals first) an entrant's index or None for
    a bot filler, and its result once recorded."""

    seats: tuple[int | None, ...]
    result: TableResult | None = None

    @property
    def entrants(self) -> tuple[int, ...]:
        """The entrants at the table, in seat order."""
        return tuple(e for e in self.seats if e is not None)


@dataclass(frozen=True, slots=True)
class Round:
    """A round: its number (from 1), ``swiss`` or the ``leitai`` final, its tables, and
    how the seating was found (:class:`~erqishi.tournament.seating.Seating`'s method, or
    ``leitai``) with its repeated pairs."""

    number: int
    kind: Literal["swiss", "leitai"]
    tables: tuple[RoundTable, ...]
    method: str = "swiss"
    repeats: int = 0

    @property
    def is_complete(self) -> bool:
        """Every table's result is in."""
        return all(t.result is not None for t in self.tables)

    def table_of(self, entrant: int) -> int | None:
        """The index of the entrant's table in this round, None when it does not play."""
        for i, t in enumerate(self.tables):
            if entrant in t.seats:
                return i
        return None


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings.

    Attributes:
        place: from 1; tied players share it.
        entrant: the entrant's index; ``name`` and ``bot`` its name and bot level.
        total: score over the Swiss rounds (score units).
        scores: the score of each Swiss round counted, in order.
        best: the best round score (tie-break 1).
        h2h: the head-to-head value among the players tied on total and best (tie-break 2;
            0 when not tied).
        hu: the hu of the hands won (tie-break 3); ``wins`` the hands won.
        final: the score at the 擂台 final table, None when not a finalist.
    """

    place: int
    entrant: int
    name: str
    bot: str | None
    total: int
    scores: tuple[int, ...]
    best: int
    h2h: int
    hu: int
    wins: int
    final: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The standing as JSON."""
        return {
            "place": self.place,
            "entrant": self.entrant,
            "name": self.name,
            "bot": self.bot,
            "total": self.total,
            "scores": list(self.scores),
            "best": self.best,
            "h2h": self.h2h,
            "hu": self.hu,
            "wins": self.wins,
            "final": self.final,
        }


def _tournament_name(name: str) -> str:
    kept = printable_name(name)
    if not kept:
        raise TournamentError("a tournament needs a name with a visible character", zh="争霸赛的名称要有可见的字")
    if len(kept) > MAX_NAME_CHARS:
        raise TournamentError(
            f"a tournament name has at most {MAX_NAME_CHARS} characters", zh=f"争霸赛的名称至多 {MAX_NAME_CHARS} 个字"
        )
    return kept


def _derived(seed: int, *parts: object) -> int:
    """A 63-bit seed derived from the tournament's seed and ``parts`` only."""
    return random.Random(":".join(["erqishi-tournament", str(seed), *map(str, parts)])).getrandbits(63)


@dataclass(frozen=True, slots=True)
class Tournament:
    """A 争霸赛 tournament (see the module text).

    Attributes:
        name: its name.
        rules: the rule set of every table, ``match_quan`` the 圈 per round (R-2.4, R-10).
        rounds: the Swiss rounds.
        seed: every deal, seating and bot choice derives from it.
        start: when it is to start (aware), None if not set; informative only.
        leitai: a 擂台 final follows the Swiss rounds.
        filler: the bot level of the fillers at short tables.
        entrants: the registered players, in registration order.
        played: the rounds started so far.

    Use :meth:`create`; the constructor does not check its values.
    """

    name: str
    rules: RuleSet
    rounds: int
    seed: int
    start: datetime | None = None
    leitai: bool = False
    filler: str = "heuristic"
    entrants: tuple[Entrant, ...] = ()
    played: tuple[Round, ...] = field(default=())

    # ------------------------------------------------------------------ creating

    @classmethod
    def create(
        cls,
        name: str,
        rules: RuleSet | str | Mapping[str, Any] = "leshan",
        *,
        rounds: int = 3,
        match_quan: int = 1,
        seed: int = 0,
        start: datetime | None = None,
        leitai: bool = False,
        filler: str = "heuristic",
    ) -> Tournament:
        """A new tournament, open for registration.

        Args:
            name: its name (printable, at most :data:`MAX_NAME_CHARS` characters).
            rules: a rule set, preset name or options (:meth:`RuleSet.load`); its
                ``match_quan`` is replaced by ``match_quan``.
            rounds: Swiss rounds, 1 to :data:`MAX_ROUNDS`.
            match_quan: 圈 per round (R-2.4), 1–100.
            seed: the seed of every deal, seating and bot choice.
            start: the start time, timezone-aware (None: not set).
            leitai: a 擂台 final after the Swiss rounds.
            filler: the bot level that fills short tables (``erqishi.bots.BOTS``).

        Raises:
            TournamentError: a bad value (the message names it), rules that do not load,
                or ``dealer: winner`` (R-2.2), under which the tables of a round could not
                play the same deals.

        >>> t = Tournament.create("争霸赛", "leshan", rounds=2, seed=7)
        >>> t.status.value, t.match_quan, t.rules.players
        ('registering', 1, 3)
        """
        try:
            base = RuleSet.load(rules)
        except ErqishiError as exc:
            raise TournamentError(f"rules: {exc}", zh=f"规则：{exc.zh or '有误'}") from None
        low, high = NUMBER_RANGES["match_quan"]
        if not isinstance(match_quan, int) or isinstance(match_quan, bool) or not low <= match_quan <= (high or 100):
            raise TournamentError(
                f"圈 per round must be a whole number {low}-{high}, got {match_quan!r}",
                zh=f"每轮的圈数应是 {low}-{high} 的整数，不是 {match_quan!r}",
            )
        if base.dealer is not DealerRule.ROTATE:
            raise TournamentError(
                "a tournament needs dealer: rotate (R-2.2): with dealer: winner the tables of a round "
                "would not play the same deals",
                zh="争霸赛要用 dealer: rotate（轮流坐庄，R-2.2）：赢家坐庄的话，同一轮各桌打的就不是同样的牌",
            )
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentError(
                f"rounds must be a whole number 1-{MAX_ROUNDS}, got {rounds!r}",
                zh=f"轮数应是 1-{MAX_ROUNDS} 的整数，不是 {rounds!r}",
            )
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TournamentError(
                f"the seed must be a whole number, got {seed!r}", zh=f"随机种子要是整数，不是 {seed!r}"
            )
        if start is not None and (not isinstance(start, datetime) or start.utcoffset() is None):
            raise TournamentError(
                "the start time must be a date and time with its time zone", zh="开赛时间要是带时区的日期和时间"
            )
        if filler not in BOTS:
            raise TournamentError(
                f"unknown filler bot {filler!r}; bots are {', '.join(BOTS)}",
                zh=f"没有 {filler!r} 这个补位机器人；机器人有 {'、'.join(BOTS)}",
            )
        return cls(
            name=_tournament_name(name),
            rules=replace(base, match_quan=match_quan),
            rounds=rounds,
            seed=seed,
            start=start,
            leitai=bool(leitai),
            filler=filler,
        )

    # ------------------------------------------------------------------ state

    @property
    def match_quan(self) -> int:
        """圈 per round (R-2.4)."""
        return self.rules.match_quan

    @property
    def size(self) -> int:
        """Seats per table: the rule set's player count (R-10)."""
        return self.rules.players

    @property
    def swiss_played(self) -> tuple[Round, ...]:
        """The Swiss rounds started."""
        return tuple(r for r in self.played if r.kind == "swiss")

    @property
    def final(self) -> Round | None:
        """The 擂台 final, once started."""
        return next((r for r in self.played if r.kind == "leitai"), None)

    @property
    def total_rounds(self) -> int:
        """Rounds to play in all: the Swiss rounds and the 擂台 final if any."""
        return self.rounds + (1 if self.leitai else 0)

    @property
    def status(self) -> TournamentStatus:
        """Registering (no round started), playing (a round's results are still coming),
        between rounds, or finished."""
        if not self.played:
            return TournamentStatus.REGISTERING
        if not self.played[-1].is_complete:
            return TournamentStatus.PLAYING
        if len(self.played) < self.total_rounds:
            return TournamentStatus.BETWEEN_ROUNDS
        return TournamentStatus.FINISHED

    @property
    def is_bots_only(self) -> bool:
        """Every entrant is a bot (``erqishi tournament run`` plays such a tournament)."""
        return all(e.bot is not None for e in self.entrants)

    def round(self, number: int) -> Round:
        """Round ``number`` (from 1).

        Raises:
            TournamentError: no such round has started.
        """
        if not 1 <= number <= len(self.played):
            raise TournamentError(f"round {number} has not started ({len(self.played)} started)")
        return self.played[number - 1]

    def table(self, number: int, table: int) -> RoundTable:
        """Table ``table`` (from 0) of round ``number``.

        Raises:
            TournamentError: no such round or table.
        """
        found = self.round(number)
        if not 0 <= table < len(found.tables):
            raise TournamentError(f"round {number} has tables 0-{len(found.tables) - 1}, not {table}")
        return found.tables[table]

    # ------------------------------------------------------------------ registering

    def _check_open(self) -> None:
        if self.played:
            raise TournamentError("registration is closed: round 1 has started", zh="报名已截止：第 1 轮已经开始")
        if len(self.entrants) >= MAX_ENTRANTS:
            raise TournamentError(
                f"the tournament is full ({MAX_ENTRANTS} players)", zh=f"争霸赛已满（{MAX_ENTRANTS} 人）"
            )

    def _check_new_name(self, name: str) -> None:
        key = name_key(name)  # as people read names: "Ann" is taken by "ＡＮＮ" too
        if any(name_key(e.name) == key for e in self.entrants):
            raise TournamentError(f"the name {name!r} is taken", zh=f"名字 {name!r} 已有人用了")

    def register(self, name: str) -> Tournament:
        """A person registers with ``name`` (:func:`~erqishi.records.display_name`; it may
        not pass for a bot, nor be taken, in any case).

        Raises:
            TournamentError: registration is closed or full, or the name is refused.

        >>> Tournament.create("T").register("阿华").register("小明").entrants[1].name
        '小明'
        """
        self._check_open()
        try:
            kept = display_name(name)
        except ValueError as exc:
            long = "at most" in str(exc)
            zh = f"名字至多 {MAX_PERSON_NAME} 个字" if long else "名字要有可见的字"
            raise TournamentError(f"name: {exc}", zh=f"名字：{zh}") from None
        if looks_like_bot(kept, BOTS):
            raise TournamentError(f"the name {kept!r} would pass for a bot", zh=f"名字 {kept!r} 会被当成机器人")
        self._check_new_name(kept)
        return replace(self, entrants=(*self.entrants, Entrant(kept)))

    def register_bot(self, level: str) -> Tournament:
        """A bot of ``level`` registers, named ``LEVEL#N`` (N counting that level's bots
        from 1).

        Raises:
            TournamentError: registration is closed or full, or no bot of that level.

        >>> Tournament.create("T").register_bot("heuristic").register_bot("heuristic").entrants[1].name
        'heuristic#2'
        """
        self._check_open()
        if level not in BOTS:
            raise TournamentError(
                f"unknown bot {level!r}; bots are {', '.join(BOTS)}",
                zh=f"没有 {level!r} 这个机器人；机器人有 {'、'.join(BOTS)}",
            )
        number = 1 + sum(1 for e in self.entrants if e.bot == level)
        name = f"{level}#{number}"
        self._check_new_name(name)
        return replace(self, entrants=(*self.entrants, Entrant(name, level)))

    # ------------------------------------------------------------------ rounds

    def deal_seed(self, number: int) -> int:
        """The seed of round ``number``'s deals: every table of the round draws its deals
        from ``random.Random(deal_seed)`` (duplicate)."""
        return _derived(self.seed, number, "deals")

    def bot_seed(self, number: int, table: int, seat: int) -> int:
        """The seed of the bot at ``seat`` of ``table`` in round ``number``."""
        return _derived(self.seed, number, table, seat, "bot")

    def _seating_rng(self, number: int) -> random.Random:
        return random.Random(_derived(self.seed, number, "seating"))

    def start_round(self) -> Tournament:
        """Start the next round: seat the next Swiss round, or the 擂台 final after the last
        Swiss round.

        Raises:
            TournamentError: a round is still being played, the tournament is finished, or
                fewer than :data:`MIN_ENTRANTS` have registered.
        """
        status = self.status
        if status is TournamentStatus.PLAYING:
            raise TournamentError(
                f"round {len(self.played)} is still being played", zh=f"第 {len(self.played)} 轮还在打"
            )
        if status is TournamentStatus.FINISHED:
            raise TournamentError("the tournament is finished", zh="争霸赛已经结束")
        if len(self.entrants) < MIN_ENTRANTS:
            raise TournamentError(
                f"a tournament needs at least {MIN_ENTRANTS} players, {len(self.entrants)} registered",
                zh=f"争霸赛至少要 {MIN_ENTRANTS} 人，只有 {len(self.entrants)} 人报名",
            )
        number = len(self.played) + 1
        if number <= self.rounds:
            seating = self.next_seating()
            new = Round(number, "swiss", tuple(RoundTable(t) for t in seating.tables), seating.method, seating.repeats)
        else:
            top = [s.entrant for s in self.standings()[: self.size]]
            seats = tuple(top + [None] * (self.size - len(top)))
            new = Round(number, "leitai", (RoundTable(seats),), "leitai", 0)
        return replace(self, played=(*self.played, new))

    def next_seating(self) -> Seating:
        """The seating of the next Swiss round (:func:`seat_round` over the standings so
        far, players of equal standing in an order drawn from the round's generator)."""
        number = len(self.swiss_played) + 1
        rng = self._seating_rng(number)
        places = {s.entrant: s.place for s in self.standings()}
        order = list(range(len(self.entrants)))
        rng.shuffle(order)
        order.sort(key=lambda e: places[e])
        history: list[Tables] = [tuple(t.seats for t in r.tables) for r in self.swiss_played]
        return seat_round(order, history, rng, size=self.size)

    def record(self, number: int, table: int, result: TableResult, *, replacing: bool = False) -> Tournament:
        """Record the result of ``table`` (from 0) in round ``number``.

        Args:
            replacing: replace a result already in (an organiser's correction).

        Raises:
            TournamentError: no such table, its result is in already (unless
                ``replacing``), or the result does not fit it (one value per seat, totals
                summing to 0, no negative counts).
        """
        current = self.table(number, table)
        if current.result is not None and not replacing:
            raise TournamentError(f"round {number} table {table + 1} has its result already")
        _check_result(result, self.size, f"round {number} table {table + 1}")
        rounds = list(self.played)
        tables = list(rounds[number - 1].tables)
        tables[table] = replace(current, result=result)
        rounds[number - 1] = replace(rounds[number - 1], tables=tuple(tables))
        return replace(self, played=tuple(rounds))

    # ------------------------------------------------------------------ tables

    def seat_names(self, number: int, table: int) -> tuple[str, ...]:
        """The names of the seats of a table, as its records keep them: the entrants' names,
        a filler as its bot seat name (``heuristic-bot-3``, shown as 机器人·稳健 3)."""
        seats = self.table(number, table).seats
        return tuple(
            self.entrants[e].name if e is not None else bot_seat_name(self.filler, s) for s, e in enumerate(seats)
        )

    def seat_bots(self, number: int, table: int) -> tuple[str | None, ...]:
        """The bot level playing each seat of a table: a bot entrant's or the filler's
        level, None for a person."""
        seats = self.table(number, table).seats
        return tuple(self.entrants[e].bot if e is not None else self.filler for e in seats)

    def first_match(self) -> Match:
        """The match state every table of a round starts from: seat 0 deals first
        (R-2.2), totals 0."""
        return Match(self.rules, dealer=0, totals=(0,) * self.size)

    def new_table(self, number: int, table: int) -> Table:
        """A :class:`~erqishi.play.Table` for a table of round ``number``: the round's
        rules, its deal generator (the same deals at every table of the round), seat 0
        dealing first, the seats' names. Nothing else may draw from its generator.

        Raises:
            TournamentError: no such table.
        """
        from erqishi.play import Table

        names = self.seat_names(number, table)
        return Table(self.rules, random.Random(self.deal_seed(number)), names, match=self.first_match())

    # ------------------------------------------------------------------ standings

    def standings(self, through: int | None = None) -> tuple[Standing, ...]:
        """The standings over the Swiss rounds whose results are in (through round
        ``through`` when given), best first, with the tie-breaks of the module text.

        >>> Tournament.create("T").register("阿华").standings()[0].place
        1
        """
        counted = [
            r
            for r in self.swiss_played
            if r.is_complete or any(t.result is not None for t in r.tables)
            if through is None or r.number <= through
        ]
        n = len(self.entrants)
        scores: list[list[int]] = [[] for _ in range(n)]
        hu, wins = [0] * n, [0] * n
        # per round: entrant -> (table index, score)
        at: list[dict[int, tuple[int, int]]] = []
        for r in counted:
            seen: dict[int, tuple[int, int]] = {}
            for ti, t in enumerate(r.tables):
                if t.result is None:
                    continue
                for seat, e in enumerate(t.seats):
                    if e is None:
                        continue
                    score = t.result.totals[seat]
                    scores[e].append(score)
                    hu[e] += t.result.hu[seat]
                    wins[e] += t.result.wins[seat]
                    seen[e] = (ti, score)
            at.append(seen)
        totals = [sum(s) for s in scores]
        best = [max(s) if s else 0 for s in scores]
        groups: dict[tuple[int, int], list[int]] = {}
        for e in range(n):
            groups.setdefault((totals[e], best[e]), []).append(e)
        h2h = [0] * n
        for tied in groups.values():
            if len(tied) < 2:
                continue
            for a in tied:
                for b in tied:
                    if a == b:
                        continue
                    for seen in at:
                        if a in seen and b in seen and seen[a][0] == seen[b][0]:
                            h2h[a] += seen[a][1] - seen[b][1]

        def key(e: int) -> tuple[int, int, int, int]:
            return (-totals[e], -best[e], -h2h[e], -hu[e])

        ordered = sorted(range(n), key=lambda e: (key(e), e))
        out: list[Standing] = []
        for i, e in enumerate(ordered):
            place = out[-1].place if out and key(ordered[i - 1]) == key(e) else i + 1
            entrant = self.entrants[e]
            out.append(
                Standing(
                    place, e, entrant.name, entrant.bot, totals[e], tuple(scores[e]), best[e], h2h[e], hu[e], wins[e]
                )
            )
        return tuple(out)

    def ranking(self) -> tuple[Standing, ...]:
        """The final order: the Swiss standings, with the 擂台 final (when played) deciding
        the first places (module text: the champion keeps the title unless a challenger
        scores strictly more at the final table)."""
        swiss = self.standings()
        final = self.final
        if final is None or final.tables[0].result is None:
            return swiss
        table = final.tables[0]
        result = table.result
        assert result is not None
        score = {e: result.totals[s] for s, e in enumerate(table.seats) if e is not None}
        swiss_place = {s.entrant: i for i, s in enumerate(swiss)}
        champion = table.seats[0]
        finalists = sorted(score, key=lambda e: (-score[e], swiss_place[e]))
        if champion is not None and score[champion] >= score[finalists[0]]:
            finalists.remove(champion)
            finalists.insert(0, champion)
        by_entrant = {s.entrant: s for s in swiss}
        out = [replace(by_entrant[e], place=i + 1, final=score[e]) for i, e in enumerate(finalists)]
        rest = [s for s in swiss if s.entrant not in score]
        for i, s in enumerate(rest):
            same = i > 0 and rest[i - 1].place == s.place
            out.append(replace(s, place=out[-1].place if same else len(out) + 1))
        return tuple(out)

    @property
    def champion(self) -> int | None:
        """The champion's entrant index once the tournament is finished, else None."""
        if self.status is not TournamentStatus.FINISHED or not self.entrants:
            return None
        return self.ranking()[0].entrant

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON (``"format": 1``, ``"kind": "tournament"``);
        :meth:`from_json` reads it back equal."""
        return {
            "format": FORMAT,
            "kind": "tournament",
            "name": self.name,
            "rules": self.rules.to_spec(),
            "rounds": self.rounds,
            "seed": self.seed,
            "start": self.start.isoformat() if self.start is not None else None,
            "leitai": self.leitai,
            "filler": self.filler,
            "entrants": [{"name": e.name, "bot": e.bot} for e in self.entrants],
            "played": [
                {
                    "round": r.number,
                    "kind": r.kind,
                    "method": r.method,
                    "repeats": r.repeats,
                    "tables": [
                        {"seats": list(t.seats), "result": t.result.to_json() if t.result is not None else None}
                        for t in r.tables
                    ],
                }
                for r in self.played
            ],
        }

    @classmethod
    def from_json(cls, data: Any) -> Tournament:
        """A tournament from :meth:`to_json`'s JSON.

        Raises:
            TournamentError: a missing or mistyped field, or a state that does not hold
                together (the message names the field).
        """
        return _read(data)


def _check_result(result: TableResult, size: int, where: str) -> None:
    for name in ("totals", "wins", "hu"):
        values = getattr(result, name)
        if len(values) != size or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise TournamentError(
                f"{where}: {name} must be {size} whole numbers, one per seat",
                zh=f"{where}：{name} 应是 {size} 个整数，每座一个",
            )
    if sum(result.totals) != 0:
        raise TournamentError(
            f"{where}: the totals must sum to 0 (R-8), got {list(result.totals)}",
            zh=f"{where}：总分之和应为 0（R-8），这里是 {sum(result.totals)}",
        )
    if any(v < 0 for v in (*result.wins, *result.hu)) or result.hands < 0:
        raise TournamentError(
            f"{where}: wins, hu and hands cannot be negative", zh=f"{where}：胡牌次数、胡数和手数不能为负"
        )


# ---------------------------------------------------------------------- reading JSON


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        zh = f"存下的争霸赛已损坏：{where} 有误" if where else "存下的争霸赛已损坏：不是 JSON 对象"
        raise TournamentError(f"tournament {where}: {what}", zh=zh)


def _int(data: Mapping[str, Any], key: str, where: str) -> int:
    value = data.get(key)
    _need(isinstance(value, int) and not isinstance(value, bool), f"{where}{key}", "must be a whole number")
    assert isinstance(value, int)
    return value


def _ints(value: Any, where: str, size: int) -> tuple[int, ...]:
    _need(
        isinstance(value, list)
        and len(value) == size
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value),
        where,
        f"must be a list of {size} whole numbers",
    )
    return tuple(value)


def _read(data: Any) -> Tournament:
    _need(isinstance(data, dict), "", "must be a JSON object")
    _need(data.get("kind") == "tournament", "kind", 'must be "tournament"')
    _need(data.get("format") == FORMAT, "format", f"must be {FORMAT}")
    name = data.get("name")
    _need(isinstance(name, str), "name", "must be a string")
    rules_data = data.get("rules")
    _need(isinstance(rules_data, str | dict), "rules", "must be a preset name or an object of options")
    try:
        rules = RuleSet.load(rules_data)
    except ErqishiError as exc:
        raise TournamentError(f"tournament rules: {exc}", zh=f"存下的争霸赛已损坏：规则：{exc.zh or '有误'}") from None
    start_text = data.get("start")
    start = None
    if start_text is not None:
        _need(isinstance(start_text, str), "start", "must be an ISO date and time or null")
        try:
            start = datetime.fromisoformat(start_text)
        except ValueError:
            raise TournamentError(
                f"tournament start: not an ISO date and time: {start_text!r}",
                zh="存下的争霸赛已损坏：start 不是 ISO 日期时间",
            ) from None
    leitai = data.get("leitai")
    _need(isinstance(leitai, bool), "leitai", "must be true or false")
    filler = data.get("filler")
    _need(isinstance(filler, str), "filler", "must be a bot level")
    try:
        base = Tournament.create(
            name,
            rules,
            rounds=_int(data, "rounds", ""),
            match_quan=rules.match_quan,
            seed=_int(data, "seed", ""),
            start=start,
            leitai=leitai,
            filler=filler,
        )
    except TournamentError as exc:
        raise TournamentError(f"tournament: {exc}", zh=f"存下的争霸赛已损坏：{exc.zh or '有误'}") from None
    raw_entrants = data.get("entrants")
    _need(isinstance(raw_entrants, list), "entrants", "must be a list")
    entrants: list[Entrant] = []
    for i, e in enumerate(raw_entrants):
        where = f"entrants[{i}]"
        _need(isinstance(e, dict) and isinstance(e.get("name"), str), where, "must be an object with a name")
        bot = e.get("bot")
        _need(bot is None or bot in BOTS, f"{where}.bot", "must be null or a bot level")
        entrants.append(Entrant(e["name"], bot))
    _need(len({e.name.casefold() for e in entrants}) == len(entrants), "entrants", "repeat a name")
    raw_rounds = data.get("played")
    _need(isinstance(raw_rounds, list), "played", "must be a list")
    size = rules.players
    played: list[Round] = []
    for i, r in enumerate(raw_rounds):
        where = f"played[{i}]"
        _need(isinstance(r, dict), where, "must be an object")
        _need(r.get("round") == i + 1, f"{where}.round", f"must be {i + 1}")
        kind = r.get("kind")
        _need(kind in ("swiss", "leitai"), f"{where}.kind", 'must be "swiss" or "leitai"')
        _need((kind == "swiss") == (i < base.rounds), f"{where}.kind", "swiss rounds come first, then the final")
        method = r.get("method")
        _need(isinstance(method, str), f"{where}.method", "must be a string")
        raw_tables = r.get("tables")
        _need(isinstance(raw_tables, list) and bool(raw_tables), f"{where}.tables", "must be a list of tables")
        tables: list[RoundTable] = []
        seen: set[int] = set()
        for j, t in enumerate(raw_tables):
            tw = f"{where}.tables[{j}]"
            _need(isinstance(t, dict), tw, "must be an object")
            seats = t.get("seats")
            _need(
                isinstance(seats, list)
                and len(seats) == size
                and all(
                    s is None or (isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(entrants))
                    for s in seats
                ),
                f"{tw}.seats",
                f"must be {size} entrant indices or nulls",
            )
            people = [s for s in seats if s is not None]
            _need(
                not seen.intersection(people) and len(set(people)) == len(people), f"{tw}.seats", "seat a player twice"
            )
            seen.update(people)
            result = None
            raw_result = t.get("result")
            if raw_result is not None:
                _need(isinstance(raw_result, dict), f"{tw}.result", "must be an object or null")
                result = TableResult(
                    _ints(raw_result.get("totals"), f"{tw}.result.totals", size),
                    _ints(raw_result.get("wins"), f"{tw}.result.wins", size),
                    _ints(raw_result.get("hu"), f"{tw}.result.hu", size),
                    _int(raw_result, "hands", f"{tw}.result."),
                )
                _check_result(result, size, f"tournament {tw}.result")
            tables.append(RoundTable(tuple(seats), result))
        if kind == "swiss":
            _need(seen == set(range(len(entrants))), f"{where}.tables", "must seat every entrant once")
        if i + 1 < len(raw_rounds):
            _need(
                all(t.result is not None for t in tables), where, "a round before the last has a table without a result"
            )
        played.append(Round(i + 1, kind, tuple(tables), method, _int(r, "repeats", f"{where}.")))
    _need(len(played) <= base.total_rounds, "played", f"more rounds than the tournament's {base.total_rounds}")
    _need(
        not played or len(entrants) >= MIN_ENTRANTS, "entrants", f"fewer than {MIN_ENTRANTS} for a started tournament"
    )
    return replace(base, entrants=tuple(entrants), played=tuple(played))
