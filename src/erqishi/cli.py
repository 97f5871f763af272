"""The ``erqishi`` command line (Typer): ``score``, ``waits``, ``rules``, ``verify``,
``replay``, ``sim``, ``runs``, ``report``, ``ratings``, ``play``, ``learn``, ``serve``,
``tournament`` (``run``, ``resume``, ``list``, ``show``).

Exit codes: 0 a win (or a listing made, a legal record), 1 valid cards that do not win
(or no waits, a record with an illegal step), 2 invalid input, with a one-line message on
standard error and never a traceback; ``verify --json`` prints its verdict on an invalid
or unreadable record too (FORMATS.md "Machine output"), as one JSON object on standard
output.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, NoReturn, TypeVar

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer.core import TyperCommand, TyperGroup

import erqishi
from erqishi.core import (
    Card,
    ErqishiError,
    Fan,
    Group,
    GroupKind,
    HandAnalyzer,
    HandResult,
    IllegalActionError,
    InvalidHandError,
    InvalidRulesError,
    NoWinReason,
    RecordError,
    RuleSet,
    WinContext,
    WinSource,
    format_cards,
    parse_cards,
    parse_meld,
    settle,
)
from erqishi.core.rule_info import (
    OPTIONS,
    PRESET_NAMES,
    describe_option,
    describe_rules,
    differences,
    option_item,
    preset_name,
)
from erqishi.core.rules import LESHAN, PRESETS
from erqishi.records import (
    HandRecord,
    HandVerdict,
    InvalidVerdict,
    MatchRecord,
    MatchVerdict,
    load_record,
)
from erqishi.records import verify as verify_record

if TYPE_CHECKING:  # the sim package loads only with its command
    from erqishi.sim import StoredRun

_HELP_OPTION: Final = "显示本帮助并退出 · Show this message and exit."


_PlainFormatter: Any = typer.Context.formatter_class


class _WideFormatter(_PlainFormatter):  # type: ignore[misc]
    """The help formatter, with paragraphs and option and command lists that hold Chinese
    broken by terminal columns (:func:`_wrap_wide`): the library counts a Chinese character
    as one column, so its lines of Chinese ran up to twice too wide."""

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        rows = list(rows)
        first = min(max((len(name) for name, _ in rows), default=0), col_max) + col_spacing
        width = max(self.width - first - 4, 10)  # 2 to spare: closing punctuation stays on its line
        wrapped = [
            (name, "\b\n" + "\n".join(_wrap_wide(text, width)) if _WIDE.search(text) else text) for name, text in rows
        ]
        super().write_dl(wrapped, col_max, col_spacing)

    def write_text(self, text: str) -> None:
        width = self.width - self.current_indent - 2
        paragraphs = []
        for paragraph in text.split("\n\n"):
            lines = [line.strip() for line in paragraph.splitlines()]
            if lines and lines[0] != "\b" and _WIDE.search(paragraph):
                joined = lines[0]
                for line in lines[1:]:  # no space between two Chinese characters
                    joined += line if _WIDE.match(line) and _WIDE.match(joined[-1:]) else " " + line
                paragraph = "\b\n" + "\n".join(_wrap_wide(joined, width))
            paragraphs.append(paragraph)
        super().write_text("\n\n".join(paragraphs))


class _Context(typer.Context):
    """A command's context, formatting its help with :class:`_WideFormatter`."""

    formatter_class = _WideFormatter


#: a Chinese character (or full-width punctuation): two terminal columns
_WIDE: Final = re.compile("[\u2e80-\uffff]")


def _help_in_both(option: Any) -> Any:
    """The ``--help`` option of a command, its own help in Chinese and English."""
    if option is not None:
        option.help = _HELP_OPTION
    return option


class _Command(TyperCommand):
    """A command whose ``--help`` option explains itself in Chinese and English, its help
    formatted for Chinese (:class:`_WideFormatter`)."""

    context_class = _Context

    def get_help_option(self, ctx: Any) -> Any:
        return _help_in_both(super().get_help_option(ctx))


class _Group(TyperGroup):
    """:class:`_Command` for a group of commands."""

    context_class = _Context

    def get_help_option(self, ctx: Any) -> Any:
        return _help_in_both(super().get_help_option(ctx))


#: ``-h`` as well as ``--help``, on every command
_CONTEXT: Final = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    name="erqishi",
    cls=_Group,
    context_settings=_CONTEXT,
    help=(
        "贰柒拾（乐山）：在终端或浏览器里打牌、算分、查下叫、核对和回放牌局记录、让机器人对打。\n\n"
        "贰柒拾 (Leshan 2-7-10): play in the terminal or the browser, score hands, list waits, "
        "verify and replay records, run bot tournaments."
    ),
    add_completion=False,
    invoke_without_command=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

T = TypeVar("T")


class _Console(Console):
    """A rich console whose reader may go away (``| head``) without changing the exit code."""

    def on_broken_pipe(self) -> None:
        import os

        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


_out = _Console(highlight=False, soft_wrap=True)


class _Exit(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


def _zh_en(zh: str, en: str) -> str:
    """An option's help: Chinese, then English (every screen in both languages)."""
    return f"{zh} · {en}"


#: control characters (C0, DEL, C1): a file name or a seat name holding them must neither
#: split an error line nor reach the terminal as a command
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


#: the password of a URL in a text (``postgresql://user:PASSWORD@host``), up to its last @;
#: one given in its query string (``?password=…``)
_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:)(\S*)@")
_QUERY_PASSWORD = re.compile(r"([?&]password=)([^&#\s]*?)(?=[&#\s]|:\s|:?$)", re.IGNORECASE)


def _masked(m: re.Match[str]) -> str:
    """A URL's ``user:password@`` with the password masked (the help's own ``PASSWORD``
    placeholder kept)."""
    return m.group(0) if m.group(2) == "PASSWORD" else f"{m.group(1)}***@"


def _visible(text: str) -> str:
    """``text`` for the terminal: each control character written as an escape (``\\n``,
    ``\\x1b``), and passwords masked (:func:`_unsecret`)."""
    return _unsecret(_CONTROL.sub(lambda m: repr(m.group())[1:-1], text))


def _unsecret(text: str) -> str:
    """``text`` with the password of any database URL in it masked (``***``), in the URL
    and in its query string, and the parts of a password holding a raw ``@`` that a
    driver's message may quote."""
    hidden = {m.group(2) for m in _PASSWORD.finditer(text) if m.group(2) not in ("***", "PASSWORD")}
    hidden |= {m.group(2) for m in _QUERY_PASSWORD.finditer(text) if m.group(2) != "***"}
    text = _QUERY_PASSWORD.sub(r"\1***", _PASSWORD.sub(_masked, text))
    for secret in hidden:
        for part in {secret, *secret.split("@")}:
            if len(part) >= 3:
                text = text.replace(part, "***")
    return text


def _error_line(zh: str, en: str) -> str:
    """An error's one line for standard error: ``erqishi: error: 中文 · English`` (control
    characters escaped, so it stays one line and prints nothing but text)."""
    return f"erqishi: error: {_visible(zh)} · {_visible(en)}\n"


def _fail(zh: str, en: str) -> NoReturn:
    """Print the error in Chinese and English on one line of standard error; exit code 2."""
    sys.stderr.write(_error_line(zh, en))
    raise _Exit(2)


#: what went wrong, in Chinese, by the kind of error, for an error raised without its
#: Chinese (its ``zh``)
_ZH_KINDS: tuple[tuple[type[BaseException], str], ...] = (
    (InvalidHandError, "手牌有误"),
    (InvalidRulesError, "规则有误"),
    (IllegalActionError, "这一步不合规则"),
)


def _zh_gist(exc: BaseException) -> str:
    """An error in Chinese: its own ``zh`` (:class:`ErqishiError`), else its kind (and the
    field of a record's error). The English message beside it gives every detail."""
    zh = getattr(exc, "zh", "")
    if isinstance(exc, RecordError):
        field = getattr(exc, "field", None)
        detail = zh or (f"{field} 有误" if field else "")
        return f"牌局记录无效：{detail}" if detail else "牌局记录无效"
    if isinstance(zh, str) and zh:
        return zh
    for kind, text in _ZH_KINDS:
        if isinstance(exc, kind):
            return text
    return "输入有误"


def _fail_with(exc: BaseException, zh: str = "", en: str = "") -> NoReturn:
    """:func:`_fail` for an error raised below the CLI: ``zh``/``en`` (a file, an option)
    open the line, then the error in Chinese (:func:`_zh_gist`) and in English."""
    gist = _zh_gist(exc)
    _fail(f"{zh}：{gist}" if zh else gist, f"{en}: {exc}" if en else str(exc))


def _start_bots(names: Iterable[str], option: str = "--bots") -> None:
    """Start each bot of ``names`` once, so that one that cannot (the learned bot with
    damaged weights) is one line naming it, not a traceback from inside a game."""
    from erqishi.bots import BOTS, BotLoadError, start_bot

    for name in dict.fromkeys(names):
        if name not in BOTS:
            continue  # the caller says which names exist
        try:
            start_bot(name)
        except BotLoadError as exc:
            _fail(f"{option}：{exc.zh}", f"{option}: {exc}")


#: an operating system's error in Chinese, by its errno (the English is its strerror)
_ZH_OS = {
    errno.ENOENT: "没有这个文件或文件夹",
    errno.EACCES: "没有权限",
    errno.EPERM: "不允许",
    errno.EISDIR: "这是个文件夹",
    errno.ENOTDIR: "路径中有一项不是文件夹",
    errno.ENOSPC: "磁盘已满",
    errno.EROFS: "文件系统只读",
    errno.ENAMETOOLONG: "名字太长",
}


def _because(zh: str, exc: OSError) -> str:
    """``zh``, then why the operating system call failed in Chinese when it is a common
    reason (``写不了报告 x：磁盘已满``)."""
    why = _ZH_OS.get(exc.errno or 0)
    return f"{zh}：{why}" if why else zh


def _cannot_read(path: object, exc: OSError) -> tuple[str, str]:
    """``读不了 PATH：原因`` and ``cannot read PATH: reason``."""
    return _because(f"读不了 {path}", exc), f"cannot read {path}: {exc.strerror or exc}"


def _db_given(value: Any) -> Any:
    """``--db``: an empty or blank value names no database, and is refused at once."""
    values = value if isinstance(value, list) else [value]
    if any(isinstance(v, str) and not v.strip() for v in values):
        raise typer.BadParameter("is empty: give an SQLite file path or a database URL")
    return value


def _emit(fn: Callable[[], object]) -> None:
    """Print; a reader that goes away (``| head``), or no standard output at all, does not
    change the exit code."""
    try:
        fn()
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _guard(where: str, fn: Callable[[], T], where_zh: str = "") -> T:
    """Run ``fn``; turn an :class:`ErqishiError` into a one-line error naming ``where``
    (``where_zh`` in Chinese, by default the same)."""
    try:
        return fn()
    except ErqishiError as exc:
        _fail_with(exc, where_zh or where, where)


# ---------------------------------------------------------------------------------
# shared reading of a hand


def _read_hand(hand: str) -> tuple[Card, ...]:
    cards = _guard("hand", lambda: parse_cards(hand), "手牌")
    if not cards:
        _fail("手牌是空的", "hand: the hand is empty")
    return cards


def _read_melds(melds: Sequence[str]) -> tuple[Group, ...]:
    groups: list[Group] = []
    for i, text in enumerate(melds):
        try:
            groups.append(parse_meld(text))
        except ErqishiError as exc:
            _fail_with(exc, f"亮出的第 {i + 1} 房", f"meld {i + 1} ({text!r})")
    return tuple(groups)


def _read_rules(spec: str) -> RuleSet:
    return _guard("--rules", lambda: RuleSet.load(spec))


def _context(source: str, tian: bool, di: bool, quan: int | None) -> WinContext:
    if tian and di:
        _fail("--tian 和 --di 不能同时给", "--tian and --di cannot both be given")
    try:
        src = WinSource(source)
    except ValueError:
        _fail(
            f"--source 只能是 discard、flip 或 own_flip，不是 {source!r}",
            f"--source must be discard, flip or own_flip, got {source!r}",
        )
    if src is WinSource.TIAN:
        _fail("天胡用 --tian，不用 --source tian", "use --tian for 天胡, not --source tian")
    if tian:
        src = WinSource.TIAN
    return _guard("", lambda: WinContext(src, di, quan))


# ---------------------------------------------------------------------------------
# output


def _payments(result: HandResult, rules: RuleSet) -> list[dict[str, Any]]:
    """Who pays what for this win (R-8), by role, with the winner as seat 0."""
    source = result.context.source
    n = rules.players
    if n == 4:
        seats = [0, 1, 2]
        sitting_out: int | None = 3
    else:
        seats = list(range(n))
        sitting_out = None
    discarder = seats[-1] if source is WinSource.DISCARD else None
    pay = settle(result.score, source, 0, rules, discarder=discarder, sitting_out=sitting_out)
    rows: list[dict[str, Any]] = []
    for seat in range(n):
        if seat == 0:
            role = "winner"
        elif seat == sitting_out:
            role = "sitting_out"
        elif seat == discarder:
            role = "discarder"
        else:
            role = "other"
        rows.append({"role": role, "amount": pay[seat]})
    return rows


_ROLE_ZH = {"winner": "胡家", "discarder": "点炮", "other": "另一家", "sitting_out": "歇家"}


def _result_json(result: HandResult, rules: RuleSet) -> dict[str, Any]:
    out: dict[str, Any] = {"win": result.is_win}
    if not result.is_win:
        assert result.reason is not None
        out["reason"] = result.reason.value
        out["reason_zh"] = result.reason.chinese
    out["hu"] = result.hu
    out["base"] = result.base
    out["tier"] = None if result.tier is None else result.tier.name
    out["fan"] = result.fan_names
    out["fan_count"] = result.fan_count
    out["score"] = result.score
    out["groups"] = [
        {
            "kind": g.kind.value,
            "name": g.name,
            "cards": format_cards(g.cards, ascii=True),
            "exposed": g.exposed,
            "yu": g.yu,
            "winning": g.winning,
            "hu": g.hu,
        }
        for g in result.groups
    ]
    if result.is_win:
        out["source"] = result.context.source.value
        out["payments"] = _payments(result, rules)
    return out


def _group_table(result: HandResult) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("房 group")
    table.add_column("牌 cards")
    table.add_column("胡 hu", justify="right")
    for g in result.groups:
        where = "（亮，下雨）" if g.yu else "（亮）" if g.exposed else ("（胡牌）" if g.winning else "")
        cards = "".join(f"[red]{c}[/red]" if c.is_big else str(c) for c in g.cards)
        table.add_row(f"{g.name}{where}", cards, str(g.hu))
    return table


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _quads(q: int) -> str:
    return "no quad" if q == 0 else f"{q} quad" + ("s" if q > 1 else "")


