"""``render()`` of the learning environments: one seat's view of the table in Chinese
(R-9: its own hand, every seat's public part, its own options), the recent events told by
the one narration of :mod:`erqishi.play.narrate`."""

from __future__ import annotations

from collections.abc import Sequence

from erqishi.core.cards import Card
from erqishi.core.engine import Phase, PlayerView
from erqishi.play import Event, Names, narrate
from erqishi.play.narrate import kuai
from erqishi.rl.encoding import OwnMarks

__all__ = ["view_text"]

_PHASES = {Phase.OPENING: "起手", Phase.RESPONSE: "应牌", Phase.DISCARD: "出牌", Phase.OVER: "本手结束"}


def _faces(cards: Sequence[Card]) -> str:
    return "".join(str(c) for c in cards) or "—"


def _bits(bits: int) -> str:
    return "".join(str(Card(c)) for c in range(20) if bits >> c & 1) or "—"


def view_text(
    view: PlayerView,
    marks: OwnMarks | None = None,
    names: Sequence[str] | None = None,
    events: Sequence[Event] = (),
) -> str:
    """The seat's view in Chinese, several lines: 圈, dealer, stock, phase; each seat's
    hand size, melds, row and 八块; the pending card and who discarded or flipped it; the
    seat's own hand, options and 过张/回笼/过胡 marks; then ``events`` narrated.

    >>> import random
    >>> from erqishi.core.engine import Deal, new_hand, view
    >>> text = view_text(view(new_hand(Deal.shuffled(random.Random(1), 0), quan=1), 0))
    >>> text.splitlines()[0]
    '圈1 · 座0（你） 做庄 · 堂牌 19 张 · 起手：轮到 座0（你）'
    """
    labels = list(names) if names is not None else [f"座{s}" for s in range(view.rules.players)]
    me = view.seat

    def who(seat: int) -> str:
        return f"{labels[seat]}（你）" if seat == me else labels[seat]

    quan = f"圈{view.quan}" if view.quan is not None else "不计圈"
    head = f"{quan} · {who(view.dealer)} 做庄 · 堂牌 {view.stock_left} 张 · {_PHASES[view.phase]}"
    if view.phase is Phase.RESPONSE and view.pending is not None:
        how = "翻出" if view.pending_flip else "打出"
        head += f"：{who(view.turn)} {how} {view.pending}"
    elif view.phase is not Phase.OVER:
        head += f"：轮到 {who(view.turn)}"
    lines = [head]
    for sv in view.seats:
        if sv.seat not in view.order:
            lines.append(f"{who(sv.seat)}：本手轮空")
            continue
        melds = " ".join(f"{g.name}{_faces(g.cards)}" for g in sv.melds) or "—"
        part = f"{who(sv.seat)}：手牌 {sv.hand_size} 张 · 亮牌 {melds} · 牌列 {_faces(sv.row)}"
        if sv.announced:
            part += f" · 报{kuai(sv.announced)}"
        if sv.hand is not None and sv.seat != me:
            part += f" · 手牌 {_faces(sv.hand)}"
        lines.append(part)
    lines.append(f"你的手牌：{_faces(view.hand)}")
    if view.legal:
        lines.append("你可以：" + " / ".join(a.chinese for a in view.legal))
    if marks is not None:
        guohu = f"{marks.guohu} 分" if marks.guohu >= 0 else "—"
        lines.append(f"过张 {_bits(marks.guozhang)} · 回笼 {_bits(marks.huilong)} · 过胡 {guohu}")
    if view.result is not None:
        lines.append("结算：" + "，".join(f"{who(s)} {p:+d}" for s, p in enumerate(view.result.payments)))
    told = Names(labels, you=me)
    lines.extend(narrate(event, "zh", told) for event in events)
    return "\n".join(lines)
