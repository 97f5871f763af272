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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from erqishi.core.cards import Card
from erqishi.core.engine import Action, ActionKind, Refusal
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
from erqishi.records.names import printable_name

__all__ = [
    "LANGS",
    "TEMPLATES",
    "VERB_EN",
    "Lang",
    "Names",
    "action_words",
    "explain",
    "fill",
    "kuai",
    "narrate",
    "narrate_lines",
    "template",
    "term",
]

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
    "won_tian": ("{who} 天胡", "{who} win{s} with the dealt cards (天胡)"),
    "dead": ("荒庄：堂牌翻完，无人胡牌", "Dead hand (荒庄): the stock ran out and nobody won"),
    "scored_win": (
        "{who} 得分 {score}：{hu} 胡，{tier}，规格 {base}，番 {fans}",
        "{who} score{s} {score}: {hu} hu, {tier}, base {base}, doublings (番): {fans}",
    ),
    "scored_group": ("  {name} {cards}{where} {hu} 胡", "  {name} {cards}{where} {hu} hu"),
    "where_exposed": ("（亮）", " (exposed)"),
    "where_winning": ("（胡牌）", " (winning card)"),
    "scored_payments": ("结算：{payments}", "Payments: {payments}"),
    "scored_totals": ("总分：{totals}", "Match totals: {totals}"),
    "match_over": ("—— 比赛结束：{totals}；第一名：{leaders} ——", "—— Match over: {totals}; first: {leaders} ——"),
    # game terms in English text: the Chinese term with its gloss (RULES.md );
    # a tier and a 番 by their Chinese names, a group by its kind's code name
    "tier_小和": ("小和", "小和 (small win)"),
    "tier_中和": ("中和", "中和 (middle win)"),
    "tier_大和": ("大和", "大和 (big win)"),
    "tier_30和": ("30和", "30和 (30-hu win)"),
    "tier_台和": ("台和", "台和 (top win)"),
    "fan_天胡": ("天胡", "天胡 (heavenly win)"),
    "fan_地胡": ("地胡", "地胡 (earthly win)"),
    "fan_坤胡": ("坤胡", "坤胡 (every group scores)"),
    "fan_瞟胡": ("瞟胡", "瞟胡 (all hu from the table)"),
    "fan_圈胡": ("圈胡", "圈胡 (round cards)"),
    "fan_双圈": ("双圈", "双圈 (all four round cards)"),
    "group_run": ("顺子", "顺子 (run)"),
    "group_ejs": ("二七十", "二七十 (2-7-10)"),
    "group_hua": ("花吃", "花吃 (mixed)"),
    "group_dui": ("对", "对 (pung)"),
    "group_kan": ("坎", "坎 (kan)"),
    "group_kai": ("开", "开 (kong)"),
    "group_gun": ("滚", "滚 (gun)"),
    "group_pair": ("桩子", "桩子 (pair)"),
    "none": ("无", "none"),
    "list_sep": ("、", ", "),
    "score_sep": ("，", ", "),
    "source_discard": ("抬炮", "抬炮, on a discard"),
    "source_flip": ("翻胡", "翻胡, on a flip"),
    "source_own_flip": ("自摸", "自摸, on their own flip"),
    "source_tian": ("天胡", "天胡, with the dealt cards"),
    # why the engine refuses a move (erqishi.core.engine.Refusal.reason): "why_" + reason;
    # {card} is the card concerned, {rule} the R-id
    "why_card": ("{card} 不能打：{why}", "{card} cannot be discarded: {why}"),
    "why_locked": (
        "{card} 在坎/滚里，坎、滚不能拆（{rule}）",
        "{card} is in a concealed triple or four (坎/滚), which stays whole ({rule})",
    ),
    "why_shangtu_xiaxie": (
        "上吐下泻：{card} 会和刚才吃用的两张成一组（{rule}）",
        "Forbidden discard (上吐下泻): {card} would make a group with the two cards you just chowed with ({rule})",
    ),
    "why_guozhang": (
        "过张：这手牌你已经放过一次 {card} 的吃，不能再吃（{rule}）",
        "Passed chow (过张): you passed up a chow (吃) of {card} earlier in this hand, "
        "so you may not chow it now ({rule})",
    ),
    "why_discarded": (
        "你这手打过 {card}，不能再吃 {card}（{rule}）",
        "You discarded {card} earlier in this hand, so you may not chow (吃) it ({rule})",
    ),
    "why_huilong": (
        "回笼：你这手打过 {card}，不能胡 {card}（{rule}）",
        "No win back (回笼): you discarded {card} earlier in this hand, so you may not win on it ({rule})",
    ),
    "why_guohu": (
        "过胡：你上次放过了一次胡，下次吃、对、开之前，只能胡更大的（{rule}）",
        "Passed win (过胡): you declined a win since your last take; "
        "until you take again only a bigger win counts ({rule})",
    ),
    "why_not_chi_seat": (
        "只有打牌人的下家（或翻牌的人）能吃 {card}（{rule}）",
        "Only the discarder's next seat (下家), or the one who flipped, may chow (吃) {card} ({rule})",
    ),
    "why_kan_of_card": (
        "你手里的 {card} 是坎，坎不能拆来摆（{rule}）",
        "Your {card} are a concealed triple (坎), which stays whole and cannot be laid down (摆) ({rule})",
    ),
    "why_locked_partner": (
        "{card} 在坎/滚里，不能拿来吃（{rule}）",
        "{card} is in a concealed triple or four (坎/滚) and may not be used in a chow (吃) ({rule})",
    ),
    "why_bai_impossible": (
        "你手里的 {card} 要和这张一起摆下，却摆不成（{rule}）",
        "Your own {card} would have to be laid down (摆) with it, and it cannot be ({rule})",
    ),
    "why_chi_no_discard": (
        "吃了以后你就没有能打的牌了（{rule}）",
        "After this chow (吃) you would have no card you may discard ({rule})",
    ),
    "why_no_discard_after": (
        "对了以后你就没有能打的牌了（{rule}）",
        "After this pung (对) you would have no card you may discard ({rule})",
    ),
    "why_no_seat": ("没有这个座位（{rule}）", "There is no such seat ({rule})"),
    "why_sits_out": ("这一手你轮空（{rule}）", "You sit this hand out ({rule})"),
    "why_over": ("这一手已经结束了（{rule}）", "The hand is over ({rule})"),
    "why_not_dealer": ("每手由庄家先开始（{rule}）", "The dealer starts the hand ({rule})"),
    "why_no_tianhu": (
        "庄家的 21 张还不是胡牌，不能天胡（{rule}）",
        "The dealer's 21 cards are not a win: no 天胡 ({rule})",
    ),
    "why_must_open": (
        "庄家要先天胡或打出第一张（{rule}）",
        "The dealer must declare a heavenly win (天胡) or make the opening discard ({rule})",
    ),
    "why_must_discard": ("进了牌要先打一张（{rule}）", "After taking a card you discard one ({rule})"),
    "why_no_discard_owed": (
        "现在不用打牌：{card} 在等大家回应（{rule}）",
        "No discard is owed: {card} waits for answers ({rule})",
    ),
    "why_no_pass": ("现在不能过（{rule}）", "You may not pass now ({rule})"),
    "why_no_kan": (
        "开要你手里有 {card} 的坎（{rule}）",
        "A kong (开) needs a concealed triple (坎) of {card} in your hand ({rule})",
    ),
    "why_no_pair": ("对要你手里有一对 {card}（{rule}）", "A pung (对) needs a pair of {card} in your hand ({rule})"),
    "why_no_group": (
        "这两张和 {card} 不成顺子、二七十或花吃（{rule}）",
        "Those two cards make no run, 2-7-10 (二七十) or mixed group (花吃) with {card} ({rule})",
    ),
    "why_missing_partner": (
        "你手里没有吃 {card} 要用的牌（{rule}）",
        "You do not hold the cards this chow (吃) of {card} uses ({rule})",
    ),
    "why_bai_choice": (
        "你手里的 {card} 要一起摆下：选一种带摆的吃（{rule}）",
        "Your own {card} must be laid down (摆) too: choose a chow (吃) that lays them down ({rule})",
    ),
    "why_not_legal": ("现在不能这样做（{rule}）", "That is not allowed now ({rule})"),
    "why_no_win": (
        "这手牌加 {card} 还不能胡：要七组、没有散牌、至少 10 胡（{rule}）",
        "Your cards with {card} are not a win: seven groups, no loose card, at least 10 hu ({rule})",
    ),
    "why_must_kai": (
        "有开必开：手里有 {card} 的坎，必须开（{rule}）",
        "Compulsory kong (有开必开): you hold a concealed triple (坎) of {card} and must kong (开) it ({rule})",
    ),
    "why_outranked": (
        "有人必须开 {card}，开比这个先（{rule}）",
        "Someone must kong (开) {card}, which comes first ({rule})",
    ),
    "why_not_turn": ("现在不是你打牌（{rule}）", "It is not your turn to discard ({rule})"),
    "why_no_card": ("你手里没有 {card}（{rule}）", "You hold no {card} ({rule})"),
    "why_own_discard": ("不能要自己打的牌（{rule}）", "You may not take your own discard ({rule})"),
    "why_no_yu": (
        "不下雨：第四张不能开到亮出的对上（{rule}）",
        "No 下雨 (yu) here: a fourth card does not make a kong (开) onto an exposed pung (对) ({rule})",
    ),
    "why_other": ("{message}", "{message}"),
}