def _can_make_quad(cards: Sequence[Card], melds: Sequence[Group], rules: RuleSet, win: Card | None = None) -> bool:
    """Whether the winning card (``win``, or any card when None) could make a new quad: it
    completes a 坎 in the hand into a 开 (R-3.2), or, under ``yu``, an exposed 对 (R-5.13)."""
    held = [c for c in set(cards) if cards.count(c) == 3]
    if rules.yu:
        held += [g.cards[0] for g in melds if g.kind is GroupKind.DUI]
    return any(win is None or c == win for c in held)


def _size_needed(q: int, short: int, more: bool, maker: str = "the winning card") -> str:
    """What R-4.4 asks of a hand with ``q`` quads: a win holds 21 + max(0, q − 1) cards,
    ``short`` cards fewer (1 for one short of a win); ``more``: the winning card (``maker``)
    may make one more quad, which asks one card more."""
    need = 21 + max(0, q - 1) - short
    what = "one short of a win is" if short else "a win holds"
    text = f"{what} {need}" if q == 0 else f"with {_quads(q)} {what} {need}"
    if more and q >= 1:
        text += f", or {need + 1} if {maker} makes another quad"
    return text + " (R-4.4)"


def _print_result(result: HandResult, rules: RuleSet, analyzer: HandAnalyzer, cards: Sequence[Card]) -> None:
    total = analyzer.card_total + (result.win_card is not None)
    if not result.is_win:
        assert result.reason is not None
        why = f"{result.reason.chinese} ({result.reason.english})"
        if result.reason in (NoWinReason.TOO_MANY, NoWinReason.TOO_FEW):
            win = result.win_card
            where = "in hand, melds and winning card" if win is not None else "in the dealt hand"
            more = win is not None and _can_make_quad(cards, analyzer.melds, rules, win)
            why += f": {_cards(total)} {where}; {_size_needed(analyzer.quads, 0, more, str(win))}"
        _out.print(f"不胡 no win: {why}")
        if result.groups:
            _out.print(f"best grouping holds {result.hu} 胡:")
            _out.print(_group_table(result))
        return
    _out.print(_group_table(result))
    assert result.tier is not None
    _out.print(f"合计 total: {result.hu} 胡 → {result.tier.name}, 规格 base {result.tier.base}")
    flat = result.fan_count == 0 and Fan.TIANHU in result.fans
    if flat:
        _out.print("番 fan: 天胡 scores a flat 100 under tianhu: fixed_100 (other 番 do not count)")
    elif result.fans:
        fans = "、".join(result.fan_names)
        _out.print(f"番 fan: {fans} (×{2**result.fan_count})")
    else:
        _out.print("番 fan: 无 none")
    _out.print(f"得分 score: {result.score}")
    source = result.context.source
    rows = _payments(result, rules)
    parts = [f"{_ROLE_ZH[r['role']]} {r['amount']:+d}" for r in rows if r["role"] != "sitting_out"]
    capped = rules.cap is not None and result.score > rules.cap
    notes = []
    if capped:
        notes.append(f"score capped at {rules.cap} per payer")
    if source is WinSource.DISCARD:
        factor = rules.taipao_factor
        label = "包三家: " if factor == 3 else ""
        notes.append(f"{label}点炮 pays {factor} × {'the capped ' if capped else ''}score")
    note = f" ({'; '.join(notes)})" if notes else ""
    _out.print(f"结算 {source.chinese} ({source.value}): " + ", ".join(parts) + note)


# ---------------------------------------------------------------------------------
# commands


HandArg = Annotated[
    str,
    typer.Argument(
        help=_zh_en("手牌（未亮出的牌）：一二三壹 或 x1 x2 x3 d1", "concealed hand: 一二三壹 or x1 x2 x3 d1"),
        show_default=False,
    ),
]
MeldOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--meld",
        "-m",
        metavar="MELD",
        help=_zh_en(
            "亮出的一房（每房给一次 -m，可多次给出）：一一一 对，五五五五 开，二七十 吃；"
            "下雨（yu 选项下，亮出的对加上第四张）开的写作 三三三+三",
            "an exposed meld (repeat): 一一一 对, 五五五五 开, 二七十 吃; a 开 made under the yu "
            "option by adding the fourth card to an exposed 对 (下雨) is written 三三三+三",
        ),
    ),
]
RulesOpt = Annotated[
    str,
    typer.Option(
        "--rules",
        "-r",
        help=_zh_en(
            f"预设（{'、'.join(PRESETS)}），或以 leshan 为基础、用 JSON 改写的选项，选项名见 `erqishi rules`",
            f"preset ({' '.join(PRESETS)}) or JSON options over leshan, any option of `erqishi rules` by its "
            """name, e.g. '{"preset": "app", "cap": 80, "piao_fan": false, "shuang_quan": false}' (R-10)""",
        ),
    ),
]
QuanOpt = Annotated[
    int | None,
    typer.Option(
        "--quan",
        help=_zh_en(
            "第几圈，1-10（圈牌是同点数的大牌，如第 2 圈为贰）",
            "圈 number 1-10 (its card is the big card of that rank)",
        ),
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help=_zh_en("输出 JSON", "print JSON"))]
LangOpt = Annotated[
    str | None, typer.Option("--lang", help=_zh_en("语言：zh 中文（默认）或 en 英文", "zh (中文, default) or en"))
]
SimDbOpt = Annotated[
    str,
    typer.Option(
        "--db",
        callback=_db_given,
        help=_zh_en(
            "`erqishi sim` 的 SQLite 文件（或 SQLAlchemy URL）", "the SQLite file (or SQLAlchemy URL) of `erqishi sim`"
        ),
    ),
]


def _print_version(value: bool) -> None:
    if value:
        print(erqishi.build_description())
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help=_zh_en(
                "显示版本号和正在运行的版本（纯 Python 或 mypyc 编译版）",
                "print the version and which build runs (pure Python or compiled with mypyc)",
            ),
        ),
    ] = False,
) -> None:
    """贰柒拾 (Leshan 2-7-10): score hands, list waits, show rule sets."""
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())


@app.command(short_help="算分 Score a hand: win or not, the grouping, hu, 番, score")
def score(
    hand: Annotated[
        str | None,
        typer.Argument(
            help=_zh_en("手牌（未亮出的牌）：一二三壹 或 x1 x2 x3 d1", "concealed hand: 一二三壹 or x1 x2 x3 d1"),
            show_default=False,
        ),
    ] = None,
    meld: MeldOpt = None,
    win: Annotated[str | None, typer.Option("--win", "-w", help=_zh_en("胡的那张牌", "the winning card"))] = None,
    source: Annotated[
        str,
        typer.Option(
            "--source",
            "-s",
            help=_zh_en(
                "胡牌来源：discard 抬炮，flip 翻胡，own_flip 自摸", "discard (抬炮), flip (翻胡), own_flip (自摸)"
            ),
        ),
    ] = "discard",
    tian: Annotated[
        bool,
        typer.Option(
            "--tian", help=_zh_en("天胡：庄家起手的 21 张，不要给 --win", "天胡: the dealer's 21 dealt cards, no --win")
        ),
    ] = False,
    di: Annotated[
        bool,
        typer.Option(
            "--di", help=_zh_en("地胡：胡庄家起手打出的第一张", "地胡: a win on the dealer's opening discard")
        ),
    ] = False,
    quan: QuanOpt = None,
    rules: RulesOpt = "leshan",
    as_json: JsonOpt = False,
    cases: Annotated[
        Path | None,
        typer.Option(
            "--cases",
            help=_zh_en(
                '逐个计算 cases JSON 文件里的每手牌，每手一行 JSON（按该条的 "ruleset" 字段，没有则按 --rules）',
                'score every case of a cases JSON file, one JSON line each (under its "ruleset", else --rules)',
            ),
        ),
    ] = None,
) -> None:
    """Score a hand: legal win or not, the best grouping, hu, tier, 番, score and payments."""
    rule_set = _read_rules(rules)
    if cases is not None:
        given = [
            name for name, value in (("HAND", hand), ("--meld", meld), ("--win", win), ("--quan", quan)) if value
        ] + [name for name, flag in (("--tian", tian), ("--di", di)) if flag]
        if source != "discard":
            given.append("--source")
        if given:
            _fail(
                f"--cases FILE 的每手牌都从文件里读；请去掉 {'、'.join(given)}",
                f"--cases FILE takes every hand from the file; drop {', '.join(given)}",
            )
        _score_cases(cases, rule_set)
        return
    if hand is None:
        _fail("缺少手牌 HAND（或 --cases FILE）", "missing HAND (or --cases FILE)")
    cards = _read_hand(hand)
    melds = _read_melds(meld or [])
    analyzer = _guard("", lambda: HandAnalyzer(cards, melds, rule_set))
    if tian and source != "discard":
        _fail(
            "--tian 不能和 --source 一起给：天胡胡的是起手的牌",
            "--tian takes no --source: 天胡 is won on the dealt cards",
        )
    ctx = _context(source, tian, di, quan)
    if tian:
        if win is not None:
            _fail(
                "--tian 不带 --win：天胡是庄家起手的 21 张",
                "--tian takes no --win: 天胡 is the dealer's 21 dealt cards",
            )
        win_card: Card | None = None
    else:
        if win is None:
            _fail("要用 --win 给出胡的那张牌（天胡则用 --tian）", "--win CARD is needed (or --tian for 天胡)")
        win_card = _guard("--win", lambda: Card.parse(win))
    result = _guard("", lambda: analyzer.evaluate(win_card, ctx))
    code = 0 if result.is_win else 1
    if as_json:
        _emit(lambda: print(json.dumps(_result_json(result, rule_set), ensure_ascii=False)))
    else:
        _emit(lambda: _print_result(result, rule_set, analyzer, cards))
    raise _Exit(code)


def _score_cases(path: Path, rules: RuleSet) -> None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        _fail(*_cannot_read(path, exc))
    except (UnicodeDecodeError, ValueError) as exc:
        _fail(f"{path} 不是有效的 JSON", f"{path} is not valid JSON: {exc}")
    except RecursionError:
        _fail(f"{path} 不是有效的 JSON：嵌套太深", f"{path} is not valid JSON: nested too deeply")
    if not isinstance(data, list):
        _fail(f"{path}：应是一个由牌例组成的 JSON 列表", f"{path}: expected a JSON list of cases")
    lines = [json.dumps(_score_case(i, case, rules), ensure_ascii=False) for i, case in enumerate(data)]
    if lines:  # JSON lines: one per case, none for no case
        _emit(lambda: print("\n".join(lines)))


_CASE_KEYS = {"id", "hand", "melds", "win", "context", "expect", "rules", "ruleset", "note"}
_CONTEXT_KEYS = {"win_source", "tian", "di", "quan"}


def _case_rules(case: dict[str, Any], default: RuleSet) -> RuleSet:
    """The rule set a case is scored under (FORMATS.md): its ``ruleset`` (a preset name or
    an options object over ``leshan``, R-10), else ``default`` (``--rules``).

    Raises:
        InvalidRulesError: an unknown preset, option or value (the message names it).
        InvalidHandError: ``ruleset`` is neither a name nor an object.
    """
    if "ruleset" not in case:
        return default
    spec = case["ruleset"]
    if isinstance(spec, str):
        return RuleSet.preset(spec)
    if isinstance(spec, dict):
        return RuleSet.from_options(spec)
    shown = json.dumps(spec, ensure_ascii=False)
    raise InvalidHandError(f"'ruleset' must be a preset name or an object of options, got {shown}")


def _score_case(i: int, case: Any, default: RuleSet) -> dict[str, Any]:
    if not isinstance(case, dict):
        return {"id": None, "error": f"case {i}: expected an object"}
    cid = case.get("id")
    try:
        unknown = sorted(set(case) - _CASE_KEYS)
        if unknown:
            raise InvalidHandError(f"unknown key {unknown[0]!r}")
        try:
            rules = _case_rules(case, default)
        except ErqishiError as exc:
            raise InvalidHandError(f"ruleset: {exc}") from None
        hand = case.get("hand")
        if not isinstance(hand, str):
            raise InvalidHandError("'hand' must be a card string")
        melds = case.get("melds", [])
        if not isinstance(melds, list) or not all(isinstance(m, str) for m in melds):
            raise InvalidHandError("'melds' must be a list of card strings")
        ctx_data = case.get("context", {})
        if not isinstance(ctx_data, dict):
            raise InvalidHandError("'context' must be an object")
        unknown = sorted(set(ctx_data) - _CONTEXT_KEYS)
        if unknown:
            raise InvalidHandError(f"unknown key 'context.{unknown[0]}'")
        flags = {}
        for key in ("tian", "di"):
            value = ctx_data.get(key, False)
            if not isinstance(value, bool):
                raise InvalidHandError(f"'context.{key}' must be true or false, got {json.dumps(value)}")
            flags[key] = value
        win = case.get("win")
        if win is not None and not isinstance(win, str):
            raise InvalidHandError("'win' must be a card or null")
        src_text = ctx_data.get("win_source", "discard")
        if src_text not in ("discard", "flip", "own_flip"):
            raise InvalidHandError(
                "'context.win_source' must be discard, flip or own_flip, "
                f"got {json.dumps(src_text, ensure_ascii=False)}"
            )
        if flags["tian"] and "win_source" in ctx_data:
            raise InvalidHandError("'context.win_source' does not go with 'context.tian'")
        src = WinSource.TIAN if flags["tian"] else WinSource(src_text)
        quan = ctx_data.get("quan")
        if quan is not None and (not isinstance(quan, int) or isinstance(quan, bool)):
            raise InvalidHandError(f"'context.quan' must be a number 1-10, got {json.dumps(quan, ensure_ascii=False)}")
        ctx = WinContext(src, flags["di"], quan)
        cards = parse_cards(hand)
        if not cards:
            raise InvalidHandError("the hand is empty")
        if flags["tian"] and win is not None:
            raise InvalidHandError('a 天胡 case has "win": null')
        win_card = None if win is None else Card.parse(win)
        result = HandAnalyzer(cards, melds, rules).evaluate(win_card, ctx)
    except ErqishiError as exc:
        return {"id": cid, "error": str(exc)}
    if not result.is_win:
        return {"id": cid, "win": False}
    return {
        "id": cid,
        "win": True,
        "hu": result.hu,
        "base": result.base,
        "fan": result.fan_names,
        "score": result.score,
    }


