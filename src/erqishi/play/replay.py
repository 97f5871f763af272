"""A recorded hand told as the one story: its frames (the state after each step with that
step's events) for the web replay, and its account in words for ``erqishi replay``.

The record is replayed by :func:`erqishi.records.replay_hand` (the engine applies every
recorded action; the implicit passes after the last one follow, FORMATS.md) and each
step is told by :func:`erqishi.play.events.step_events`, exactly as at a live table.
Steps are numbered as everywhere: step 0 is the deal, step K the K-th action.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from erqishi.core.cards import Card, Size
from erqishi.core.engine import Action, Match, Outcome, Phase, Refusal, State, responses, sitting_out_seat
from erqishi.core.notation import format_cards
from erqishi.core.rule_info import describe_rules
from erqishi.core.rules import RuleSet
from erqishi.play.events import Dealt, Event, MatchOver, Scored, opening_events, step_events
from erqishi.play.narrate import Lang, Names, explain, narrate_lines
from erqishi.records import HandRecord, MatchRecord, printable_name, replay_hand, verify

__all__ = ["Frame", "ReplayedHand", "describe", "hand_in_match", "replay", "who_acted"]


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a replayed hand: ``step`` (0 = the deal), who did what (None for the
    deal), the state after it and the events it brought."""

    step: int
    seat: int | None
    action: Action | None
    state: State
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class ReplayedHand:
    """A record replayed: its frames, how many of them the record itself holds (the rest
    are implicit passes), and the first illegal action (its 0-based index into
    ``actions``, FORMATS.md) with the engine's reason, if any."""

    record: HandRecord
    frames: tuple[Frame, ...]
    recorded: int
    error_step: int | None
    error: str | None
    #: why that action is illegal, as the engine's Refusal (worded in the reader's language)
    refusal: Refusal | None = None

    @property
    def final(self) -> State:
        """The last state reached."""
        return self.frames[-1].state


def replay(
    record: HandRecord, *, hand: int = 1, quan: int | None = None, totals: tuple[int, ...] | None = None
) -> ReplayedHand:
    """Replay ``record`` into frames of events (the ``hand``-th of its match, in 圈
    ``quan``; with the match ``totals`` after it for its ``scored`` event)."""
    rep = replay_hand(record)
    first = rep.states[0]
    frames = [
        Frame(
            0,
            None,
            None,
            first,
            tuple(
                opening_events(
                    first,
                    hand=hand,
                    quan=quan if quan is not None else record.quan or 1,
                    sits_out=sitting_out_seat(record.deal.dealer, record.rules.players),
                )
            ),
        )
    ]
    for i, (seat, action) in enumerate(rep.moves):
        before, after = rep.states[i], rep.states[i + 1]
        events = step_events(before, seat, action, after)
        if after.result is not None:
            events.append(
                Scored(after.steps, hand, after.result, totals if totals is not None else after.result.payments)
            )
        frames.append(Frame(i + 1, seat, action, after, tuple(events)))
    recorded = len(record.actions) if rep.error_step is None else rep.error_step
    return ReplayedHand(record, tuple(frames), recorded, rep.error_step, rep.error, rep.refusal)


def hand_in_match(
    rules: RuleSet, first_dealer: int, earlier: Sequence[Outcome], outcome: Outcome | None
) -> tuple[int, int, tuple[int, ...] | None]:
    """Where a hand stands in its match, from the outcomes of the hands before it (R-2.2,
    R-2.4, R-8.3): its number (from 1), the 圈 it was played in, and the match totals after
    it (None when it did not end).

    Raises:
        ErqishiError: the outcomes do not fit the rules (a record that is not a match's).
    """
    match = Match(rules, dealer=first_dealer, totals=(0,) * rules.players)
    for done in earlier:
        match = match.after(done)
    totals = None if outcome is None else match.after(outcome).totals
    return len(earlier) + 1, match.quan, totals


def who_acted(record: HandRecord, step: int | None) -> str | None:
    """The seat that made action ``step`` (0-based) of ``record``, named as the replay
    names seats (``B(1)``); None when the record has no such action or seat."""
    if step is None or not 0 <= step < len(record.actions):
        return None
    seat = record.actions[step][0]
    return _labels(record).who(seat, "zh") if 0 <= seat < len(record.seats) else None


def _why_zh(rep: ReplayedHand) -> str:
    """Why the record's step is illegal, in Chinese (the engine's reason worded, with the
    R-id, naming the seat that made it), or the engine's message where the reason has no
    sentence of its own."""
    if rep.refusal is None:
        return rep.error or ""
    return explain(rep.refusal, "zh", who_acted(rep.record, rep.error_step))


