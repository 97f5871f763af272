"""Replaying records: ``verify`` (FORMATS.md machine output) and a move-by-move account
in Chinese for ``erqishi replay``."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from erqishi.core import Card, IllegalActionError, Size, format_cards
from erqishi.core.engine import (
    PASS,
    Action,
    ActionKind,
    Match,
    Outcome,
    Phase,
    State,
    apply,
    legal_actions,
    new_hand,
    responses,
    sitting_out_seat,
)
from erqishi.records.model import HandRecord, MatchRecord

__all__ = ["HandReplay", "iter_run_out", "replay_hand", "run_out", "verify", "verify_hand"]


@dataclass(slots=True)
class HandReplay:
    """A record replayed: the states after each step, where it stopped and why."""

    record: HandRecord
    states: list[State] = field(default_factory=list)
    #: the moves between consecutive states: the record's, then implicit passes
    moves: list[tuple[int, Action]] = field(default_factory=list)
    error_step: int | None = None
    error: str | None = None

    @property
    def final(self) -> State:
        """The last state reached."""
        return self.states[-1]

    @property
    def ok(self) -> bool:
        """Every recorded action was legal."""
        return self.error_step is None


def iter_run_out(state: State) -> Iterator[tuple[int, Action, State]]:
    """The implicit passes that continue a hand (FORMATS.md): while the only owed decision
    is a pending card nobody must take, close it with a pass; stop at a decision that is
    not a pass (the dealer's opening, a discard owed, a compulsory 开) or at the end.
    Yields ``(seat, pass, state after)``."""
    while state.phase is Phase.RESPONSE and PASS in legal_actions(state, state.turn):
        seat = state.turn
        state = apply(state, seat, PASS)
        yield seat, PASS, state


def run_out(state: State) -> State:
    """The state reached after the implicit passes of :func:`iter_run_out`."""
    final = state
    for _, _, after in iter_run_out(state):
        final = after
    return final


def replay_hand(record: HandRecord) -> HandReplay:
    """Apply the record's actions one by one, stopping at the first illegal one."""
    out = HandReplay(record)
    state = new_hand(record.deal, record.rules, record.quan)
    out.states.append(state)
    for step, (seat, action) in enumerate(record.actions):
        if state.phase is Phase.RESPONSE and action.kind is ActionKind.PASS and 0 <= seat < record.rules.players:
            seat = state.turn if PASS in legal_actions(state, state.turn) else seat  # any valid seat may pass
        try:
            state = apply(state, seat, action)
        except IllegalActionError as exc:
            out.error_step, out.error = step, str(exc)
            return out
        out.states.append(state)
        out.moves.append((seat, action))
    for seat, action, after in iter_run_out(state):
        out.moves.append((seat, action))
        out.states.append(after)
    return out


def verify_hand(record: HandRecord) -> dict[str, Any]:
    """The verdict of ``erqishi verify --json`` for a hand record (FORMATS.md)."""
    rep = replay_hand(record)
    if not rep.ok:
        return {"ok": False, "step": rep.error_step, "error": rep.error}
    final = rep.final
    if final.result is None:
        return {"ok": True, "finished": False}
    return {"ok": True, "finished": True, "result": final.result.to_json()}


def verify(record: HandRecord | MatchRecord) -> dict[str, Any]:
    """The verdict for a hand or a match record (FORMATS.md).

    A match is replayed as a match: each hand must be dealt by the seat the deal passed
    to (R-2.2) and carry the 圈 number of its 圈 (R-2.4); every hand but the last must
    be finished; the match is finished once all its 圈 are played. Its result is the
    totals (R-8.3) and the leading seats. A match-level fault is reported with the hand's
    index and ``"step": null``.
    """
    if isinstance(record, HandRecord):
        return verify_hand(record)
    rules = record.rules
    verdicts: list[dict[str, Any]] = []
    if not record.hands:
        return {"ok": True, "finished": False, "hands": verdicts}
    match = Match(rules, dealer=record.hands[0].deal.dealer, totals=(0,) * rules.players)
    last = len(record.hands) - 1
    for i, hand in enumerate(record.hands):
        if match.is_over:
            return _match_fault(i, f"R-2.4: the match of {rules.match_quan} 圈 was over after hand {i - 1}")
        if hand.deal.dealer != match.dealer:
            return _match_fault(
                i,
                f"R-2.2: hand {i} is dealt by seat {hand.deal.dealer}, but the deal had passed to seat {match.dealer}",
            )
        if hand.quan != match.quan_card_number:
            return _match_fault(
                i,
                f"R-2.4: hand {i} is played in 圈 {match.quan}, so its quan must be {match.quan_card_number}, "
                f"not {hand.quan}",
            )
        rep = replay_hand(hand)
        if not rep.ok:
            return {"ok": False, "hand": i, "step": rep.error_step, "error": rep.error}
        result = rep.final.result
        if result is None:
            verdicts.append({"ok": True, "finished": False})
            if i != last:
                return _match_fault(i + 1, f"hand {i} is unfinished, yet hand {i + 1} follows")
            return {"ok": True, "finished": False, "hands": verdicts}
        verdicts.append({"ok": True, "finished": True, "result": result.to_json()})
        match = match.after(result)
    out: dict[str, Any] = {"ok": True, "finished": match.is_over, "hands": verdicts}
    if match.is_over:
        out["result"] = {"kind": "match", "totals": list(match.totals), "leaders": list(match.leaders)}
    return out


def _match_fault(hand: int, error: str) -> dict[str, Any]:
    return {"ok": False, "hand": hand, "step": None, "error": error}


# ---------------------------------------------------------------------------------
# The account in Chinese


def _seat_name(record: HandRecord, seat: int) -> str:
    return f"{record.seats[seat]}({seat})"


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def describe_outcome(outcome: Outcome, record: HandRecord) -> Iterator[str]:
    """The result with its scoring breakdown, in Chinese."""
    if outcome.kind == "dead" or outcome.analysis is None or outcome.source is None:
        yield "荒庄: 堂牌翻完，无人胡牌，不结算。"
        return
    a = outcome.analysis
    assert outcome.winner is not None
    win = "" if a.win_card is None else f" {a.win_card}"
    yield f"{_seat_name(record, outcome.winner)} 胡{win}（{outcome.source.chinese}）"
    for g in a.groups:
        where = "亮" if g.exposed else "手"
        mark = " ←胡牌" if g.winning else ""
        yield f"    {_pad(g.name, 8)}{_pad(format_cards(g.cards), 10)}{where} {g.hu:>2} 胡{mark}"
    tier = a.tier.name if a.tier else ""
    yield f"  合计 {a.hu} 胡，{tier}，规格 {a.base}"
    yield f"  番: {'、'.join(a.fan_names) if a.fans else '无'}；得分 {a.score}"
    pays = "，".join(f"{_seat_name(record, s)} {p:+d}" for s, p in enumerate(outcome.payments))
    yield f"  结算: {pays}"


def _owed(record: HandRecord, state: State) -> str:
    """Who owes which move in an unfinished hand."""
    if state.phase is Phase.OPENING:
        return f"{_seat_name(record, state.turn)} 还需开局（天胡或打牌）"
    if state.phase is Phase.DISCARD:
        return f"{_seat_name(record, state.turn)} 还需打一张牌"
    owing = [r.seat for r in responses(state) if r.compulsory]
    if owing:
        return f"{_seat_name(record, owing[0])} 必须开 {state.pending}"
    return "还欠一步非“过”的动作"


def describe_hand(record: HandRecord) -> Iterator[str]:
    """The hand move by move in Chinese: the deal, every take, discard, flip and
    announcement, then the result with its scoring."""
    rep = replay_hand(record)
    first = rep.states[0]
    quan = f"，第{record.quan}圈（圈牌 {Card.of(Size.BIG, record.quan)}）" if record.quan else ""
    yield f"规则 {record.rules}{quan}；庄家 {_seat_name(record, record.deal.dealer)}"
    out = sitting_out_seat(record.deal.dealer, record.rules.players)
    if out is not None:
        yield f"  {_seat_name(record, out)} 本局歇（四人，庄家上家不打）"
    for seat in first.order:
        yield f"  {_seat_name(record, seat)} 起手: {format_cards(record.deal.hands[seat], sort=True)}"
    for seat in first.order:
        if first.seats[seat].announced:
            yield f"  {_seat_name(record, seat)} 报 {first.seats[seat].announced} 块"
    if first.pending_flip and first.pending is not None:
        yield f"  {_seat_name(record, first.turn)} 翻 {first.pending}（余 {first.stock_left} 张）"
    prev = first
    for i, state in enumerate(rep.states[1:]):
        seat, action = rep.moves[i]
        if i == len(record.actions):
            yield "  （记录到此为止，以下各张无人要）"
        yield from describe_step(record, prev, seat, action, state)
        if state.result is not None:
            yield from describe_outcome(state.result, record)
        prev = state
    if not rep.ok:
        yield f"第 {rep.error_step} 步不合规则: {rep.error}"
        return
    if rep.final.result is None:
        yield f"（牌局未完: {_owed(record, rep.final)}）"


def _describe_flip_and_announce(record: HandRecord, before: State, after: State) -> Iterator[str]:
    for s in after.order:
        if after.seats[s].announced > before.seats[s].announced:
            yield f"  {_seat_name(record, s)} 报 {after.seats[s].announced} 块"
    if after.pending_flip and after.stock_pos > before.stock_pos and after.pending is not None:
        yield f"  {_seat_name(record, after.turn)} 翻 {after.pending}（余 {after.stock_left} 张）"


def describe_step(record: HandRecord, before: State, seat: int, action: Action, after: State) -> Iterator[str]:
    """One step of a hand in Chinese: the move, then any announcement and the next flip."""
    name = _seat_name(record, seat)
    x = before.pending
    if action.kind is ActionKind.DISCARD:
        yield f"{name} 打 {action.cards[0]}"
    elif action.kind is ActionKind.PASS:
        yield f"  无人要 {x}"
    elif action.kind is ActionKind.HU:
        pass  # the outcome follows
    elif action.kind is ActionKind.CHI:
        text = f"{name} 吃 {x}（{format_cards(action.cards)}）"
        for g in action.bai:
            text += f" 摆 {format_cards(g)}"
        yield text
    else:
        yield f"{name} {action.kind.chinese} {x}"
    yield from _describe_flip_and_announce(record, before, after)


def describe(record: HandRecord | MatchRecord) -> Iterator[str]:
    """The account of a hand or of every hand of a match."""
    if isinstance(record, HandRecord):
        yield from describe_hand(record)
        return
    for i, hand in enumerate(record.hands):
        yield f"=== 第 {i + 1} 局 ==="
        yield from describe_hand(hand)
    v = verify(record)
    if not v["ok"]:
        yield f"=== 对局不合规则（第 {v['hand']} 局）: {v['error']}"
    elif v.get("result"):
        totals = "，".join(f"{record.seats[s]} {t:+d}" for s, t in enumerate(v["result"]["totals"]))
        leaders = "、".join(record.seats[s] for s in v["result"]["leaders"])
        yield f"=== 总分: {totals}；领先: {leaders}"
    else:
        yield "=== 对局未完"