@app.command(short_help="下叫 The cards that would win a hand one card short")
def waits(
    hand: HandArg,
    meld: MeldOpt = None,
    di: Annotated[bool, typer.Option("--di", help=_zh_en("按地胡计分", "score the wins as 地胡"))] = False,
    quan: QuanOpt = None,
    rules: RulesOpt = "leshan",
    as_json: JsonOpt = False,
) -> None:
    """List the cards that would win a hand one card short (下叫), with their scores."""
    rule_set = _read_rules(rules)
    cards = _read_hand(hand)
    melds = _read_melds(meld or [])
    ctx = _context("discard", False, di, quan)
    analyzer = _guard("", lambda: HandAnalyzer(cards, melds, rule_set))
    found = _guard("", lambda: analyzer.waits(ctx))
    if as_json:
        rows = [
            {
                "card": w.card.ascii,
                "hu": w.result.hu,
                "base": w.result.base,
                "fan": w.result.fan_names,
                "score": w.result.score,
                "groups": [format_cards(g.cards, ascii=True) for g in w.result.groups],
            }
            for w in found
        ]
        print(json.dumps({"waits": rows}, ensure_ascii=False))
    elif not found:
        q, total = analyzer.quads, analyzer.card_total
        more = _can_make_quad(cards, melds, rule_set)
        short = 20 + max(0, q - 1)
        if total == short or (more and q >= 1 and total == short + 1):
            why = f"no card wins this hand ({_cards(total)} in hand and melds, one short of a win)"
        else:
            why = f"{_cards(total)} in hand and melds; {_size_needed(q, 1, more)}"
        _out.print(f"没有下叫 no waits: {why}")
    else:
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        for col in ("胡牌 card", "胡 hu", "规格 base", "番 fan", "得分 score"):
            table.add_column(col, no_wrap=True)
        table.add_column("房 groups", overflow="fold")
        for w in found:
            r = w.result
            table.add_row(
                f"{w.card} ({w.card.ascii})",
                str(r.hu),
                f"{r.base} {r.tier.name if r.tier else ''}",
                "、".join(r.fan_names) or "-",
                str(r.score),
                " ".join(format_cards(g.cards) for g in r.groups),
            )
        _out.print(f"下叫 waits: {len(found)}")
        _out.print(table)
    raise _Exit(0 if found else 1)


def _db_error(exc: Exception) -> str:
    """The first line of a database error, without the driver's SQL and links."""
    text = str(getattr(exc, "orig", None) or exc)
    return text.splitlines()[0] if text else type(exc).__name__


class _Unreadable(Exception):
    """No record could be read: the file or stored hand is missing, not UTF-8, not JSON, or
    not a valid record. ``verdict`` is what ``verify --json`` prints (FORMATS.md, English);
    ``zh`` says it in Chinese for the one-line error."""

    def __init__(self, verdict: InvalidVerdict, zh: str) -> None:
        super().__init__(verdict.error)
        self.verdict = verdict
        self.zh = zh

    def fail(self) -> NoReturn:
        """The one-line error, in Chinese and English."""
        _fail(self.zh, self.verdict.error)


def _unreadable(zh: str, en: str) -> NoReturn:
    raise _Unreadable(InvalidVerdict(_unsecret(en)), zh)


def _parsed(where: str, read: Callable[[], HandRecord | MatchRecord], where_zh: str = "") -> HandRecord | MatchRecord:
    try:
        return read()
    except RecordError as exc:
        verdict = InvalidVerdict.from_error(exc, _unsecret(where))
        raise _Unreadable(verdict, f"{where_zh or where}：{_zh_gist(exc)}") from None


def _read_stored(db: str, run: int | None, hand: int | None) -> HandRecord | MatchRecord:
    from erqishi.records import parse_record
    from erqishi.sim import RecordNotKeptError, load_hand_record, load_run

    if run is None or hand is None:
        _fail("--db 需要 --run ID 和 --hand INDEX", "--db needs --run ID and --hand INDEX")
    for name, value in (("--run", run), ("--hand", hand)):
        if not 0 <= value <= _SEED_MAX:
            _fail(
                f"{name} 应是 0 到 {_SEED_MAX} 的整数，不是 {value}",
                f"{name} must be a whole number from 0 to {_SEED_MAX}, got {value}",
            )
    if "://" not in db and not Path(db).is_file():
        _unreadable(f"--db：没有 {db} 这个文件", f"--db: no such file {db}")
    try:
        try:
            load_run(db, run)
        except LookupError as exc:
            _unreadable(f"{db}：没有对局 {run}", f"{db}: {exc.args[0] if exc.args else exc}")
        try:
            data = load_hand_record(db, run, hand)
        except LookupError as exc:
            message = str(exc.args[0] if exc.args else exc)
            if isinstance(exc, RecordNotKeptError):
                zh = f"{db}：对局 {run} 序号 {hand} 的一手没有存下记录"
            else:
                zh = f"{db}：对局 {run} 里没有序号为 {hand} 的一手（--hand 从 0 起）"
            _unreadable(zh, f"{db}: {message}")
    except _Unreadable:
        raise
    except Exception as exc:
        _unreadable(f"读不了 {db}", f"cannot read {db}: {_db_error(exc)}")
    return _parsed(f"{db} run {run} hand {hand}", lambda: parse_record(data), f"{db} 对局 {run} 序号 {hand} 的一手")


def _record_from(record: Path | None, db: str | None, run: int | None, hand: int | None) -> HandRecord | MatchRecord:
    """The record named on the command line.

    Raises:
        _Unreadable: it cannot be read, or is not a valid record.
        _Exit: (after a one-line message) the arguments do not name one record.
    """
    if db is not None:
        if record is not None:
            _fail("记录文件 RECORD 和 --db 只能给一个", "give a RECORD file or --db, not both")
        return _read_stored(db, run, hand)
    if record is None:
        _fail(
            "缺少记录文件 RECORD（或 --db DB --run ID --hand INDEX）",
            "missing RECORD (or --db DB --run ID --hand INDEX)",
        )
    return _read_record_file(record)


def _read_record_file(path: Path) -> HandRecord | MatchRecord:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        _unreadable(*_cannot_read(path, exc))
    except UnicodeDecodeError:
        _unreadable(f"{path} 不是 UTF-8 文本", f"{path} is not UTF-8 text")
    return _parsed(str(path), lambda: load_record(text))


DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        callback=_db_given,
        help=_zh_en("从这个文件读 `erqishi sim` 存下的一手牌", "read a hand stored by `erqishi sim` from this file"),
    ),
]
RunOpt = Annotated[int | None, typer.Option("--run", help=_zh_en("存下的对局编号", "the stored run's id"))]
HandIndexOpt = Annotated[
    int | None,
    typer.Option("--hand", help=_zh_en("这手牌在对局里的序号（从 0 起）", "the hand's index in the run (0 first)")),
]
RecordArg = Annotated[
    Path | None,
    typer.Argument(
        help=_zh_en("牌局记录（FORMATS.md，格式 1）", "a game record (FORMATS.md, format 1)"), show_default=False
    ),
]


@app.command(short_help="核对 Check a record: every action, the result, the payments")
def verify(
    record: RecordArg = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
    run: RunOpt = None,
    hand: HandIndexOpt = None,
) -> None:
    """Replay a record and check every action: the result, unfinished, or the first illegal
    step; says so when the record's own result differs from the replay."""
    try:
        rec = _record_from(record, db, run, hand)
    except _Unreadable as exc:
        if not as_json:
            exc.fail()
        verdict: HandVerdict | MatchVerdict | InvalidVerdict = exc.verdict
    else:
        verdict = verify_record(rec)
    if as_json:
        data = verdict.to_json()
        _emit(lambda: print(json.dumps(data, ensure_ascii=False)))
    else:
        _emit(lambda: _print_verdict(verdict, None if isinstance(verdict, InvalidVerdict) else rec))
    raise _Exit(verdict.exit_code)


_FIELD_ZH = {
    "kind": "结果",
    "winner": "胡家",
    "source": "来源",
    "hu": "胡数",
    "fan": "番",
    "score": "得分",
    "payments": "结算",
    "totals": "总分",
}


def _value_text(value: object) -> str:
    if value is None:
        return "无 none"
    if isinstance(value, (list, tuple)):
        return json.dumps(list(value), ensure_ascii=False)
    return str(value)


def _differences(where: str, stated: dict[str, Any], computed: dict[str, Any] | None) -> list[str]:
    """One line per differing field: stated vs computed."""
    lines = []
    for name, value in stated.items():
        got = "无 none (未完 unfinished)" if computed is None else _value_text(computed.get(name))
        lines.append(
            f"  {where}{_FIELD_ZH.get(name, name)} {name}: 记录写 stated {_value_text(value)}，重放得 computed {got}"
        )
    return lines


def _who_erred(verdict: HandVerdict | MatchVerdict, record: HandRecord | MatchRecord | None) -> str | None:
    """The seat that made the record's first illegal action, as the replay names it
    (``B(1)``), or None when the record does not say."""
    from erqishi.play.replay import who_acted

    hand = record
    if isinstance(verdict, MatchVerdict) and isinstance(record, MatchRecord):
        hand = record.hands[verdict.hand] if verdict.hand is not None and verdict.hand < len(record.hands) else None
    return who_acted(hand, verdict.step) if isinstance(hand, HandRecord) else None


def _print_verdict(
    verdict: HandVerdict | MatchVerdict | InvalidVerdict, record: HandRecord | MatchRecord | None = None
) -> None:
    """``erqishi verify`` in words (Chinese and English); the Chinese reason of an illegal
    step names the seat that made it (from ``record``)."""
    if isinstance(verdict, InvalidVerdict):  # only --json prints these
        _out.print(f"无效记录 invalid record: {verdict.error}")
        return
    if not verdict.ok:
        # steps and hands are counted from 1 here as everywhere a person reads them; the
        # 0-based index into the record's list follows in brackets (FORMATS.md)
        where = ""
        if isinstance(verdict, MatchVerdict) and verdict.hand is not None:
            where = f"第 {verdict.hand + 1} 手 hand {verdict.hand + 1} (hands[{verdict.hand}]), "
        step = ""
        if verdict.step is not None:
            step = f"第 {verdict.step + 1} 步 step {verdict.step + 1} (actions[{verdict.step}]): "
        why = verdict.error or ""
        if verdict.refusal is not None:  # every reason has its Chinese sentence (narrate)
            from erqishi.play.narrate import explain

            who = _who_erred(verdict, record)
            zh = explain(verdict.refusal, "zh", who)
        else:
            zh = ""
        _out.print(f"不合规则 illegal: {where}{step}{zh + ' · ' if zh else ''}{why}", markup=False)
        return
    if not verdict.finished:
        _out.print("合规 legal, 未完 unfinished: a move that is not a pass is still owed")
    elif isinstance(verdict, MatchVerdict):
        assert verdict.result is not None
        _out.print(f"合规 legal, finished match: totals {list(verdict.result.totals)}")
    elif verdict.result is not None and not verdict.result.is_win:
        _out.print("合规 legal, finished: 荒庄 dead hand, no payments")
    elif verdict.result is not None:
        result = verdict.result
        fans = "、".join(result.fan) or "无"
        source = result.source.value if result.source is not None else ""
        _out.print(
            f"合规 legal, finished: seat {result.winner} wins ({source}), "
            f"{result.hu} 胡, 番 {fans}, score {result.score}, payments {list(result.payments)}"
        )
    if verdict.result_matches is not False:
        return
    lines = ["记录所写的结果与重放不符 the result stated in the record differs from the replay:"]
    if isinstance(verdict, HandVerdict):
        lines += _differences("", verdict.stated_json(), verdict.result.to_json() if verdict.result else None)
    else:
        for i in verdict.differing_hands:
            hand = verdict.hands[i]
            lines += _differences(f"hands[{i}] ", hand.stated_json(), hand.result.to_json() if hand.result else None)
        if verdict.totals_match is False:
            assert verdict.totals is not None and verdict.stated_totals is not None
            lines += _differences("", {"totals": list(verdict.stated_totals)}, {"totals": list(verdict.totals)})
    for line in lines:
        _out.print(line, markup=False)


@app.command(short_help="回放 Print a recorded hand or match step by step")
def replay(
    record: RecordArg = None,
    db: DbOpt = None,
    run: RunOpt = None,
    hand: HandIndexOpt = None,
    lang: Annotated[
        str, typer.Option("--lang", help=_zh_en("语言：zh 中文（默认）或 en 英文", "zh (中文, default) or en"))
    ] = "zh",
) -> None:
    """Print a recorded hand (or match) step by step, with the scoring at the end, in the
    words of the terminal and web games.

    Exits 1 when the record has an illegal step (shown where it stops)."""
    from erqishi.play.replay import describe

    if lang not in ("zh", "en"):
        _fail(f"--lang 只能是 zh 或 en，不是 {lang!r}", f"--lang must be zh or en, got {lang!r}")
    try:
        rec = _record_from(record, db, run, hand)
    except _Unreadable as exc:
        exc.fail()
    # a hand of a stored run is told as its place in the run (index 0 is hand 1)
    number = hand + 1 if db is not None and hand is not None and hand >= 0 else 1
    lines = list(describe(rec, "en" if lang == "en" else "zh", number=number))

    def show() -> None:
        for line in lines:
            _out.print(line, markup=False)

    _emit(show)
    raise _Exit(verify_record(rec).exit_code)


