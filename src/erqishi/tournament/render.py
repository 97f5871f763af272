"""A tournament as rich tables for the terminal (``erqishi tournament``), labels in Chinese
and English: a round's tables with each seat's score, the standings or final ranking, and
the listing of stored tournaments. Nothing here prints; the command line does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.table import Table
from rich.text import Text

from erqishi.records.names import printable_name, seat_label
from erqishi.tournament.tournament import Standing, Tournament, TournamentStatus

if TYPE_CHECKING:
    from erqishi.storage.tournaments import TournamentSummary

__all__ = ["STATUS_WORDS", "champion_line", "render_listing", "render_ranking", "render_round", "round_title"]

#: Each status in words (Chinese, English).
STATUS_WORDS: dict[str, tuple[str, str]] = {
    TournamentStatus.REGISTERING.value: ("报名中", "registering"),
    TournamentStatus.PLAYING.value: ("进行中", "playing"),
    TournamentStatus.BETWEEN_ROUNDS.value: ("轮间", "between rounds"),
    TournamentStatus.FINISHED.value: ("已结束", "finished"),
}

#: The seats of a table by the player count, seat 0 dealing first (头家 … 尾家, R-11).
_SEAT_WORDS = {
    2: ("头家 seat 0", "尾家 seat 1"),
    3: ("头家 seat 0", "二家 seat 1", "尾家 seat 2"),
    4: ("头家 seat 0", "二家 seat 1", "三家 seat 2", "尾家 seat 3"),
}


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def round_title(tournament: Tournament, number: int) -> str:
    """``第 2 轮 round 2 (瑞士制 Swiss)`` or ``第 4 轮 round 4: 擂台决赛 leitai final``, with how
    the seating was found."""
    r = tournament.round(number)
    if r.kind == "leitai":
        return f"第 {number} 轮 round {number}: 擂台决赛 leitai final"
    repeats = f"{r.repeats} 重复同桌 repeated pairs" if r.repeats else "无重复同桌 no repeated pairs"
    return f"第 {number} 轮 round {number} (瑞士制 Swiss; {repeats}, seating: {r.method})"


def render_round(tournament: Tournament, number: int) -> Table:
    """Round ``number``'s tables: per seat (seat 0 deals first) the name and its score."""
    r = tournament.round(number)
    table = Table(title=round_title(tournament, number), title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("桌 table", justify="right")
    for word in _SEAT_WORDS[tournament.size]:
        table.add_column(word, no_wrap=True)
    for i, t in enumerate(r.tables):
        names = tournament.seat_names(number, i)
        cells: list[Text] = []
        for seat, entrant in enumerate(t.seats):
            shown = printable_name(names[seat]) if entrant is not None else seat_label(names[seat])
            score = "" if t.result is None else " " + _signed(t.result.totals[seat])
            cells.append(Text(shown + score))
        table.add_row(str(i + 1), *cells)
    return table


def render_ranking(tournament: Tournament, standings: Sequence[Standing] | None = None) -> Table:
    """The standings (by default the final ranking, :meth:`Tournament.ranking`): place,
    name, total, each round, then the tie-breaks (best round, head-to-head, hu) and, after
    a 擂台 final, the finalists' final scores."""
    rows = tournament.ranking() if standings is None else standings
    finished = tournament.status is TournamentStatus.FINISHED
    title = "最终排名 final ranking" if finished else "积分榜 standings"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("名次\nplace", justify="right")
    table.add_column("选手\nplayer", no_wrap=True)
    table.add_column("总分\ntotal", justify="right")
    table.add_column("各轮\nrounds", justify="right", no_wrap=True)
    table.add_column("最佳\nbest", justify="right")
    table.add_column("对阵\nh2h", justify="right")
    table.add_column("胡数\nhu", justify="right")
    table.add_column("胡牌\nwins", justify="right")
    has_final = any(s.final is not None for s in rows)
    if has_final:
        table.add_column("擂台\nfinal", justify="right")
    for s in rows:
        cells: list[str | Text] = [
            str(s.place),
            Text(printable_name(s.name)),
            _signed(s.total),
            " ".join(_signed(v) for v in s.scores),
            _signed(s.best),
            _signed(s.h2h),
            str(s.hu),
            str(s.wins),
        ]
        if has_final:
            cells.append("" if s.final is None else _signed(s.final))
        table.add_row(*cells)
    return table


def champion_line(tournament: Tournament) -> str | None:
    """Who won: ``冠军 champion: NAME``, after a 擂台 final whether the 擂主 defended the
    title; None before the end."""
    champion = tournament.champion
    if champion is None:
        return None
    name = printable_name(tournament.entrants[champion].name)
    final = tournament.final
    if final is None:
        return f"冠军 champion: {name}"
    holder = final.tables[0].seats[0]
    if holder == champion:
        return f"冠军 champion: {name} (擂主守擂成功 the leader defended the title)"
    defender = printable_name(tournament.entrants[holder].name) if holder is not None else "?"
    return f"冠军 champion: {name} (攻擂成功 took the title from {defender})"


def render_listing(found: Sequence[TournamentSummary]) -> Table:
    """Stored tournaments: id, name, status, players, rounds started of all, champion, when."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for col in (
        "id",
        "名称\nname",
        "状态\nstatus",
        "选手\nplayers",
        "轮\nrounds",
        "冠军\nchampion",
        "创建\ncreated (UTC)",
    ):
        table.add_column(col, no_wrap=True)
    for s in found:
        zh, en = STATUS_WORDS.get(s.info.status, (s.info.status, s.info.status))
        table.add_row(
            str(s.id),
            Text(printable_name(s.info.name)),
            f"{zh} {en}",
            str(s.info.players),
            f"{s.info.played}/{s.info.rounds}",
            Text(printable_name(s.info.champion) if s.info.champion else ""),
            s.created.strftime("%Y-%m-%d %H:%M"),
        )
    return table