_NUMBERS = "零一二三四五六七八九"


def template(key: str, lang: Lang) -> str:
    """The sentence ``key`` of :data:`TEMPLATES` in ``lang``."""
    zh, en = TEMPLATES[key]
    return en if lang == "en" else zh


def term(kind: Literal["tier", "fan"], name: str, lang: Lang) -> str:
    """A tier's or a 番's name (Chinese, as in records) as the reader reads it: the name in
    Chinese, the name with its gloss in English (``tier_…``, ``fan_…`` of :data:`TEMPLATES`).

    >>> term("tier", "小和", "en"), term("fan", "坤胡", "zh")
    ('小和 (small win)', '坤胡')
    """
    pair = TEMPLATES.get(f"{kind}_{name}")
    return name if pair is None or lang != "en" else pair[1]


def kuai(count: int) -> str:
    """The announcement of ``count`` quad cards (R-4.2): 八块, 十二块, 十六块…

    >>> kuai(8), kuai(12), kuai(20)
    ('八块', '十二块', '二十块')
    """
    tens, ones = divmod(count, 10)
    text = ("" if tens == 0 else "十" if tens == 1 else _NUMBERS[tens] + "十") + (_NUMBERS[ones] if ones else "")
    return f"{text or '零'}块"


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def fill(text: str, params: Mapping[str, object]) -> str:
    """``text`` with every ``{name}`` replaced in one pass, so a value that itself reads
    like a placeholder (a player named ``{card}``) stays as it is; an unknown name is left
    (what the browser's renderer does too)."""
    return _PLACEHOLDER.sub(lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), text)