@app.command(short_help="打牌 Play a match in the terminal against bots")
def play(
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            help=_zh_en(
                "你的对手机器人，其余每个座位一个，逗号分隔：random、heuristic、search、learned（默认都是 heuristic）",
                "the bots you play against, one per other seat, comma-separated: random, heuristic, search, learned "
                "(default: heuristic in every seat)",
            ),
        ),
    ] = None,
    rules: RulesOpt = "leshan",
    match_quan: Annotated[
        int | None,
        typer.Option(
            "--match-quan",
            help=_zh_en(
                "一场打几圈（规则选项 match_quan，默认 10）", "圈 in the match (the rule option match_quan; default 10)"
            ),
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help=_zh_en(
                "发牌和机器人的随机种子（默认每次新取）", "seed of the deals and the bots (default: a new one)"
            ),
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help=_zh_en(
                "语言：zh 中文（默认；--resume 时沿用存档的语言）或 en 英文",
                "zh (中文, default; --resume keeps the saved match's) or en",
            ),
        ),
    ] = None,
    save_dir: Annotated[
        Path | None,
        typer.Option("--save-dir", help=_zh_en("按 `s` 保存牌局记录的目录", "where `s` saves hand records")),
    ] = None,
    resume_match: Annotated[
        bool,
        typer.Option(
            "--resume",
            help=_zh_en(
                "接着打上次没打完的那一场（边打边存）", "continue the match you left (it is saved as you play)"
            ),
        ),
    ] = False,
    saved_file: Annotated[
        Path | None,
        typer.Option(
            "--saved-file",
            help=_zh_en(
                "未打完的一场存在哪里（默认：你的数据目录）",
                "where the match in progress is kept (default: your data directory)",
            ),
        ),
    ] = None,
    coach: Annotated[
        bool,
        typer.Option(
            "--coach",
            help=_zh_en(
                "教练指出你明显较差的一步和更好的走法", "a coach notes a clearly worse move of yours and the better one"
            ),
        ),
    ] = False,
) -> None:
    """Play 贰柒拾 in the terminal against bots (a whole match; 2, 3 or 4 players by the rules).

    The match is saved as you go: `q` asks first, and `erqishi play --resume` continues it
    exactly where you stopped."""
    import secrets

    from erqishi.bots import BOTS
    from erqishi.tui import resume
    from erqishi.tui.app import ErqishiApp

    path = saved_file if saved_file is not None else resume.default_path()
    if lang is not None and lang not in ("zh", "en"):
        _fail(f"--lang 只能是 zh 或 en，不是 {lang!r}", f"--lang must be zh or en, got {lang!r}")
    if resume_match:
        given = [
            name
            for name, value in (("--bots", bots), ("--seed", seed), ("--match-quan", match_quan))
            if value is not None
        ]
        if rules != "leshan":
            given.append("--rules")
        if given:
            _fail(
                f"--resume 按存下的设置接着打；请去掉 {'、'.join(given)}",
                f"--resume continues the saved match with its own settings; drop {', '.join(given)}",
            )
        try:
            saved = resume.load(path)
        except FileNotFoundError:
            _fail(
                f"--resume：没有存下未打完的比赛（{path}）；用 `erqishi play` 开一场",
                f"--resume: no match in progress is saved ({path}); start one with `erqishi play`",
            )
        except OSError as exc:
            zh, en = _cannot_read(path, exc)
            _fail(f"--resume：{zh}", f"--resume: {en}")
        except ErqishiError as exc:
            _fail_with(exc, f"--resume：{path}", f"--resume: {path}")
        _start_bots(saved.bots)
        try:
            game = ErqishiApp(
                saved.rules,
                seed=saved.seed,
                bots=list(saved.bots),
                match_quan=None,
                lang=lang or saved.lang,
                human_seat=saved.human_seat,
                save_dir=save_dir,
                resume_path=path,
                saved=saved,
                coach=coach,
            )
        except ErqishiError as exc:
            _fail_with(exc, f"--resume：{path}", f"--resume: {path}")
        game.run()
        return
    rule_set = _read_rules(rules)
    others = rule_set.players - 1
    names = [b.strip() for b in bots.split(",") if b.strip()] if bots is not None else ["heuristic"] * others
    if len(names) != others:
        _fail(
            f"--bots：{rule_set.players} 人局要给 {others} 个机器人（其余每个座位一个），"
            f"给了 {len(names)} 个：{bots!r}",
            f"--bots: name {others} bot{'s' if others > 1 else ''} for {rule_set.players} players "
            f"(one per other seat), got {len(names)}: {bots!r}",
        )
    unknown = [n for n in names if n not in BOTS]
    if unknown:
        _fail(
            f"--bots：没有 {unknown[0]!r} 这个机器人；机器人有 {'、'.join(BOTS)}",
            f"--bots: unknown bot {unknown[0]!r}; bots are {', '.join(BOTS)}",
        )
    if match_quan is not None and match_quan < 1:
        _fail(f"--match-quan 至少为 1，不是 {match_quan}", f"--match-quan must be at least 1, got {match_quan}")
    _start_bots(names)
    offer = None
    if path.exists():
        try:
            offer = resume.load(path)
        except (OSError, ErqishiError):
            offer = None  # a damaged save is replaced by this match
    game = ErqishiApp(
        rule_set,
        seed=secrets.randbelow(10**9) if seed is None else seed,
        bots=names,
        match_quan=match_quan,
        lang=lang or "zh",
        save_dir=save_dir,
        resume_path=path,
        saved=offer,
        offer=offer is not None,
        coach=coach,
    )
    game.run()


@app.command(short_help="学牌 Learn the game in short lessons, each checked by the engine")
def learn(
    lesson_id: Annotated[
        str | None,
        typer.Argument(
            metavar="[LESSON]",
            help=_zh_en("从这一课开始（cards、groups、locked……）", "start at this lesson (cards, groups, locked, …)"),
        ),
    ] = None,
    lang: LangOpt = None,
    progress: Annotated[
        Path | None,
        typer.Option(
            "--progress",
            help=_zh_en(
                "你得的星星存在哪里（默认：你的数据目录）", "where your stars are kept (default: your data directory)"
            ),
        ),
    ] = None,
) -> None:
    """Learn 贰柒拾 in the terminal: short lessons, each one rule on one position, checked by
    the engine; the last plays a whole hand against bots with a coach. Your stars are saved."""
    from erqishi.learn import LESSONS
    from erqishi.learn.progress import Progress, default_path
    from erqishi.tui.learn import run_learn

    if lang is not None and lang not in ("zh", "en"):
        _fail(f"--lang 只能是 zh 或 en，不是 {lang!r}", f"--lang must be zh or en, got {lang!r}")
    ids = [lesson.id for lesson in LESSONS]
    if lesson_id is not None and lesson_id not in ids:
        _fail(
            f"没有 {lesson_id!r} 这一课；课有 {'、'.join(ids)}",
            f"no lesson {lesson_id!r}; the lessons are {', '.join(ids)}",
        )
    path = progress if progress is not None else default_path()
    try:
        Progress.load(path)
    except ErqishiError as exc:
        _fail_with(exc, "--progress", "--progress")
    except OSError as exc:
        zh, en = _cannot_read(path, exc)
        _fail(f"--progress：{zh}", f"--progress: {en}")
    run_learn(lang or "zh", path, lesson_id)


