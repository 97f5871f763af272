"""One narration of the events of :mod:`erqishi.play.events`, in Chinese and English.

The wording lives here only. The terminal game's log and ``erqishi replay`` call
:func:`narrate`; the web server serves :data:`TEMPLATES` to the browser
(``GET /api/narration``), whose renderer fills the same templates with the same
parameters, so a move reads the same everywhere. Card faces are Chinese in both languages
(R-1.2); game terms keep their Chinese name in English text, with a gloss.

A template names its parameters in braces: ``{who}`` (the acting seat as the reader
knows it: 你, a name, 下家…), ``{s}`` (English verb ending: empty for "You", ``s``
otherwise), ``{card}``, ``{pair}`` and ``{groups}`` (card faces) and the event's numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from erqishi.core.cards import Card
from erqishi.core.engine import ActionKind
from erqishi.core.hands import WinSource
from erqishi.play.events import (
    Announced,
    DeadHand,
    Dealt,
    Discarded,
    Event,
    Flipped,
    MatchOver,
    Passed,
    Scored,
    Took,
    Won,
)

__all__ = ["LANGS", "TEMPLATES", "Lang", "Names", "kuai", "narrate", "narrate_lines", "template"]

Lang = Literal["zh", "en"]
#: The languages of every screen and page.
LANGS: tuple[Lang, ...] = ("zh", "en")

#: Every sentence of the story, by key: (Chinese, English).
TEMPLATES: dict[str, tuple[str, str]] = {
    "dealt": ("—— 第 {hand} 手：圈{quan}，{dealer} 做庄 ——", "—— Hand {hand}: round (圈) {quan}, dealer: {dealer} ——"),
    "sits_out": ("（{who} 本手轮空）", "({who} sit{s} this hand out)"),
    "flipped": ("{who} 翻出 {card}（堂牌余 {left} 张）", "{who} flip{s} {card} ({left} left in the stock)"),
    "discarded": ("{who} 打 {card}", "{who} discard{s} {card}"),
    "took_chi": ("{who} 吃 {card}（{pair}）{bai}", "{who} chow{s} (吃) {card} with {pair}{bai}"),
    "bai": ("，摆 {groups}", ", lay{s} down (摆) {groups}"),
    "took_dui": ("{who} 对 {card}", "{who} pung{s} (对) {card}"),
    "took_kai": ("{who} 开 {card}", "{who} kong{s} (开) {card}"),
    "took_kai_yu": ("{who} 开 {card}（下雨）", "{who} kong{s} (开) {card} onto the 对 (下雨)"),
    "announced": ("{who} 报{kuai}", "{who} announce{s} {kuai} ({count} quad cards)"),
    "passed": ("无人要 {card}", "nobody takes {card}"),
    "won": ("{who} 胡 {card}（{source}）", "{who} win{s} (胡) on {card} ({source})"),
    "won_tian": ("{who} 天胡", "{who} win{s} 天胡 with the dealt cards"),
    "dead": ("荒庄：堂牌翻完，无人胡牌", "Dead hand (荒庄): the stock ran out and nobody won"),
    "scored_win": (
        "{who} 得分 {score}：{hu} 胡，{tier}，规格 {base}，番 {fans}",
        "{who} score{s} {score}: {hu} hu, {tier}, base {base}, 番 {fans}",
    ),
    "scored_group": ("  {name} {cards}{where} {hu} 胡", "  {name} {cards}{where} {hu} hu"),
    "where_exposed": ("（亮）", " (exposed)"),
    "where_winning": ("（胡牌）", " (winning card)"),
    "scored_payments": ("结算：{payments}", "Payments: {payments}"),
    "scored_totals": ("总分：{totals}", "Match totals: {totals}"),
    "match_over": ("—— 比赛结束：{totals}；第一名：{leaders} ——", "—— Match over: {totals}; first: {leaders} ——"),
    "none": ("无", "none"),
    "list_sep": ("、", ", "),
    "score_sep": ("，", ", "),
    "source_discard": ("抬炮", "抬炮, on a discard"),
    "source_flip": ("翻胡", "翻胡, on a flip"),
    "source_own_flip": ("自摸", "自摸, on their own flip"),
    "source_tian": ("天胡", "天胡, with the dealt cards"),
}

_NUMBERS = "零一二三四五六七八九"


def template(key: str, lang: Lang) -> str:
    """The sentence ``key`` of :data:`TEMPLATES` in ``lang``."""
    zh, en = TEMPLATES[key]
    return en if lang == "en" else zh


def kuai(count: int) -> str:
    """The announcement of ``count`` quad cards (R-4.2): 八块, 十二块, 十六块…

    >>> kuai(8), kuai(12), kuai(20)
    ('八块', '十二块', '二十块')
    """
    tens, ones = divmod(count, 10)
    text = ("" if tens == 0 else "十" if tens == 1 else _NUMBERS[tens] + "十") + (_NUMBERS[ones] if ones else "")
    return f"{text or '零'}块"


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _fill(text: str, params: dict[str, object]) -> str:
    """``text`` with every ``{name}`` replaced in one pass, so a value that itself reads
    like a placeholder (a player named ``{card}``) stays as it is; an unknown name is left
    (what the browser's renderer does too)."""
    return _PLACEHOLDER.sub(lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), text)