def _faces(cards: Sequence[Card]) -> str:
    return "".join(str(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Names:
    """How seats are named to the reader: ``labels[seat]`` (a name, 下家…), and ``you``
    (the reader's own seat, named 你/You, with English verbs agreeing), if any. A label
    is told as :func:`~erqishi.records.names.printable_name` of it: no control characters
    or bidirectional overrides from a record's seat names reach a terminal."""

    labels: Sequence[str]
    you: int | None = None

    def who(self, seat: int | None, lang: Lang) -> str:
        """The seat as the reader knows it."""
        if seat is None:
            return "?"
        if seat == self.you:
            return "You" if lang == "en" else "你"
        return printable_name(self.labels[seat]) if 0 <= seat < len(self.labels) else f"座{seat}"

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
        lines = [fill(t("dealt"), {"hand": event.hand, "quan": event.quan, "dealer": who(event.dealer)})]
        if event.sits_out is not None:
            lines.append(fill(t("sits_out"), {"who": who(event.sits_out), "s": names.s(event.sits_out)}))
        return lines
    seat = getattr(event, "seat", None)
    base: dict[str, object] = {"who": who(seat), "s": names.s(seat)}
    if isinstance(event, Flipped):
        return [fill(t("flipped"), {**base, "card": event.card, "left": event.stock_left})]
    if isinstance(event, Discarded):
        return [fill(t("discarded"), {**base, "card": event.card})]
    if isinstance(event, Took):
        if event.take is ActionKind.CHI:
            bai = ""
            if event.bai:
                bai = fill(t("bai"), {**base, "groups": " / ".join(_faces(g) for g in event.bai)})
            return [fill(t("took_chi"), {**base, "card": event.card, "pair": _faces(event.cards), "bai": bai})]
        key = "took_kai_yu" if event.yu else f"took_{event.take.value}"
        return [fill(t(key), {**base, "card": event.card})]
    if isinstance(event, Announced):
        return [fill(t("announced"), {**base, "kuai": kuai(event.count), "count": event.count})]
    if isinstance(event, Passed):
        return [fill(t("passed"), {"card": event.card})]
    if isinstance(event, Won):
        if event.card is None:
            return [fill(t("won_tian"), base)]
        return [fill(t("won"), {**base, "card": event.card, "source": _source(event.source, lang)})]
    if isinstance(event, DeadHand):
        return [t("dead")]
    if isinstance(event, Scored):
        return _scored(event, lang, names)
    assert isinstance(event, MatchOver)
    return [
        fill(
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
        fans = t("list_sep").join(term("fan", f, lang) for f in a.fan_names) or t("none")
        tier = term("tier", a.tier.name, lang) if a.tier is not None else "-"
        lines.append(
            fill(
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
            key = f"group_{g.kind.value}"
            name = template(key, lang) if lang == "en" and key in TEMPLATES else g.name
            lines.append(fill(t("scored_group"), {"name": name, "cards": _faces(g.cards), "where": where, "hu": g.hu}))
        lines.append(fill(t("scored_payments"), {"payments": _scores(outcome.payments, lang, names)}))
    # a dead hand pays nothing: its dead event told it all, but for the match totals
    if tuple(event.totals) != tuple(outcome.payments):
        lines.append(fill(t("scored_totals"), {"totals": _scores(event.totals, lang, names)}))
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


#: each kind of move in English, with its Chinese term (R-11)
VERB_EN: dict[str, str] = {
    "chi": "chow (吃)",
    "dui": "pung (对)",
    "kai": "kong (开)",
    "hu": "win (胡)",
    "pass": "pass (过)",
    "discard": "discard (打)",
}


def action_words(action: Action, lang: Lang) -> str:
    """An action in the reader's words, card faces in Chinese in both languages.

    >>> action_words(Action.parse("chi x2 x3 bai x1 x2 x3"), "en")
    'chow (吃) with 二三, laying down (摆) 一二三'
    >>> action_words(Action.parse("discard x5"), "zh")
    '打 五'
    """
    if lang != "en":
        return action.chinese
    kind = action.kind
    if kind is ActionKind.DISCARD:
        return f"{VERB_EN['discard']} {action.cards[0]}"
    if kind is ActionKind.CHI:
        text = f"{VERB_EN['chi']} with {_faces(action.cards)}"
        if action.bai:
            text += ", laying down (摆) " + " and ".join(_faces(g) for g in action.bai)
        return text
    return VERB_EN[kind.value]


def explain(refusal: Refusal, lang: Lang, who: str | None = None) -> str:
    """Why the engine refused a move (:func:`erqishi.core.engine.why_illegal`,
    :func:`~erqishi.core.engine.refusals`), in the reader's language with the R-id; a
    reason without a sentence of its own reads as the engine's message.

    The sentences speak to the seat that tried the move ("you"). With ``who`` (the name
    of that seat, for a reader who is not it: a record's replay) the Chinese names it
    instead, and the English is the engine's message, which names the seat.

    >>> from erqishi.core.engine import Refusal
    >>> explain(Refusal("R-3.1", "locked", "…", Card.X3), "zh")
    '三 在坎/滚里，坎、滚不能拆（R-3.1）'
    >>> explain(Refusal("R-6.2", "guohu", "R-6.2 过胡: seat 1 declined a win", None), "zh", "B")
    '过胡：B 上次放过了一次胡，下次吃、对、开之前，只能胡更大的（R-6.2）'
    """
    key = f"why_{refusal.reason}"
    if key not in TEMPLATES or key == "why_card" or (who is not None and lang == "en"):
        return refusal.message
    card = "" if refusal.card is None else str(refusal.card)
    text = fill(template(key, lang), {"card": card, "rule": refusal.rule, "message": refusal.message})
    if who is not None:
        text = _THIRD_PERSON.sub(lambda m: _named(who, m), text)
    return text


#: "you" in a Chinese sentence, with the characters around it (to set a name apart)
_THIRD_PERSON = re.compile(r"(.?)你(.?)")


def _named(who: str, m: re.Match[str]) -> str:
    """``who`` in place of 你, set apart by a space from the words around it as the
    narration writes a seat's name ("B 上次放过"), not after punctuation or at an edge."""
    before, after = m.group(1), m.group(2)
    lead = " " if before and not before.isspace() and before not in _PUNCT else ""
    trail = " " if after and not after.isspace() and after not in _PUNCT else ""
    return f"{before}{lead}{who}{trail}{after}"


_PUNCT = frozenset("：，。、；（）「」“”！？:,.;()")