@app.command(short_help="机器人对局 Bot-vs-bot runs: win rate, mean payment, 番")
def sim(
    hands: Annotated[int, typer.Option("--hands", "-n", help=_zh_en("打几手", "hands to play"))] = 300,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", help=_zh_en("所有发牌和机器人选择的随机种子", "seed of every deal and every bot's choices")
        ),
    ] = 1,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help=_zh_en(
                "每个座位一个机器人，逗号分隔：random、heuristic、search、search-old、learned",
                "a bot per seat, comma-separated: random, heuristic, search, search-old, learned",
            ),
        ),
    ] = "heuristic,random,random",
    rules: RulesOpt = "leshan",
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            help=_zh_en(
                "本机工作进程数，或本机 Ray 用的 CPU 数（默认每个 CPU 一个）",
                "local worker processes, or the CPUs of the local Ray (default: one per CPU)",
            ),
        ),
    ] = None,
    backend: Annotated[
        str,
        typer.Option(
            "--backend",
            help=_zh_en(
                "local（本机进程池）或 ray（Ray 集群；pip install 'erqishi[ray]'），结果相同",
                "local (a process pool on this machine) or ray (a Ray cluster; pip install 'erqishi[ray]'): "
                "the same results",
            ),
        ),
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option(
            "--address",
            help=_zh_en(
                "配合 --backend ray：集群的 HEAD:PORT（ray start --head --port PORT）"
                "或 auto；默认：为这次对局在本机启动 Ray",
                "with --backend ray: the cluster's HEAD:PORT (ray start --head --port PORT) or auto; "
                "default: a local Ray started for the run",
            ),
        ),
    ] = None,
    db: Annotated[
        str,
        typer.Option(
            "--db",
            callback=_db_given,
            help=_zh_en(
                "存结果和记录的 SQLite 文件（或 SQLAlchemy URL）",
                "SQLite file (or SQLAlchemy URL) for results and records",
            ),
        ),
    ] = ("erqishi-sim.db"),
    no_db: Annotated[bool, typer.Option("--no-db", help=_zh_en("不保存这次对局", "do not store the run"))] = False,
    as_json: JsonOpt = False,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate",
            help=_zh_en(
                "复式：每副牌按机器人在座位上的每种轮换各打一次（此时 --hands 指副数）；"
                "报告每个机器人每副牌的平均收付及配对差的 95% 区间",
                "play every deal once per rotation of the bots over the seats (--hands counts deals); "
                "report each bot's mean per deal with a 95% interval from paired differences",
            ),
        ),
    ] = False,
    permutations: Annotated[
        bool,
        typer.Option(
            "--permutations",
            help=_zh_en(
                "配合 --duplicate：机器人的每一种排列，而不只是轮换",
                "with --duplicate: every permutation of the bots, not the rotations",
            ),
        ),
    ] = False,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help=_zh_en(
                "同时把报告写进这个 HTML 文件：含图表、中英双语、单页自包含",
                "also write the run's report to this HTML file: charts, bilingual, one self-contained page",
            ),
        ),
    ] = None,
) -> None:
    """Bot-vs-bot tournament: seats rotate; per bot the win rate and the mean net payment
    with its 95% interval; runs and records are stored for ``erqishi replay --db``. With
    ``--duplicate`` every deal is played once per rotation (``--permutations``: once per
    permutation) of the bots, removing the luck of the deal. ``--report FILE.html`` writes the
    run's charts (``erqishi report`` draws them for a stored run). ``--backend ray`` plays the
    same hands on a Ray cluster (``--address``) or a local Ray, with the same results."""
    import os

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from erqishi.bots import BOTS
    from erqishi.sim import (
        BotLoadError,
        ChunkBackend,
        RunWriter,
        SimHand,
        SimResult,
        arrangements,
        render_duplicate,
        render_summary,
        run_duplicate,
        run_sim,
        validate_bots,
    )

    rule_set = _read_rules(rules)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    unknown = [n for n in names if n not in BOTS]
    if unknown:
        _fail(
            f"--bots：没有 {unknown[0]!r} 这个机器人；机器人有 {'、'.join(BOTS)}",
            f"--bots: unknown bot {unknown[0]!r}; bots are {', '.join(BOTS)}",
        )
    try:
        validate_bots(names, rule_set)
    except BotLoadError as exc:
        _fail(f"--bots：{exc.zh}", f"--bots: {exc}")
    except ValueError as exc:
        if len(names) != rule_set.players:
            zh = (
                f"--bots：{rule_set.players} 人局要给 {rule_set.players} 个机器人（每个座位一个），给了 {len(names)} 个"
            )
        else:
            zh = f"--bots：机器人有 {'、'.join(BOTS)}"
        _fail(zh, f"--bots: {exc}")
    if hands < 1:
        _fail(f"--hands 至少为 1，不是 {hands}", f"--hands must be at least 1, got {hands}")
    if permutations and not duplicate:
        _fail("--permutations 要和 --duplicate 一起用", "--permutations goes with --duplicate")
    if no_db and db != _SIM_DB:
        _fail(
            f"--db {db} 和 --no-db 互相矛盾：只给一个", f"--db {db} and --no-db contradict each other: give one of them"
        )
    games = len(arrangements(rule_set.players, permutations=permutations, bots=names)) if duplicate else 1
    if workers is not None and workers < 1:
        _fail(f"--workers 至少为 1，不是 {workers}", f"--workers must be at least 1, got {workers}")
    if backend not in ("local", "ray"):
        _fail(f"--backend 只能是 local 或 ray，不是 {backend!r}", f"--backend must be local or ray, got {backend!r}")
    if address is not None and backend != "ray":
        _fail("--address 要和 --backend ray 一起用", "--address goes with --backend ray")
    if address is not None and workers is not None:
        _fail(
            "--workers 设的是本机进程池或本机 Ray；--address 指定的 Ray 集群用它所有的 CPU",
            "--workers sets the local pool or a local Ray; a Ray cluster at --address uses all its CPUs",
        )
    n_workers = workers if workers is not None else max(1, min(os.cpu_count() or 1, hands * games // 50 or 1))
    if hands > _MAX_SIM_HANDS:
        _fail(
            f"--hands 至多为 {_MAX_SIM_HANDS}，不是 {hands}：更大的对局请分成几次、各用不同的种子",
            f"--hands must be at most {_MAX_SIM_HANDS}, got {hands}: split a bigger run into runs of other seeds",
        )
    if hands * games > _MAX_SIM_HANDS:
        _fail(
            f"--hands {hands} 副牌 × 每副牌打 {games} 次（每种{'排列' if permutations else '轮换'}一次）"
            f"= {hands * games} 手，超过 {_MAX_SIM_HANDS}："
            "少发几副牌，或分成几次、各用不同的种子",
            f"--hands {hands} deals × {games} games each is {hands * games} hands, more than {_MAX_SIM_HANDS}: "
            "play fewer deals, or split the run into runs of other seeds",
        )
    most_workers = max(_MAX_WORKERS_MIN, 4 * (os.cpu_count() or 1))
    if backend == "local" and workers is not None and workers > most_workers:
        _fail(
            f"--workers 在这台机器上至多为 {most_workers}（每个 CPU 4 个），不是 {workers}",
            f"--workers must be at most {most_workers} here (4 per CPU), got {workers}",
        )
    if not _SEED_MIN <= seed <= _SEED_MAX:
        _fail(
            f"--seed 应是 {_SEED_MIN} 到 {_SEED_MAX} 的整数（64 位整数），不是 {seed}",
            f"--seed must be a whole number from {_SEED_MIN} to {_SEED_MAX} (a 64-bit integer), got {seed}",
        )
    # what would fail only after every hand is played is checked before the first one
    if report is not None:
        folder = report.parent if str(report.parent) else Path()
        if report.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
            _fail(
                f"--report：写不了 {report}（文件夹不存在、不可写，或它本身是个文件夹）",
                f"--report: cannot write {report} (no such folder, not writable, or a folder itself)",
            )
        problem = _report_problem(report, None if no_db else db)
        if problem is not None:
            _fail(f"--report：{problem[0]}", f"--report: {problem[1]}")
    progress = Progress(
        TextColumn("[bold]模拟 sim"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=not sys.stderr.isatty(),  # a bar only on a terminal
    )
    keep_records = not no_db or report is not None
    # the run is stored as it is played: its row with the first hands that finish, then
    # the others as they finish (RunWriter); nothing is stored if no hand is played
    writer: RunWriter | None = None
    store_error: str | None = None

    def store(items: list[tuple[int, SimHand, dict[str, object]]]) -> None:
        nonlocal writer, store_error
        if no_db or store_error is not None:
            return
        try:
            if writer is None:
                writer = RunWriter(db, seed, names, rule_set, hands * games)
            writer.add(items)
        except Exception as exc:  # the database failed: stop storing, keep playing
            store_error = _db_error(exc)
            if writer is not None:
                with contextlib.suppress(Exception):
                    writer.close()
            writer = None

    def play(on: ChunkBackend | None) -> SimResult:
        if not no_db:  # the store is opened before the first hand, not found broken after the last
            from erqishi.storage import upgrade
            from erqishi.storage.store import check_sqlite

            try:
                check_sqlite(db)  # whole and writable (SQLite): nothing is played into a file that fails
                upgrade(db)  # creates or migrates the database: it can be written
            except Exception as exc:
                sys.stderr.write(
                    _error_line(
                        f"无法把对局存进 {db}（加 --no-db 可只打不存）",
                        f"cannot store the run in {db}: {_db_error(exc)} (--no-db plays without storing)",
                    )
                )
                raise _Exit(1) from None

        def tick(k: int) -> None:
            progress.update(task, advance=k)

        if duplicate:
            return run_duplicate(
                hands,
                seed,
                names,
                rule_set,
                permutations=permutations,
                workers=n_workers,
                progress=tick,
                keep_records=keep_records,
                backend=on,
                on_hands=store,
            )
        return run_sim(
            hands,
            seed,
            names,
            rule_set,
            workers=n_workers,
            progress=tick,
            keep_records=keep_records,
            backend=on,
            on_hands=store,
        )

    # SIGTERM (a service manager, `kill`) stops the run as Ctrl-C does: what is stored stays
    on_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if on_main_thread else None
    try:
        with progress:
            task = progress.add_task("手 hands", total=hands * games)
            if backend == "ray":
                from erqishi.sim.ray_backend import RayBackend, RayBackendError

                cluster = RayBackend(address, num_cpus=workers)
                # Ray prints what its cluster tells (a worker that died, and was replaced)
                # to standard output: to standard error here, which stays the run's output
                # alone (its --json)
                with contextlib.redirect_stdout(sys.stderr):
                    try:
                        cluster.start()
                    except RayBackendError as exc:
                        _fail("无法使用 Ray", str(exc))
                    try:
                        result = play(cluster)
                    finally:
                        cluster.close()
            else:
                result = play(None)
    except BaseException:  # interrupted: the hands stored so far stay, the run says so
        if writer is not None:
            with contextlib.suppress(Exception):
                writer.close()
            from erqishi.storage import mask_url

            sys.stderr.write(
                f"erqishi sim: 已停止，{writer.stored} / {hands * games} 手已存为对局 {writer.run_id} "
                f"stopped: {writer.stored} of {hands * games} hands stored as run {writer.run_id} "
                f"in {mask_url(db)} (marked interrupted; see `erqishi runs --db {mask_url(db)}`)\n"
            )
        raise
    finally:
        if on_main_thread:
            signal.signal(signal.SIGTERM, previous)
    run_id = None
    stored_ok = True
    if writer is not None:
        try:
            run_id = writer.finish(result)
        except Exception as exc:
            store_error = _db_error(exc)
        finally:
            with contextlib.suppress(Exception):
                writer.close()
    if store_error is not None:
        stored_ok = False
        run_id = None
        from erqishi.storage import mask_url

        sys.stderr.write(_error_line(f"没能把对局存进 {db}", f"could not store the run in {db}: {store_error}"))
    written = None
    if report is not None:
        from erqishi.sim.report import load_report, report_from_result

        # a stored run's page is read back from the store: the same page as `erqishi report`
        written = _write_report(
            report, lambda: report_from_result(result) if run_id is None else load_report(db, run_id)
        )
    if as_json:
        data = result.to_json()
        if run_id is not None:
            data["run"] = {"db": db, "id": run_id}
        if written is not None:
            data["report"] = str(written)
        print(json.dumps(data, ensure_ascii=False))
    else:

        def show() -> None:
            _out.print(render_summary(result))
            if result.duplicate is not None:
                _out.print(render_duplicate(result.duplicate, result.rules.players))
            if run_id is not None:
                from erqishi.storage import mask_url

                shown = mask_url(db)
                _out.print(
                    f"已存为对局 {run_id} run {run_id} stored in {shown}: 回放一手 replay a hand with "
                    f"`erqishi replay --db {shown} --run {run_id} --hand 0`"
                )
            if written is not None:
                _out.print(f"报告 report: {written}", markup=False)

        _emit(show)
    if not stored_ok or (report is not None and written is None):
        raise _Exit(1)


def _report_problem(path: Path, db: str | None) -> tuple[str, str] | None:
    """Why the report may not be written to ``path`` (a folder, the database itself, or an
    existing file that is not an HTML page: it is never overwritten), in Chinese and
    English, else None."""
    if path.is_dir():
        return f"{path} 是个文件夹", f"{path} is a folder"
    if db is None:
        file = None
    else:
        from erqishi.storage import sqlite_file

        file = sqlite_file(db)
    same = file is not None and (
        path.resolve() == file.resolve() or (path.exists() and file.exists() and path.samefile(file))
    )
    if same:
        return f"{path} 就是数据库本身", f"{path} is the database itself"
    if path.exists():
        try:
            with path.open("rb") as f:
                head = f.read(512).lstrip().lower()
        except OSError as exc:
            return _cannot_read(path, exc)[0], f"{path} cannot be read ({exc.strerror or exc})"
        if not (head.startswith(b"<!doctype html") or head.startswith(b"<html")):
            return (
                f"{path} 已存在且不是 HTML 网页（不会覆盖它：请换个名字）",
                f"{path} exists and is not an HTML page (it is never overwritten: give a new name)",
            )
    return None


def _write_report(path: Path, build: Callable[[], Any]) -> Path | None:
    """Write the report ``build()`` makes to ``path``; None (after a one-line message on
    standard error) when plotly is missing or the file cannot be written."""
    try:
        from erqishi.sim.report import write_report

        return write_report(path, build())
    except ImportError as exc:
        sys.stderr.write(
            _error_line(
                "报告需要 plotly（pip install 'erqishi[report]'）",
                f"the report needs plotly (pip install 'erqishi[report]'): {exc}",
            )
        )
    except OSError as exc:
        sys.stderr.write(
            _error_line(_because(f"写不了报告 {path}", exc), f"cannot write the report {path}: {exc.strerror or exc}")
        )
    return None


@app.command(short_help="网页开房间 Serve the browser game for friends")
def serve(
    host: Annotated[str, typer.Option("--host", help=_zh_en("监听的地址", "address to listen on"))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help=_zh_en("TCP 端口", "TCP port"))] = 8000,
    db: Annotated[
        str,
        typer.Option(
            "--db",
            callback=_db_given,
            envvar="ERQISHI_DB",
            show_envvar=False,
            help=_zh_en(
                "SQLite 文件或数据库 URL（sqlite:///…，postgresql://user:pw@host/db）；"
                "也可放在环境变量 ERQISHI_DB 里，密码就不会出现在 ps 的命令行中",
                "SQLite file or database URL (sqlite:///…, postgresql://user:pw@host/db); "
                "or in the environment variable ERQISHI_DB, which keeps a password out of the command line "
                "that ps shows",
            ),
        ),
    ] = "erqishi-web.db",
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", help=_zh_en("机器人出手前等几秒", "seconds a bot waits before it moves"))
    ] = 0.8,
    response_seconds: Annotated[
        float,
        typer.Option(
            "--response-seconds",
            help=_zh_en("对打出或翻出的牌决定胡、开、对、吃或过的限时（秒）", "time to answer a discard or flip"),
        ),
    ] = 20.0,
    turn_seconds: Annotated[
        float, typer.Option("--turn-seconds", help=_zh_en("出牌限时（秒）", "time to discard"))
    ] = 60.0,
    grace_seconds: Annotated[
        float,
        typer.Option(
            "--grace-seconds",
            help=_zh_en("玩家离开多久（秒）后由机器人代打", "time a player may be gone before a bot plays for them"),
        ),
    ] = 15.0,
    next_hand_seconds: Annotated[
        float,
        typer.Option(
            "--next-hand-seconds",
            help=_zh_en("两手之间的停顿（秒），大家都准备好就不等", "pause between hands unless everyone is ready"),
        ),
    ] = 30.0,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help=_zh_en("每个房间的随机种子（可复现；默认每次新取）", "seed every room's generator (reproducible)"),
        ),
    ] = None,
    spool: Annotated[
        str | None,
        typer.Option(
            "--spool",
            help=_zh_en(
                "本地缓冲目录：房间的每个变化先写到这里再发出，然后存进数据库；数据库还没收下的，"
                "下次启动时补上（默认：SQLite 文件旁的 FILE.spool；PostgreSQL 则在用户数据目录里每个数据库一个；"
                "每个服务进程各用一个）",
                "directory of the local spool: every change of a room is written there before it is sent, "
                "then stored in the database; what the database has not taken is replayed at the next start "
                "(default: FILE.spool beside an SQLite file; for PostgreSQL a directory per database in the "
                "user data directory; one per server)",
            ),
        ),
    ] = None,
    journal_writer: Annotated[
        str,
        typer.Option(
            "--journal-writer",
            help=_zh_en(
                "谁把日志存进数据库：'process'（另一个核上的独立进程，牌桌再忙也不耽误）"
                "或 'thread'（服务进程里的一个线程，少一个进程）",
                "what stores the journal in the database: 'process' (a process of its own on another core: "
                "busy tables never starve it) or 'thread' (a thread of the server, one process fewer)",
            ),
        ),
    ] = "process",
    deflate: Annotated[
        bool,
        typer.Option(
            "--deflate/--no-deflate",
            help=_zh_en(
                "压缩 WebSocket 消息（流量少，每条消息服务器多花 CPU）",
                "compress WebSocket messages (less traffic, more server CPU per message)",
            ),
        ),
    ] = False,
    max_connections_per_address: Annotated[
        int,
        typer.Option(
            "--max-connections-per-address",
            help=_zh_en(
                "一个客户端地址同时最多开几个 WebSocket（及进行中的 HTTP 请求），"
                "每分钟最多新开这个数 10 倍的 WebSocket；0 表示不限",
                "WebSockets (and HTTP requests in progress) one client address may hold open, and 10 times as "
                "many WebSockets it may open a minute; 0: no limit",
            ),
        ),
    ] = 32,
    max_rooms_per_address: Annotated[
        int,
        typer.Option(
            "--max-rooms-per-address",
            help=_zh_en(
                "一个客户端地址 10 分钟内最多开几个房间；0 表示不限",
                "rooms one client address may create in 10 minutes; 0: no limit",
            ),
        ),
    ] = 20,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help=_zh_en(
                "信任其 X-Forwarded-For 的反向代理地址（逗号分隔）；默认不信任任何代理：按连接地址计数",
                "addresses of reverse proxies whose X-Forwarded-For names the client (comma-separated); "
                "by default nobody's: the limits per address count the connecting address",
            ),
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            envvar="ERQISHI_REDIS",
            show_envvar=False,
            help=_zh_en(
                "多个服务进程：它们共用的 Redis（redis://host:port/0，也可放在环境变量 ERQISHI_REDIS 里）；"
                "每个房间租给一个进程，其他进程把请求转给它，它崩溃时由其他进程接手；所有进程须共用同一个 "
                "PostgreSQL 数据库（默认：单进程）",
                "several server processes: the Redis server they share (redis://host:port/0, or in the "
                "environment variable ERQISHI_REDIS); each room is leased to one process, the others proxy to "
                "it and take it over if it dies; use one PostgreSQL database for all (default: one process on "
                "its own)",
            ),
        ),
    ] = None,
    advertise: Annotated[
        str | None,
        typer.Option(
            "--advertise",
            help=_zh_en(
                "配合 --redis：其他进程访问本进程用的 URL（默认 http://HOST:PORT）",
                "with --redis: this process's URL as the other processes reach it (default http://HOST:PORT)",
            ),
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            "--lease-seconds",
            help=_zh_en(
                "配合 --redis：房间租约多久不续期即失效（秒），即进程崩溃后其他进程多快接手它的房间",
                "with --redis: a room's lease lasts this long unrenewed: how soon another process takes "
                "over the rooms of one that died",
            ),
        ),
    ] = 5.0,
) -> None:
    """Play in the browser with friends: serves the web game and its history on
    http://HOST:PORT (rooms, seats, bots, reconnect, replays)."""
    import logging

    import uvicorn

    from erqishi.server.app import create_app
    from erqishi.server.memory import settle_server
    from erqishi.server.settings import Settings
    from erqishi.storage import database_urls, mask_url, sqlite_file

    if not 0 < port < 65536:
        _fail(f"--port 应在 1-65535 之间，不是 {port}", f"--port must be 1-65535, got {port}")
    for name, value in (
        ("--bot-delay", bot_delay),
        ("--response-seconds", response_seconds),
        ("--turn-seconds", turn_seconds),
        ("--grace-seconds", grace_seconds),
        ("--next-hand-seconds", next_hand_seconds),
    ):
        if value < 0 or value != value:
            _fail(f"{name} 应是不小于 0 的数，不是 {value}", f"{name} must be 0 or more, got {value}")
    for name, count in (
        ("--max-connections-per-address", max_connections_per_address),
        ("--max-rooms-per-address", max_rooms_per_address),
    ):
        if count < 0:
            _fail(f"{name} 不能小于 0（0 表示不限），不是 {count}", f"{name} must be 0 (no limit) or more, got {count}")
    if journal_writer not in ("process", "thread"):
        _fail(
            f"--journal-writer 只能是 process 或 thread，不是 {journal_writer!r}",
            f"--journal-writer must be process or thread, got {journal_writer!r}",
        )
    try:
        database_urls(db)
    except ValueError as exc:
        _fail("--db：数据库地址不对", f"--db: {exc}")
    node = None
    if redis is not None:
        if sqlite_file(db) is not None:
            _fail(
                "--redis（多个进程）要用 PostgreSQL 的 --db，各进程共用一个数据库；SQLite 只给单个进程用",
                "--redis (several processes) needs a PostgreSQL --db that every process shares; "
                "SQLite is for one process",
            )
        if not redis.startswith(("redis://", "rediss://", "unix://")):
            _fail(
                f"--redis 应是 redis://、rediss:// 或 unix:// 地址，不是 {redis!r}",
                f"--redis must be a redis://, rediss:// or unix:// URL, got {redis!r}",
            )
        if not 0.5 <= lease_seconds <= 300 or lease_seconds != lease_seconds:
            _fail(
                f"--lease-seconds 应在 0.5-300 之间，不是 {lease_seconds}",
                f"--lease-seconds must be 0.5-300, got {lease_seconds}",
            )
        if advertise is None:
            import socket

            shown = socket.getfqdn() if host in ("0.0.0.0", "::", "") else host
            shown = f"[{shown}]" if ":" in shown else shown
            advertise = f"http://{shown}:{port}"
        if not advertise.startswith(("http://", "https://")):
            _fail(
                f"--advertise 应是 http:// 或 https:// 地址，不是 {advertise!r}",
                f"--advertise must be an http:// or https:// URL, got {advertise!r}",
            )
        node = advertise.rstrip("/")
    elif advertise is not None:
        _fail("--advertise 要和 --redis 一起用", "--advertise needs --redis")
    # the port first, held from here on: a port in use is one line, and nothing says
    # "serving on" before the server can listen
    listener = _listen(host, port)
    settle_server()  # before the database and socket threads start (erqishi.server.memory)
    settings = Settings(
        db_url=db,
        bot_delay=bot_delay,
        response_seconds=response_seconds,
        turn_seconds=turn_seconds,
        grace_seconds=grace_seconds,
        next_hand_seconds=next_hand_seconds,
        seed=seed,
        spool=spool,
        journal_writer="thread" if journal_writer == "thread" else "process",
        max_sockets_per_address=max_connections_per_address,
        max_connects_per_minute=10 * max_connections_per_address,
        max_requests_per_address=max_connections_per_address,
        max_spectators_per_address=min(8, max_connections_per_address) if max_connections_per_address else 0,
        max_rooms_per_address=max_rooms_per_address,
        max_misses_per_minute=2 * max_connections_per_address,
        redis_url=redis,
        node=node,
        lease_seconds=lease_seconds,
    )
    _open_database(db, settings.spool_dir())  # before the spool is made beside an SQLite file
    _check_serving(settings)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    sys.stderr.write(f"erqishi: 服务地址 serving on http://{host}:{port}/ (数据库 database {mask_url(db)})\n")
    if node is not None:
        sys.stderr.write(
            f"erqishi: 多进程之一 one of several processes (Redis {mask_url(redis or '')}), "
            f"本进程地址 reached at {node}\n"
        )
    config = uvicorn.Config(
        create_app(settings, freeze_gc=True),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
        ws_per_message_deflate=deflate,
        timeout_graceful_shutdown=5,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[listener])  # the socket bound above: nobody can take the port meanwhile
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # the database cannot be opened or migrated
        _fail("无法提供服务", f"cannot serve: {_db_error(exc)}")
    finally:
        listener.close()
    if not server.started:  # the app did not start (uvicorn has said why)
        raise _Exit(3)