def _faces(cards: Sequence[Card]) -> str:
    return "".join(str(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Names:
    """How seats are named to the reader: ``labels[seat]`` (a name, 下家…), and ``you``
    (the reader's own seat, named 你/You, with English verbs agreeing), if any."""

    labels: Sequence[str]
    you: int | None = None

    def who(self, seat: int | None, lang: Lang) -> str:
        """The seat as the reader knows it."""
        if seat is None:
            return "?"
        if seat == self.you:
            return "You" if lang == "en" else "你"
        return self.labels[seat] if 0 <= seat < len(self.labels) else f"座{seat}"

    def s(self, seat: int | None) -> str:
        """The English verb ending for ``seat``: "You discard", "Li discards"."""
        return "" if seat is not None and seat == self.you else "s"


def _source(source: WinSource, lang: Lang) -> str:
    return template(f"source_{source.value}", lang)


def narrate_lines(event: Event, lang: Lang, names: Names) -> list[str]:
    """The event in words, one or more lines (a settled hand adds its groups and
    payments). Raises nothing: every event kind has its sentence."""
    t: Callable[[str], str] = lambda key: template(key, lang)  # noqa: E731
    who: Callable[[int | None], str] = lambda seat: names.who(seat, lang)  # noqa: E731
    if isinstance(event, Dealt):
        lines = [_fill(t("dealt"), {"hand": event.hand, "quan": event.quan, "dealer": who(event.dealer)})]
        if event.sits_out is not None:
            lines.append(_fill(t("sits_out"), {"who": who(event.sits_out), "s": names.s(event.sits_out)}))
        return lines
    seat = getattr(event, "seat", None)
    base: dict[str, object] = {"who": who(seat), "s": names.s(seat)}
    if isinstance(event, Flipped):
        return [_fill(t("flipped"), {**base, "card": event.card, "left": event.stock_left})]
    if isinstance(event, Discarded):
        return [_fill(t("discarded"), {**base, "card": event.card})]
    if isinstance(event, Took):
        if event.take is ActionKind.CHI:
            bai = ""
            if event.bai:
                bai = _fill(t("bai"), {**base, "groups": " / ".join(_faces(g) for g in event.bai)})
            return [_fill(t("took_chi"), {**base, "card": event.card, "pair": _faces(event.cards), "bai": bai})]
        key = "took_kai_yu" if event.yu else f"took_{event.take.value}"
        return [_fill(t(key), {**base, "card": event.card})]
    if isinstance(event, Announced):
        return [_fill(t("announced"), {**base, "kuai": kuai(event.count), "count": event.count})]
    if isinstance(event, Passed):
        return [_fill(t("passed"), {"card": event.card})]
    if isinstance(event, Won):
        if event.card is None:
            return [_fill(t("won_tian"), base)]
        return [_fill(t("won"), {**base, "card": event.card, "source": _source(event.source, lang)})]
    if isinstance(event, DeadHand):
        return [t("dead")]
    if isinstance(event, Scored):
        return _scored(event, lang, names)
    assert isinstance(event, MatchOver)
    return [
        _fill(
            t("match_over"),
            {
                "totals": _scores(event.totals, lang, names),
                "leaders": t("list_sep").join(who(s) for s in event.leaders),
            },
        )
    ]


def _scores(values: Sequence[int], lang: Lang, names: Names) -> str:
    return template("score_sep", lang).join(f"{names.who(s, lang)} {v:+d}" for s, v in enumerate(values))


def _scored(event: Scored, lang: Lang, names: Names) -> list[str]:
    t: Callable[[str], str] = lambda key: template(key, lang)  # noqa: E731
    outcome = event.outcome
    a = outcome.analysis
    lines: list[str] = []
    if outcome.is_win and a is not None:
        winner = outcome.winner
        fans = t("list_sep").join(a.fan_names) or t("none")
        tier = a.tier.name if a.tier is not None else "-"
        lines.append(
            _fill(
                t("scored_win"),
                {
                    "who": names.who(winner, lang),
                    "s": names.s(winner),
                    "score": a.score,
                    "hu": a.hu,
                    "tier": tier,
                    "base": a.base,
                    "fans": fans,
                },
            )
        )
        for g in a.groups:
            where = t("where_exposed") if g.exposed else t("where_winning") if g.winning else ""
            lines.append(
                _fill(t("scored_group"), {"name": g.name, "cards": _faces(g.cards), "where": where, "hu": g.hu})
            )
        lines.append(_fill(t("scored_payments"), {"payments": _scores(outcome.payments, lang, names)}))
    # a dead hand pays nothing: its dead event told it all, but for the match totals
    if tuple(event.totals) != tuple(outcome.payments):
        lines.append(_fill(t("scored_totals"), {"totals": _scores(event.totals, lang, names)}))
    return lines


def narrate(event: Event, lang: Lang, names: Names) -> str:
    """The event in words (lines joined by newlines).

    >>> from erqishi.play.events import Discarded
    >>> narrate(Discarded(3, 1, Card.X9), "zh", Names(["甲", "乙", "丙"]))
    '乙 打 九'
    >>> narrate(Discarded(3, 0, Card.X9), "en", Names(["A", "B", "C"], you=0))
    'You discard 九'
    """
    return "\n".join(narrate_lines(event, lang, names))