def _owed(names: Names, state: State, lang: Lang) -> str:
    """Who owes which move in an unfinished hand."""
    who = names.who(state.turn, lang)
    en = lang == "en"
    if state.phase is Phase.OPENING:
        return f"{who} must open (天胡 or a discard)" if en else f"{who} 还需开局（天胡或打牌）"
    if state.phase is Phase.DISCARD:
        return f"{who} owes a discard" if en else f"{who} 还需打一张牌"
    owing = [r.seat for r in responses(state) if r.compulsory]
    if owing:
        who = names.who(owing[0], lang)
        return f"{who} must 开 {state.pending}" if en else f"{who} 必须开 {state.pending}"
    return "a move that is not a pass is owed" if en else "还欠一步非“过”的动作"


def _labels(record: HandRecord | MatchRecord) -> Names:
    return Names([f"{printable_name(name)}({seat})" for seat, name in enumerate(record.seats)])


def describe_hand(
    record: HandRecord,
    lang: Lang = "zh",
    *,
    hand: int = 1,
    quan: int | None = None,
    totals: tuple[int, ...] | None = None,
) -> Iterator[str]:
    """The hand step by step in words: the rules (the nearest preset and each option that
    differs from it, :func:`erqishi.core.rule_info.describe_rules`) and the 圈 with its
    card, the deal, every step numbered ``[K]`` (0 the deal with any 八块 and first flip,
    K the K-th action), then the result with its scoring, or where the record stops and
    why. Chinese lines use the full-width ``：``, English ones ``": "``."""
    names = _labels(record)
    en = lang == "en"
    rep = replay(record, hand=hand, quan=quan, totals=totals)
    colon, sep = (": ", "; ") if en else ("：", "；")
    header = f"rules{colon}" if en else f"规则{colon}"
    header += describe_rules(record.rules, lang)
    if record.quan:
        quan_card = Card.of(Size.BIG, record.quan)
        header += sep + (f"圈 {record.quan} (圈 card {quan_card})" if en else f"圈{record.quan}（圈牌 {quan_card}）")
    yield header
    opening = rep.frames[0].events
    # the deal (step 0): its heading, each seat's cards, then any 八块 and the first flip
    for event in opening:
        if isinstance(event, Dealt):
            yield from narrate_lines(event, lang, names)
    for seat in rep.frames[0].state.order:
        dealt = format_cards(record.deal.hands[seat], sort=True)
        yield f"  {names.who(seat, lang)} {'dealt' if en else '起手'}{colon}{dealt}"
    for frame in rep.frames:
        if rep.error_step is None and frame.step == len(record.actions) + 1:
            yield (
                "  (the record ends here; nobody takes the cards below)" if en else "  （记录到此为止，以下各张无人要）"
            )
        prefix = f"[{frame.step}] "
        for event in frame.events:
            if frame.step == 0 and isinstance(event, Dealt):
                continue
            for line in narrate_lines(event, lang, names):
                yield prefix + line
    if rep.error_step is not None:
        step = rep.error_step + 1
        yield (
            f"step {step} (actions[{rep.error_step}]) is illegal{colon}{rep.error}"
            if en
            else f"第 {step} 步（actions[{rep.error_step}]）不合规则{colon}{_why_zh(rep)}"
        )
    elif rep.final.result is None:
        yield (
            f"(unfinished{colon}{_owed(names, rep.final, lang)})"
            if en
            else f"（牌局未完{colon}{_owed(names, rep.final, lang)}）"
        )


def describe(record: HandRecord | MatchRecord, lang: Lang = "zh", *, number: int = 1) -> Iterator[str]:
    """The account of a hand, or of every hand of a match and its totals, in ``lang``; a
    hand alone is told as hand ``number`` (from 1: its place in a stored run)."""
    if isinstance(record, HandRecord):
        yield from describe_hand(record, lang, hand=number)
        return
    names = _labels(record)
    en = lang == "en"
    match = Match(
        record.rules, dealer=record.hands[0].deal.dealer if record.hands else 0, totals=(0,) * record.rules.players
    )
    for i, hand in enumerate(record.hands):
        yield f"=== hand {i + 1} ===" if en else f"=== 第 {i + 1} 手 ==="
        result = replay_hand(hand).final.result
        after = match.after(result) if result is not None and not match.is_over else None
        totals = after.totals if after is not None else None
        yield from describe_hand(hand, lang, hand=i + 1, quan=match.quan, totals=totals)
        if after is None:
            break
        match = after
    verdict = verify(record)
    data = verdict.to_json()
    if not verdict.ok:
        hand_no = data.get("hand")
        where = (
            f" (hand {hand_no + 1})"
            if en and hand_no is not None
            else f"（第 {hand_no + 1} 手）"
            if hand_no is not None
            else ""
        )
        yield (
            f"=== the match is not legal{where}: {data['error']}" if en else f"=== 对局不合规则{where}：{data['error']}"
        )
    elif data.get("result"):
        result = data["result"]
        over = MatchOver(0, len(record.hands), tuple(result["totals"]), tuple(result["leaders"]))
        yield from narrate_lines(over, lang, names)
    else:
        yield "=== the match is not over" if en else "=== 对局未完"