def _open_database(db: str, spool: Path) -> None:
    """Create or migrate the server's database now, so that a bad database is one line
    here. A database out of reach while the spool holds changes not yet stored (the server
    stopped while it was down) is waited for, said every 30 s, as protocol.md promises:
    after a restart of the machine the database may come up after erqishi."""
    from sqlalchemy.exc import OperationalError

    from erqishi.storage import mask_url, upgrade

    told = -math.inf
    while True:
        try:
            upgrade(db)
            return
        except OperationalError as exc:
            held = sum(p.stat().st_size for p in spool.glob("spool-*.jsonl")) if spool.is_dir() else 0
            if not held:
                _fail(f"--db：打不开 {db}", f"--db: cannot open {db}: {_db_error(exc)}")
            now = time.monotonic()
            if now - told >= 30:
                told = now
                sys.stderr.write(
                    f"erqishi: 数据库 {mask_url(db)} 连不上，本地暂存 {spool} 里还有没存进去的变化：等它恢复 · "
                    f"waiting for the database {mask_url(db)} ({_db_error(exc)}): the spool {spool} holds "
                    "changes not yet stored\n"
                )
            time.sleep(2)
        except Exception as exc:
            _fail(f"--db：打不开 {db}", f"--db: cannot open {db}: {_db_error(exc)}")


def _check_serving(settings: Any) -> None:
    """What the server needs to start, checked before it says "serving on", each failure
    one line: its spool directory (made, and used by no other server) and, with
    ``--redis``, the Redis server (it answers)."""
    from erqishi.storage.journal import JournalError, Spool

    spool = settings.spool_dir()
    try:
        Spool(spool).close()
    except JournalError as exc:
        text = str(exc)
        if "in use" in text:
            why = "（另一个 erqishi 服务正在用它）"
        elif "File exists" in text or "Not a directory" in text:
            why = "（它或它的上级是个文件，不是文件夹）"
        elif "Permission denied" in text:
            why = "（没有权限）"
        else:
            why = ""
        _fail(f"--spool：用不了 {spool}{why}", f"--spool: {exc}")
    if settings.redis_url:
        from erqishi.server.cluster import check_redis

        try:
            check_redis(settings.redis_url)
        except ConnectionError as exc:
            _fail("--redis：地址不对或连不上 Redis", f"--redis: cannot reach {settings.redis_url}: {exc}")


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` for ``erqishi serve`` to listen on (uvicorn calls
    ``listen``). A port in use, or an address that cannot be had, is one line on stderr and
    exit code 1."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        sys.stderr.write(_error_line(f"无法监听 {host!r}：找不到这个地址", f"cannot listen on {host!r}: {why}"))
        raise _Exit(1) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: not SO_REUSEPORT
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            line = _error_line(
                f"{host} 的端口 {port} 已被占用，用 --port 换一个",
                f"port {port} on {host} is in use; choose another with --port",
            )
        else:
            why = {errno.EADDRNOTAVAIL: "这台机器没有这个地址", errno.EACCES: "没有权限（1024 以下的端口要特权）"}
            zh = f"无法监听 {host} 的端口 {port}" + (f"：{why[exc.errno]}" if exc.errno in why else "")
            line = _error_line(zh, f"cannot listen on port {port} of {host}: {exc.strerror or exc}")
        sys.stderr.write(line)
        raise _Exit(1) from None
    # not inheritable (Python's default, which uvicorn's own binding changes): the journal's
    # writer process must not hold the port, or a server restarted at once after a crash
    # would find it in use while the writer lingers
    return sock


def _run_status(run: StoredRun) -> str:
    """``done``, or ``running``/``interrupted`` with the hands stored (``interrupted 120/2000``)."""
    if run.complete:
        return "done"
    return f"{run.state} {run.summary.get('hands_stored', 0)}/{run.hands}"


def _run_status_shown(run: StoredRun) -> str:
    """:func:`_run_status` with its word in Chinese first (``中断 interrupted 120/2000``)."""
    from erqishi.sim import RUN_STATUS_ZH

    status = _run_status(run)
    zh = RUN_STATUS_ZH.get(status.split(" ", 1)[0])
    return f"{zh} {status}" if zh else status


@app.command(short_help="对局列表 List the stored bot runs")
def runs(
    db: SimDbOpt = "erqishi-sim.db",
    as_json: JsonOpt = False,
) -> None:
    """List the tournament runs stored by ``erqishi sim``: id, date, seed, hands, bots, rules."""
    from erqishi.sim import list_runs

    if "://" not in db and not Path(db).is_file():
        _fail(f"--db：没有 {db} 这个文件", f"--db: no such file {db}")
    try:
        stored = list_runs(db)
    except Exception as exc:
        _fail(f"读不了 {db}", f"cannot read {db}: {_db_error(exc)}")
    if as_json:
        rows = [
            {
                "id": r.id,
                "created": r.created.isoformat(),
                "seed": r.seed,
                "hands": r.hands,
                "bots": list(r.bots),
                "rules": r.rules,
                "status": _run_status(r),  # "done", or "interrupted 4/30" as the table shows it
                "state": r.state,  # a run whose process died without a word is "interrupted"
                "hands_stored": r.hands if r.complete else int(r.summary.get("hands_stored") or 0),
                "duplicate": _run_deals(r),  # {"deals", "games_per_deal"} of a duplicate run, else null
            }
            for r in stored
        ]
        print(json.dumps(rows, ensure_ascii=False))
        return
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for col in ("对局\nrun", "创建\ncreated (UTC)", "种子\nseed", "手数\nhands"):
        table.add_column(col, no_wrap=col != "创建\ncreated (UTC)")
    table.add_column("牌手\nbots", overflow="fold")  # wraps between bots, never hides one
    table.add_column("规则\nrules", overflow="fold")
    table.add_column("状态\nstatus")
    for r in stored:
        table.add_row(
            str(r.id),
            r.created.strftime("%Y-%m-%d %H:%M"),
            str(r.seed),
            str(r.hands) + _run_deals_shown(r),
            ", ".join(r.bots),
            r.rules,
            _run_status_shown(r),
        )
    _emit(lambda: _out.print(table if stored else _visible(f"没有对局 no runs in {db}")))


def _run_deals(run: StoredRun) -> dict[str, int] | None:
    """A duplicate run's deals and games per deal (from its stored summary), else None."""
    dup = run.summary.get("duplicate")
    if not isinstance(dup, dict):
        return None
    return {"deals": int(dup.get("deals") or 0), "games_per_deal": int(dup.get("games_per_deal") or 0)}


def _run_deals_shown(run: StoredRun) -> str:
    """``\n复式 100 副×3 duplicate`` under a duplicate run's hands, else nothing."""
    deals = _run_deals(run)
    if deals is None:
        return ""
    return f"\n复式 {deals['deals']} 副×{deals['games_per_deal']} duplicate"


@app.command("report", short_help="报告 Write a stored run's report, one HTML page")
def report_cmd(
    run: Annotated[
        int,
        typer.Option(
            "--run", help=_zh_en("存下的对局编号（见 `erqishi runs`）", "the stored run's id (see `erqishi runs`)")
        ),
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help=_zh_en("要写的 HTML 文件", "the HTML file to write"))],
    db: SimDbOpt = "erqishi-sim.db",
) -> None:
    """Write a stored run's report: one self-contained HTML page (Chinese and English) with
    charts of the running mean payment per bot with its 95% interval, win and 抬炮 rates per
    seat, the hu and 番 of the wins, the 荒庄 rate and the bots' ratings."""
    from erqishi.sim import RecordNotKeptError
    from erqishi.sim.report import load_report

    if not 0 <= run <= _SEED_MAX:
        _fail(
            f"--run 应是 0 到 {_SEED_MAX} 的整数，不是 {run}",
            f"--run must be a whole number from 0 to {_SEED_MAX}, got {run}",
        )
    if "://" not in db and not Path(db).is_file():
        _fail(f"--db：没有 {db} 这个文件", f"--db: no such file {db}")
    problem = _report_problem(output, db)
    if problem is not None:
        _fail(f"--output：{problem[0]}", f"--output: {problem[1]}")
    try:
        stored = load_report(db, run)
    except RecordNotKeptError as exc:
        _fail(f"{db}：对局 {run} 的牌局记录没有存下，做不了报告", f"{db}: {exc.args[0] if exc.args else exc}")
    except LookupError as exc:
        _fail(f"{db}：没有对局 {run}", f"{db}: {exc.args[0] if exc.args else exc}")
    except Exception as exc:
        _fail(f"读不了 {db}", f"cannot read {db}: {_db_error(exc)}")
    written = _write_report(output, lambda: stored)
    if written is None:
        raise _Exit(2)
    _emit(lambda: _out.print(f"报告 report: {written}", markup=False))


@app.command(short_help="等级分 Ratings of the bots and named web players")
def ratings(
    db: Annotated[
        list[str] | None,
        typer.Option(
            "--db",
            callback=_db_given,
            help=_zh_en(
                "机器人对局或网页比赛（或两者）的数据库（SQLite 文件或 URL），可多次给出；默认：当前目录下已有的 "
                "erqishi-sim.db 和 erqishi-web.db",
                "a database of sim runs and/or web matches (SQLite file or URL); repeat for several "
                "(default: erqishi-sim.db and erqishi-web.db, those that exist)",
            ),
        ),
    ] = None,
    tau: Annotated[
        float,
        typer.Option(
            "--tau",
            help=_zh_en(
                "每手的实力漂移（OpenSkill 的 tau）；0 表示实力固定",
                "skill drift per game (OpenSkill's tau); 0 takes skills as fixed",
            ),
        ),
    ] = 0.0,
    as_json: JsonOpt = False,
) -> None:
    """Ratings of every bot and named web player from the stored sim runs and web matches
    (OpenSkill Plackett-Luce): each hand a game ranked by its payments, ties shared; μ, σ
    and the conservative ordinal μ − 3σ, best first."""
    import math

    from erqishi.sim.ratings import render_ratings, stored_ratings
    from erqishi.storage import sqlite_file

    if not math.isfinite(tau) or not 0 <= tau <= _MAX_TAU:
        _fail(f"--tau 应是 0 到 {_MAX_TAU} 的数，不是 {tau}", f"--tau must be a number from 0 to {_MAX_TAU}, got {tau}")
    if db:
        urls: list[str] = []
        seen: set[object] = set()
        for url in db:
            file = sqlite_file(url)
            if file is not None and not file.is_file():
                _fail(f"--db：没有 {url} 这个文件", f"--db: no such file {url}")
            found = file.stat() if file is not None else None
            key = (found.st_dev, found.st_ino) if found is not None else url  # one file named twice
            if key not in seen:
                seen.add(key)
                urls.append(url)
    else:
        urls = [name for name in ("erqishi-sim.db", "erqishi-web.db") if Path(name).is_file()]
        if not urls:
            _fail(
                "这里没有 erqishi-sim.db 或 erqishi-web.db：用 --db 指定数据库",
                "no erqishi-sim.db or erqishi-web.db here: name a database with --db",
            )
    try:
        table = stored_ratings(urls, tau=tau)
    except ValueError as exc:
        _fail("算不了等级分：数据库地址不对，或不是 erqishi 的数据库", str(exc))
    except Exception as exc:
        _fail(f"读不了 {', '.join(urls)}", f"cannot read {', '.join(urls)}: {_db_error(exc)}")
    if as_json:
        print(json.dumps(table.to_json(), ensure_ascii=False))
        return
    _emit(lambda: _out.print(render_ratings(table) if table.ratings else f"没有对局 no games in {', '.join(urls)}"))


@app.command("rules", short_help="规则 A rule set's options in words")
def rules_cmd(
    preset: Annotated[
        str | None,
        typer.Argument(
            help=_zh_en(
                "预设名或 JSON 选项；不给则并排列出所有预设", "a preset or JSON options; all presets if omitted"
            )
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help=_zh_en(
                "以 JSON 输出选项（含 taipao_multiplier_in_effect）",
                "print the options as JSON (with taipao_multiplier_in_effect)",
            ),
        ),
    ] = False,
) -> None:
    """Show the options of a rule set (R-10) in words, with what each means; without
    PRESET, every preset side by side."""
    names = [preset] if preset is not None else list(PRESETS)
    sets: dict[str, RuleSet] = {}
    for name in names:
        try:
            sets[name] = RuleSet.load(name)
        except ErqishiError as exc:
            _fail(_zh_gist(exc), f"rules: {exc}")
    if as_json:
        out: dict[str, Any] = {}
        for name, rule_set in sets.items():
            options = rule_set.to_options()
            options["taipao_multiplier_in_effect"] = rule_set.taipao_factor
            out[name] = options
        print(json.dumps(out if preset is None else out[preset], ensure_ascii=False, indent=2))
        return
    if preset is None:
        _emit(lambda: _print_presets(sets))
    else:
        _emit(lambda: _print_rule_set(sets[preset]))


def _both(zh: str, en: str, sep: str = "\n") -> str:
    """Chinese, then English after ``sep``; once when they are the same words."""
    return zh if zh == en else f"{zh}{sep}{en}"


def _option_value(rule_set: RuleSet, name: str, sep: str = "\n") -> str:
    return _both(describe_option(rule_set, name, "zh"), describe_option(rule_set, name, "en"), sep)


_DIFFERS = "*"
_DIFFERS_NOTE = f"{_DIFFERS} 与乐山 leshan 不同 differs from leshan"


def _print_rule_set(rule_set: RuleSet) -> None:
    """``erqishi rules PRESET``: every option with its value and meaning (R-10)."""
    changed = set(differences(rule_set, LESHAN))
    _out.print(f"规则 rules: {describe_rules(rule_set, 'zh')} / {describe_rules(rule_set, 'en')}", markup=False)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False, padding=(0, 1, 1, 0))
    table.add_column("类\nkind", no_wrap=True)
    table.add_column("选项\noption", no_wrap=True)
    table.add_column("值\nvalue", overflow="fold")
    table.add_column("含义 (规则)\nmeaning (rule)", overflow="fold", ratio=1)
    for info in OPTIONS:
        mark = _DIFFERS if info.name in changed else ""
        zh, en = describe_option(rule_set, info.name, "zh"), describe_option(rule_set, info.name, "en")
        table.add_row(
            _both(*info.section),
            f"{info.zh}\n{info.name}",
            Text(zh + mark + ("" if en == zh else f"\n{en}"), style="bold" if mark else ""),
            Text(f"{info.meaning_zh}\n{info.meaning_en} ({info.rule_id})"),
        )
    _out.print(table)
    if changed:
        _out.print(_DIFFERS_NOTE, markup=False)
    _out.print("erqishi rules --json: the options as JSON; erqishi rules: every preset", markup=False)


_SAME = "·"


def _print_presets(sets: dict[str, RuleSet]) -> None:
    """``erqishi rules``: every preset side by side (R-10), a value only where it differs
    from ``leshan``, then the list of presets."""
    _out.print(
        f"预设 presets (R-10): {', '.join(sets)} ({_SAME} 同乐山 as in leshan; 详见 see erqishi rules PRESET)",
        markup=False,
    )
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("选项 option", no_wrap=True)
    for name in sets:
        table.add_column(f"{PRESET_NAMES[name][0]}\n{name}", overflow="fold")
    for info in OPTIONS:
        cells: list[Text | str] = [f"{info.zh} {info.name}"]
        for name, rule_set in sets.items():
            if name != "leshan" and getattr(rule_set, info.name) == getattr(LESHAN, info.name):
                cells.append(_SAME)
            else:
                cells.append(Text(_option_value(rule_set, info.name, " "), style="" if name == "leshan" else "bold"))
        table.add_row(*cells)
    _out.print(table)
    _out.print("")
    for name, rule_set in sets.items():
        changed = differences(rule_set, LESHAN)
        if changed:
            zh = "、".join(option_item(rule_set, n, "zh") for n in changed)
            en = ", ".join(option_item(rule_set, n, "en") for n in changed)
        else:
            zh, en = "全部默认", "all defaults"
        _out.print(f"{preset_name(name, 'zh')}: {zh} / {preset_name(name, 'en')}: {en}", markup=False)
    _out.print("erqishi rules PRESET: what each option means; --json: the options as JSON", markup=False)


# ---------------------------------------------------------------------------------
# 争霸赛 tournaments of bots: erqishi tournament run | resume | list | show

tournament_app = typer.Typer(
    name="tournament",
    cls=_Group,
    context_settings=_CONTEXT,
    help="争霸赛：机器人之间的比赛：三人一桌的瑞士制轮次、复式发牌、排名和擂台决赛。\n\n"
    "争霸赛 tournaments of bots: Swiss rounds at tables of three, duplicate deals, standings, a 擂台 final.",
    short_help="争霸赛 Tournaments of bots: Swiss rounds, standings, a 擂台 final",
    add_completion=False,
    invoke_without_command=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.add_typer(tournament_app, name="tournament")


@tournament_app.callback()
def _tournament_root(ctx: typer.Context) -> None:
    """争霸赛 tournaments of bots: run, resume, list, show."""
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())


#: Where ``erqishi tournament list`` and ``show`` look by default: the web server's database.
TOURNAMENT_DB = "erqishi-web.db"

TournamentDbOpt = Annotated[
    str,
    typer.Option(
        "--db",
        callback=_db_given,
        help=_zh_en(
            "存争霸赛的 SQLite 文件或 PostgreSQL URL", "SQLite file or PostgreSQL URL of the stored tournaments"
        ),
    ),
]


def _tournament_levels(players: str | None, field: int | None, bots: str) -> list[str]:
    """The bot level of each entrant, from ``--players`` or ``--field`` with ``--bots``."""
    from erqishi.bots import BOTS
    from erqishi.tournament.tournament import MAX_ENTRANTS, MIN_ENTRANTS

    if players is not None and field is not None:
        _fail("--players 和 --field 只能给一个", "give --players or --field, not both")
    if players is not None:
        levels = [p.strip() for p in players.split(",") if p.strip()]
        option = "--players"
    else:
        cycle = [b.strip() for b in bots.split(",") if b.strip()]
        if not cycle:
            _fail("--bots：至少给一个机器人级别", "--bots: give at least one bot level")
        count = 9 if field is None else field
        if not MIN_ENTRANTS <= count <= MAX_ENTRANTS:
            _fail(
                f"--field 应为 {MIN_ENTRANTS}-{MAX_ENTRANTS} 人，不是 {count}",
                f"--field must be {MIN_ENTRANTS}-{MAX_ENTRANTS} players, got {count}",
            )
        levels = [cycle[i % len(cycle)] for i in range(count)]
        option = "--bots"
    unknown = [level for level in levels if level not in BOTS]
    if unknown:
        _fail(
            f"{option}：没有 {unknown[0]!r} 这个机器人；机器人有 {'、'.join(BOTS)}",
            f"{option}: unknown bot {unknown[0]!r}; bots are {', '.join(BOTS)}",
        )
    if not MIN_ENTRANTS <= len(levels) <= MAX_ENTRANTS:
        _fail(
            f"{option}：争霸赛要 {MIN_ENTRANTS}-{MAX_ENTRANTS} 人，给了 {len(levels)} 人",
            f"{option}: a tournament has {MIN_ENTRANTS}-{MAX_ENTRANTS} players, got {len(levels)}",
        )
    return levels


def _tournament_json(tournament: Any, tournament_id: int | None, matches: dict[tuple[int, int], int]) -> str:
    champion = tournament.champion
    data = {
        "id": tournament_id,
        "status": tournament.status.value,
        "champion": tournament.entrants[champion].name if champion is not None else None,
        "ranking": [s.to_json() for s in tournament.ranking()],
        "matches": [{"round": r, "table": t, "match": m} for (r, t), m in sorted(matches.items())],
        "tournament": tournament.to_json(),
    }
    return json.dumps(data, ensure_ascii=False)


def _print_tournament(tournament: Any, rounds: Sequence[int]) -> None:
    from erqishi.tournament.render import champion_line, render_ranking, render_round

    for number in rounds:
        _out.print(render_round(tournament, number))
    if tournament.played:
        _out.print(render_ranking(tournament))
    line = champion_line(tournament)
    if line is not None:
        _out.print(line, markup=False)


async def _open_store(db: str) -> Any:
    from erqishi.storage import Store

    try:
        return await Store.open(db)
    except Exception as exc:
        _fail(f"打不开 {db}", f"cannot open {db}: {_db_error(exc)}")


async def _play_tournament(
    tournament: Any, db: str | None, tournament_id: int | None, workers: int, as_json: bool
) -> int:
    """Play a bot-only tournament's rounds left, printing each round and storing it (with
    its matches) when ``db`` is given; the exit code."""
    from functools import partial

    from erqishi.tournament import TournamentError, play_round
    from erqishi.tournament.persist import create_stored, save_stored
    from erqishi.tournament.render import render_round

    store = await _open_store(db) if db is not None else None
    matches: dict[tuple[int, int], int] = {}
    try:
        if store is not None and tournament_id is None:
            tournament_id = await create_stored(store, tournament)
        while tournament.status.value != "finished":
            try:
                tournament, played = play_round(tournament, workers=workers)
            except TournamentError as exc:
                _fail_with(exc)
            if store is not None and tournament_id is not None:
                try:
                    _, ids = await save_stored(store, tournament_id, tournament, played)
                except Exception as exc:
                    sys.stderr.write(
                        _error_line(
                            f"没能存下第 {played[0].round} 轮",
                            f"could not store round {played[0].round}: {_db_error(exc)}",
                        )
                    )
                    return 1
                matches.update({(p.round, p.table): m for p, m in zip(played, ids, strict=True)})
            if not as_json:
                _emit(partial(_out.print, render_round(tournament, tournament.played[-1].number)))
    finally:
        if store is not None:
            await store.close()
    if as_json:
        print(_tournament_json(tournament, tournament_id, matches))
        return 0
    _emit(lambda: _print_tournament(tournament, ()))
    if tournament_id is not None and db is not None:
        from erqishi.storage import mask_url

        shown = mask_url(db)
        _out.print(
            f"争霸赛已存为第 {tournament_id} 号 tournament {tournament_id} stored in {shown}: "
            f"`erqishi tournament show {tournament_id} --db {shown}`",
            markup=False,
        )
    return 0


@tournament_app.command("run", short_help="开赛 Run a 争霸赛 of bots")
def tournament_run(
    name: Annotated[str, typer.Option("--name", help=_zh_en("争霸赛名称", "the tournament's name"))] = "争霸赛",
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help=_zh_en(
                "每位选手一个机器人级别，逗号分隔（heuristic,search,random,…）",
                "a bot level per player, comma-separated (heuristic,search,random,…)",
            ),
        ),
    ] = None,
    field: Annotated[
        int | None,
        typer.Option(
            "--field",
            "-n",
            help=_zh_en(
                "选手人数（默认 9，2-120），级别按 --bots 循环轮流取",
                "number of players (default 9, 2-120), their levels taken in turn from --bots, repeating",
            ),
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help=_zh_en("配合 --field：机器人级别，逗号分隔", "with --field: the bot levels, comma-separated"),
        ),
    ] = ("heuristic,random"),
    rounds: Annotated[int, typer.Option("--rounds", help=_zh_en("瑞士制轮数", "Swiss rounds"))] = 3,
    quan: Annotated[
        int,
        typer.Option(
            "--quan", help=_zh_en("每轮打几圈（各桌打同样的牌）", "圈 per round (every table plays the same deals)")
        ),
    ] = 1,
    rules: RulesOpt = "leshan",
    seed: Annotated[
        int,
        typer.Option(
            "--seed", help=_zh_en("所有发牌、排座和机器人选择的随机种子", "seed of every deal, seating and bot choice")
        ),
    ] = 1,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            callback=_db_given,
            help=_zh_en(
                "争霸赛及其各场比赛存到这里（SQLite 文件或 URL；不给则不保存）",
                "store the tournament and its matches here (SQLite file or URL)",
            ),
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", "-w", help=_zh_en("一轮各桌用的本机工作进程数", "local worker processes for a round's tables")
        ),
    ] = 1,
    leitai: Annotated[
        bool,
        typer.Option(
            "--leitai",
            help=_zh_en(
                "擂台决赛：由积分第一的擂主守擂，迎战其后两名",
                "a 擂台 final: the leader defends the title against the next two",
            ),
        ),
    ] = False,
    filler: Annotated[
        str, typer.Option("--filler", help=_zh_en("补齐缺人牌桌的机器人级别", "the bot level that fills short tables"))
    ] = "heuristic",
    as_json: JsonOpt = False,
) -> None:
    """Run a 争霸赛 of bots: each round seats the players at tables of three (Swiss:
    no repeated co-players while that can be avoided, bots fill short tables, seats
    balanced), every table plays the round's same deals, standings break ties by best
    round, head-to-head and hu; ``--leitai`` adds a final where the leader defends the
    title. Prints each round's tables and the final ranking; ``--db`` stores it all."""
    from erqishi.tournament import Tournament, TournamentError

    levels = _tournament_levels(players, field, bots)
    _start_bots([*levels, filler], "--bots" if field is not None else "--players")
    if workers < 1:
        _fail(f"--workers 至少为 1，不是 {workers}", f"--workers must be at least 1, got {workers}")
    rule_set = _read_rules(rules)
    try:
        tournament = Tournament.create(
            name, rule_set, rounds=rounds, match_quan=quan, seed=seed, leitai=leitai, filler=filler
        )
        for level in levels:
            tournament = tournament.register_bot(level)
    except TournamentError as exc:
        _fail_with(exc)
    import asyncio

    raise _Exit(asyncio.run(_play_tournament(tournament, db, None, workers, as_json)))


@tournament_app.command("resume", short_help="续打 Play on a stopped tournament")
def tournament_resume(
    tournament_id: Annotated[
        int, typer.Argument(metavar="ID", help=_zh_en("存下的争霸赛编号", "the stored tournament's id"))
    ],
    db: TournamentDbOpt = TOURNAMENT_DB,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", "-w", help=_zh_en("一轮各桌用的本机工作进程数", "local worker processes for a round's tables")
        ),
    ] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Play on a stored bot tournament that was stopped between (or during) rounds."""
    import asyncio

    if workers < 1:
        _fail(f"--workers 至少为 1，不是 {workers}", f"--workers must be at least 1, got {workers}")
    tournament, _ = asyncio.run(_load_tournament(db, tournament_id))
    if tournament.status.value == "finished":
        _fail(f"争霸赛 {tournament_id} 已经结束", f"tournament {tournament_id} is finished")
    raise _Exit(asyncio.run(_play_tournament(tournament, db, tournament_id, workers, as_json)))


async def _load_tournament(db: str, tournament_id: int) -> tuple[Any, dict[tuple[int, int], int]]:
    from erqishi.tournament import TournamentError
    from erqishi.tournament.persist import load_stored

    if "://" not in db and not Path(db).is_file():
        _fail(f"--db：没有 {db} 这个文件", f"--db: no such file {db}")
    store = await _open_store(db)
    try:
        tournament, found = await load_stored(store, tournament_id)
    except TournamentError as exc:
        _fail_with(exc, db, db)
    except Exception as exc:
        _fail(f"读不了 {db}", f"cannot read {db}: {_db_error(exc)}")
    finally:
        await store.close()
    return tournament, found.matches


@tournament_app.command("list", short_help="列表 List the stored tournaments")
def tournament_list(db: TournamentDbOpt = TOURNAMENT_DB, as_json: JsonOpt = False) -> None:
    """List the stored tournaments: id, name, status, players, rounds, champion."""
    import asyncio

    from erqishi.tournament.render import render_listing

    if "://" not in db and not Path(db).is_file():
        _fail(f"--db：没有 {db} 这个文件", f"--db: no such file {db}")

    async def read() -> Any:
        store = await _open_store(db)
        try:
            return await store.list_tournaments(limit=1000)
        except Exception as exc:
            _fail(f"读不了 {db}", f"cannot read {db}: {_db_error(exc)}")
        finally:
            await store.close()

    found = asyncio.run(read())
    if as_json:
        print(json.dumps([s.to_json() for s in found], ensure_ascii=False))
        return
    _emit(lambda: _out.print(render_listing(found) if found else _visible(f"没有争霸赛 no tournaments in {db}")))


@tournament_app.command("show", short_help="查看 Show a stored tournament")
def tournament_show(
    tournament_id: Annotated[
        int, typer.Argument(metavar="ID", help=_zh_en("存下的争霸赛编号", "the stored tournament's id"))
    ],
    db: TournamentDbOpt = TOURNAMENT_DB,
    as_json: JsonOpt = False,
) -> None:
    """Show a stored tournament: every round's tables and scores, the standings (the final
    ranking once it is over) and the champion."""
    import asyncio

    from erqishi.records.names import printable_name as _printable

    tournament, matches = asyncio.run(_load_tournament(db, tournament_id))
    if as_json:
        print(_tournament_json(tournament, tournament_id, matches))
        return
    _out.print(f"{_printable(tournament.name)} (#{tournament_id})", markup=False)
    _emit(lambda: _print_tournament(tournament, [r.number for r in tournament.played]))


#: the exit code of a command interrupted by Ctrl-C (128 + SIGINT), as shells report it
_INTERRUPTED: Final = 130
#: the largest skill drift per game ``erqishi ratings --tau`` takes (OpenSkill's default
#: is about 0.08; beyond a few units every rating is noise)
_MAX_TAU: Final = 100.0
#: where ``erqishi sim`` stores its runs unless told (``--db``)
_SIM_DB: Final = "erqishi-sim.db"
#: the most hands one ``erqishi sim`` run plays (its results are held in memory)
_MAX_SIM_HANDS: Final = 10_000_000
#: the most local worker processes a sim run may ask for is this or four per CPU, the larger
_MAX_WORKERS_MIN: Final = 16
#: the seeds a run can be stored with (a 64-bit signed integer column)
_SEED_MIN: Final = -(2**63)
_SEED_MAX: Final = 2**63 - 1


class _Terminated(BaseException):
    """A signal that stops the command (SIGTERM), raised in the main thread like Ctrl-C's
    KeyboardInterrupt: a BaseException, so no ``except Exception`` on the way (a database
    write that is retried, a bot that falls back) takes it for an ordinary error."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.code = 128 + signum


def _terminated(signum: int, _frame: object) -> None:
    """SIGTERM: stop the command as an interruption (exit 128 + the signal's number)."""
    raise _Terminated(signum)


#: errors of an output that cannot take what is written (a full disk, /dev/full, a quota)
_OUTPUT_FULL: Final = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


#: Each command's help in Chinese, shown above its English text (every screen in both
#: languages); a test checks that every command has one.
_ZH_HELP: Final = {
    "score": "算分：是否胡牌、最好的组牌方式、胡数、规格、番、得分和结算。",
    "waits": "下叫：差一张的手牌胡哪些牌，每张的得分。",
    "verify": "核对记录：重放每一步，给出结果、未打完或第一个不合规则的步骤；记录自带的结果与重放不符时也会指出。",
    "replay": (
        "回放：一步一步打印一手牌（或一场）的记录，最后算分，用语与终端和网页游戏相同。"
        "记录中有不合规则的步骤时，回放停在该步并标出，退出码为 1。"
    ),
    "play": (
        "打牌：在终端里和机器人打一整场（2、3 或 4 人，由规则决定）。"
        "边打边存：按 q 退出时会先确认，`erqishi play --resume` 从停下的地方接着打。"
    ),
    "learn": (
        "学牌：在终端里学贰柒拾，每课一条规则、一个局面，由引擎核对；最后一课在教练指点下和机器人打一整手。你的星星会保存。"
    ),
    "sim": (
        "机器人对局：座位轮换；每个机器人的胡牌率、平均收付及其 95% 区间；"
        "对局和记录存下供 `erqishi replay --db` 回放。"
        "`--duplicate` 复式：每副牌按机器人的每种轮换各打一次（`--permutations` 则每种排列各打一次），消除牌运的影响。"
        "`--report FILE.html` 写出图表报告（已存的对局可用 `erqishi report` 画图）。"
        "`--backend ray` 在 Ray 集群（`--address`）或本机 Ray 上打同样的牌，结果相同。"
    ),
    "serve": (
        "网页开房间：和朋友在浏览器里打牌，在 http://HOST:PORT 提供网页游戏和历史记录（房间、座位、"
        "机器人、断线重连、回放）。"
    ),
    "runs": "对局列表：列出 `erqishi sim` 存下的对局（编号、日期、随机种子、手数、机器人、规则）。",
    "report": (
        "报告：把存下的一次对局写成一个自带全部内容的 HTML 页面（中英双语），"
        "图表有每个机器人每手平均收付（累计）及 95% 区间、"
        "各座位的胡牌率和抬炮率、胡牌的胡数和番、荒庄率和机器人的等级分。"
    ),
    "ratings": (
        "等级分：按存下的机器人对局和网页比赛，给每个机器人和有名字的网页玩家评分（OpenSkill Plackett-Luce）。"
        "每手按收付排名次，收付相同者名次并列；μ、σ 和保守的 μ − 3σ，从高到低。"
    ),
    "rules": "规则：用文字说明一套规则的选项（R-10）及其含义；不给预设则并排列出所有预设。",
    "tournament run": (
        "争霸赛：机器人比赛。每轮三人一桌（瑞士制：尽量不重复同桌，缺人由机器人补，座位均衡），"
        "各桌打本轮同样的牌；按总分排名，同分时依次比最好的一轮、相互间的成绩、胡数；"
        "`--leitai` 加一场擂台决赛，由擂主守擂。"
        "打印每轮的分桌和最终排名；给了 `--db` 就全部存下。"
    ),
    "tournament resume": "续打一场已保存、在两轮之间（或一轮之中）停下的机器人争霸赛。",
    "tournament list": "列出存下的争霸赛：编号、名称、状态、选手、轮数、冠军。",
    "tournament show": "显示一场存下的争霸赛：每轮的分桌和各桌得分、排名（结束后为最终排名）和冠军。",
}


#: what may not begin a line (closing punctuation, the separator of the two languages) or
#: end one (opening punctuation), Chinese or not
_NO_START: Final = "，。、；：！？）》”)]},.;:!?·"
_NO_END: Final = "（《“([{"


def _wrap_wide(text: str, columns: int = 76) -> list[str]:
    """``text`` broken into lines of at most ``columns`` terminal columns, a Chinese
    character taking two (the help formatter counts characters, so it would make Chinese
    lines twice too wide); breaks fall between Chinese characters or at spaces, never
    inside a Latin word or an option name unless it is wider than a line; no line starts
    with closing punctuation or the ``·`` between the languages, and none ends with opening
    punctuation (a line may then run one mark over).

    >>> _wrap_wide("每种轮换各打一次（`--permutations` 则每种排列各打一次）。", 20)
    ['每种轮换各打一次', '（`--permutations`', '则每种排列各打一次）。']
    >>> _wrap_wide("a (自摸)", 7)  # the ")" stays, one column over
    ['a (自摸)']
    >>> _wrap_wide("ab (自", 4)  # the "(" goes down with its word
    ['ab', '(自']
    >>> _wrap_wide("abcdefghij", 4)
    ['abcd', 'efgh', 'ij']
    >>> _wrap_wide("a b c", 1)
    ['a', 'b', 'c']
    """
    tokens: list[str] = []
    for token in re.findall(r"[\u2e80-\uffff]|[^\s\u2e80-\uffff]+|\s+", text):
        if tokens and tokens[-1].isspace() and token[0] in _NO_START:
            tokens[-1] += token  # " ·": no break before it either
        else:
            tokens.append(token)
    lines: list[str] = []
    line, width = "", 0
    for token in tokens:
        w = cell_len(token)
        closing = not token.isspace() and token.lstrip()[0] in _NO_START
        if width + w > columns and line.strip() and not closing:
            kept = line.rstrip()
            end = len(kept)
            while end and (kept[end - 1] in _NO_END or kept[end - 1].isspace()):  # opening marks go
                end -= 1  # down with their word
            if end:
                lines.append(kept[:end])
                line = kept[end:].lstrip()
                width = cell_len(line)
                if token.isspace():
                    continue
        while width + w > columns and w > columns // 2 and not token[0].isspace():  # a word wider than a line
            room = max(columns - width, 1)
            cut = 0
            while cut < len(token) and cell_len(token[: cut + 1]) <= room:
                cut += 1
            cut = max(cut, 1)
            # the same rules inside a word: no piece ends with an opening mark (back off, or
            # when only opening marks are left behind, go on past them), none starts with a
            # closing one
            back = cut
            while back > 1 and token[back - 1] in _NO_END:
                back -= 1
            if token[back - 1] not in _NO_END:
                cut = back
            else:
                while cut < len(token) and token[cut - 1] in _NO_END:
                    cut += 1
            while cut < len(token) and token[cut] in _NO_START:
                cut += 1
            if cut >= len(token):  # it cannot be cut: it runs over
                break
            lines.append((line + token[:cut]).rstrip())
            line, width = "", 0
            token = token[cut:]
            w = cell_len(token)
        line += token
        width += w
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _bilingual_help(typer_app: typer.Typer, prefix: str = "") -> None:
    """Put each command's Chinese help (``_ZH_HELP``) above its English docstring."""
    import inspect

    for info in typer_app.registered_commands:
        assert info.callback is not None
        name = prefix + (info.name or info.callback.__name__.replace("_", "-"))
        english = info.help or inspect.getdoc(info.callback) or ""
        info.help = f"{_ZH_HELP[name]}\n\n{english}"
        info.cls = _Command


_bilingual_help(app)
_bilingual_help(tournament_app, "tournament ")


def _zh_usage(exc: Exception) -> str:
    """A usage error of the command line (typer's, English) in Chinese: by its kind (the
    class names are the same in click and in typer's own copy of it), naming the option or
    argument."""
    kinds = {kind.__name__ for kind in type(exc).__mro__}
    option = getattr(exc, "option_name", None)
    message = str(getattr(exc, "message", "") or "")
    if "NoSuchOption" in kinds and option:
        maybe = sorted(getattr(exc, "possibilities", None) or [])
        return f"没有 {option} 这个选项" + (f"（是不是 {'、'.join(maybe)}？）" if maybe else "")
    if "BadOptionUsage" in kinds and option:
        if "requires an argument" in message:
            return f"{option} 后面要跟一个值"
        if "does not take a value" in message:
            return f"{option} 不带值"
        return f"{option} 用得不对"
    param = getattr(exc, "param", None)
    opts = getattr(param, "opts", None) or []
    if getattr(param, "param_type_name", None) == "option" and opts:
        name = str(opts[0])
    else:
        name = str(getattr(param, "metavar", None) or getattr(param, "name", None) or "").upper()
    if "MissingParameter" in kinds:
        return f"缺少 {name}" if name else "缺少必需的参数"
    if "BadParameter" in kinds:
        lowered = message.lower()
        if lowered.startswith("is empty"):
            return f"{name or '参数'} 不能为空：要给一个 SQLite 文件或数据库地址"
        if "integer" in lowered:
            return f"{name or '参数'} 要是整数"
        if "float" in lowered or "number" in lowered:
            return f"{name or '参数'} 要是数"
        return f"{name} 的值不对" if name else "参数的值不对"
    found = re.match(r"No such command '(.*?)'\.(?:\s*Did you mean '(.*?)'\?)?$", message)
    if found:
        suggestion = f"（是不是 {found.group(2)}？）" if found.group(2) else ""
        return f"没有 {found.group(1)} 这个命令{suggestion}"
    found = re.match(r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)", message)
    if found:
        return f"多给了参数：{found.group(1)}"
    return "命令用法不对"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``erqishi`` command; returns the exit code."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    try:
        code = app(args=list(argv) if argv is not None else None, standalone_mode=False)
    except (_Exit, _Terminated) as exc:
        return exc.code
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        sys.stderr.write("erqishi: 已放弃 aborted\n")
        return 130
    except OSError as exc:
        if exc.errno not in _OUTPUT_FULL:
            raise
        # the output cannot be written (a full disk, /dev/full): one line, and no second
        # failure when the interpreter flushes standard output at exit
        import os

        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.stderr.write(_error_line(_because("写不出输出", exc), f"cannot write: {exc.strerror or exc}"))
        return 1
    except typer.TyperException as exc:
        # usage errors (unknown option, bad number, missing argument): one line, exit 2
        ctx = getattr(exc, "ctx", None)
        path = getattr(ctx, "command_path", None)
        hint = f" (see '{path} --help')" if path else ""
        hint_zh = f"（见 {path} -h）" if path else ""
        sys.stderr.write(_error_line(_zh_usage(exc) + hint_zh, exc.format_message() + hint))
        return 2 if exc.exit_code == 1 or exc.exit_code == 2 else exc.exit_code
    # typer returns the code of an Exit instead of raising it when not standalone, and
    # turns Ctrl-C (KeyboardInterrupt) into Exit(130): an interrupted command is no success
    if isinstance(code, int) and not isinstance(code, bool) and code != 0:
        if code == _INTERRUPTED:
            sys.stderr.write("erqishi: 已中断 interrupted\n")
        return code
    return 0


def run() -> None:
    """Console-script entry: run :func:`main` and exit with its code."""
    sys.exit(main())


if __name__ == "__main__":
    run()
