"""One learner working through one lesson: the goal checks (by the engine and the scorer,
never a rule retyped here), the feedback in words, hints and stars.

A MOVE lesson is played on the one table (:class:`erqishi.play.Table`) from the lesson's
position: a wrong move hears the engine's own reason (:func:`~erqishi.play.narrate.explain`
of its :class:`~erqishi.core.engine.Refusal`), a right one is applied and told by the
narration, then the next step's goal is set.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

from erqishi.core import Card, RuleSet, parse_cards
from erqishi.core.engine import PASS, Action, ActionKind, Phase, PlayerView
from erqishi.core.errors import ErqishiError
from erqishi.core.hands import (
    Group,
    GroupKind,
    HandAnalyzer,
    HandResult,
    WinContext,
    WinSource,
    classify_triple,
    parse_meld,
    settle,
)
from erqishi.learn.lessons import GoalKind, Lesson, Text
from erqishi.learn.text import say
from erqishi.play.narrate import Names, action_words, explain, narrate
from erqishi.play.table import Table

__all__ = ["Choice", "LessonRun", "Verdict", "best_group_hu", "group_of", "pick_answer"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to one try.

    Attributes:
        ok: the try reaches the current goal.
        done: the lesson is finished.
        text: what to tell the learner.
        rule: the rule the feedback names (R-x.y), if one.
        reason: a machine word: ``right``, ``refused`` (the engine refused it), ``not_goal``
            (legal, but not what the goal asks), ``wrong`` (a wrong answer), ``bad_input``.
        story: for a move, what happened, one narrated line per event.
    """

    ok: bool
    done: bool
    text: Text
    rule: str | None = None
    reason: str = "right"
    story: tuple[Text, ...] = ()


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer offered by a CHOOSE lesson: a key and its words."""

    key: str
    text: Text


def group_of(cards: tuple[Card, ...]) -> Group | None:
    """The concealed group three or four hand cards make (R-3: 3 identical = 坎, 4 = 滚,
    else 顺子/二七十/花吃), or None."""
    if len(cards) == 4 and len(set(cards)) == 1:
        return Group(GroupKind.GUN, cards)
    if len(cards) != 3:
        return None
    if len(set(cards)) == 1:
        return Group(GroupKind.KAN, cards)
    kind = classify_triple(cards)
    return None if kind is None else Group(kind, tuple(sorted(cards)))


def best_group_hu(cards: tuple[Card, ...]) -> int:
    """The most hu one group of ``cards`` is worth (R-3)."""
    best = 0
    for k in (3, 4):
        for combo in set(combinations(sorted(cards), k)):
            g = group_of(combo)
            if g is not None:
                best = max(best, g.hu)
    return best


def pick_answer(question: str, cards: tuple[Card, ...]) -> frozenset[Card]:
    """The cards of ``cards`` that answer a PICK question: ``big`` (大, R-1.1), ``small``,
    ``ejs`` (ranks 二 七 十, R-3)."""
    tests: dict[str, Callable[[Card], bool]] = {
        "big": lambda c: c.is_big,
        "small": lambda c: not c.is_big,
        "ejs": lambda c: c.rank in (2, 7, 10),
    }
    try:
        test = tests[question]
    except KeyError:
        raise ErqishiError(f"no PICK question {question!r}; they are {', '.join(tests)}") from None
    return frozenset(c for c in cards if test(c))


def _faces(cards: frozenset[Card] | tuple[Card, ...]) -> str:
    return "".join(str(c) for c in sorted(cards))


def _both(key: str, **params: object) -> Text:
    return Text(say(key, "zh", **params), say(key, "en", **params))


@dataclass
class LessonRun:
    """A learner in one lesson.

    Attributes:
        lesson: the lesson.
        step: the MOVE step reached (0 for other kinds).
        mistakes: wrong tries so far.
        hints: hints asked for.
        done: the goal is reached.
        table: MOVE: the table played from the lesson's position.
    """

    lesson: Lesson
    step: int = 0
    mistakes: int = 0
    hints: int = 0
    done: bool = False
    table: Table | None = None
    moves: list[Action] = field(default_factory=list)
    story: list[Text] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.lesson.kind is GoalKind.MOVE:
            pos = self.lesson.position
            assert pos is not None
            rules = pos.rules()
            names = [f"{s}" for s in range(rules.players)]
            self.table = Table(rules, random.Random(0), names, auto_close=False)
            self.table.start_position(pos.state())

    # ------------------------------------------------------------------ what is shown
    @property
    def seat(self) -> int:
        """The learner's seat."""
        return self.lesson.seat

    def view(self) -> PlayerView:
        """MOVE: what the learner sees now (R-9).

        Raises:
            ErqishiError: not a MOVE lesson.
        """
        if self.table is None:
            raise ErqishiError(f"lesson {self.lesson.id} has no position")
        return self.table.player_view(self.seat)

    def options(self) -> tuple[Action, ...]:
        """MOVE: the learner's options now (the engine's), then the step's tempting moves
        the engine refuses; empty once done."""
        if self.table is None or self.done:
            return ()
        offered = self._offered()
        return tuple(offered) + tuple(a for a in self._tempting() if a not in offered)

    def _tempting(self) -> tuple[Action, ...]:
        """The step's tempting moves (its ``tempt``), the goal's invitation to try them."""
        return tuple(Action.parse(t) for t in self.lesson.steps[self.step].tempt)

    def _offered(self) -> tuple[Action, ...]:
        table = self.table
        if table is None or table.state is None or self.done:
            return ()
        if self.seat in table.waiting():
            return table.options(self.seat)
        if table.state.phase is Phase.RESPONSE and self.seat in table.state.order:
            return (PASS,)  # a seat with nothing but pass is not asked; it passes
        return ()

    def goal(self) -> Text:
        """The goal now: the step's for MOVE, else the lesson's."""
        if self.lesson.kind is GoalKind.MOVE and not self.done:
            return self.lesson.steps[self.step].goal
        return self.lesson.goal

    def hand(self) -> tuple[Card, ...]:
        """PICK, GROUP, WAITS: the cards shown."""
        return parse_cards(self.lesson.cards)

    def choices(self) -> tuple[Choice, ...]:
        """CHOOSE: the answers offered, in a fixed order (the right one among them)."""
        if self.lesson.kind is not GoalKind.CHOOSE:
            return ()
        result = self.win_result()
        win = self.lesson.win
        assert win is not None
        if self.lesson.ask == "score":
            values = sorted({result.base, result.score, result.score * 2, 0})
            return tuple(
                Choice(str(v), _both("choice_no_win") if v == 0 else _both("choice_score", score=v)) for v in values
            )
        rules = self.rules_of()
        winner = self.seat
        out: list[Choice] = []
        for source, who in ((WinSource.DISCARD, win.discarder), (WinSource.FLIP, None)):
            pays = settle(result.score, source, winner, rules, discarder=who)
            out.append(Choice(_pay_key(pays), _pay_text(pays, winner)))
        single = [0] * rules.players
        single[win.discarder] = -result.score
        single[winner] = result.score
        out.append(Choice(_pay_key(tuple(single)), _pay_text(tuple(single), winner)))
        return tuple(sorted(out, key=lambda c: c.key))

    def rules_of(self) -> RuleSet:
        """The lesson's rule set (R-10)."""
        return RuleSet.preset(self.lesson.position.preset if self.lesson.position else "leshan")

    def win_result(self) -> HandResult:
        """CHOOSE: the scorer's verdict on the lesson's winning hand (R-7)."""
        win = self.lesson.win
        assert win is not None
        analyzer = HandAnalyzer(win.hand, [parse_meld(m) for m in win.melds])
        return analyzer.evaluate(Card.parse(win.card), WinContext(source=WinSource(win.source), quan=win.quan))

    def answer(self) -> object:
        """The right answer as the engine or scorer gives it (for hints and tests): PICK a
        set of cards, GROUP the most hu, WAITS the winning cards, CHOOSE the key, MOVE the
        accepted kinds of the step."""
        kind = self.lesson.kind
        if kind is GoalKind.PICK:
            return pick_answer(self.lesson.question, self.hand())
        if kind is GoalKind.GROUP:
            return best_group_hu(self.hand())
        if kind is GoalKind.WAITS:
            return self._waits()
        if kind is GoalKind.CHOOSE:
            result = self.win_result()
            if self.lesson.ask == "score":
                return str(result.score)
            win = self.lesson.win
            assert win is not None
            return _pay_key(
                settle(result.score, WinSource(win.source), self.seat, self.rules_of(), discarder=win.discarder)
            )
        if kind is GoalKind.MOVE:
            return self.lesson.steps[self.step].accept
        return None

    def _waits(self) -> dict[Card, int]:
        analyzer = HandAnalyzer(self.hand(), [parse_meld(m) for m in self.lesson.melds])
        return {w.card: w.score for w in analyzer.waits(WinContext())}

    # ------------------------------------------------------------------ tries
    def hint(self) -> Text:
        """A hint for the goal now (it costs a star)."""
        self.hints += 1
        kind = self.lesson.kind
        if kind is GoalKind.PICK:
            return _both("hint_pick", n=len(pick_answer(self.lesson.question, self.hand())))
        if kind is GoalKind.GROUP:
            return _both("hint_group", hu=best_group_hu(self.hand()))
        if kind is GoalKind.WAITS:
            return _both("hint_waits", n=len(self._waits()))
        if kind is GoalKind.CHOOSE:
            result = self.win_result()
            return _both("hint_choose", hu=result.hu, base=result.base, fans="、".join(result.fan_names) or "—")
        if kind is GoalKind.MOVE:
            right = [a for a in self.options() if self._accepts(a)]
            legal = set(self._offered())
            right = [a for a in right if a in legal]
            if right:
                return Text(
                    say("hint_move", "zh", move=action_words(right[0], "zh")),
                    say("hint_move", "en", move=action_words(right[0], "en")),
                )
        return self.lesson.goal

    @property
    def stars(self) -> int:
        """Stars earned once done: 3 with no hint and no wrong try, 2 with no hint, else 1;
        0 before the goal is reached. The try a step's goal invites (its ``tempt``: "try to
        吃 it, then decide"), which the engine refuses, is no wrong try."""
        if not self.done:
            return 0
        if self.hints:
            return 1
        return 3 if not self.mistakes else 2

    def _wrong(self, text: Text, rule: str | None = None, reason: str = "wrong") -> Verdict:
        self.mistakes += 1
        return Verdict(False, False, text, rule, reason)

    def _right(self, story: tuple[Text, ...] = ()) -> Verdict:
        self.done = True
        return Verdict(True, True, self.lesson.done, None, "right", story)

    def try_cards(self, cards: list[Card] | tuple[Card, ...]) -> Verdict:
        """PICK, GROUP, WAITS: the learner's tapped cards.

        Raises:
            ErqishiError: the lesson takes no cards.
        """
        kind = self.lesson.kind
        picked = tuple(sorted(cards))
        if kind is GoalKind.PICK:
            want = pick_answer(self.lesson.question, self.hand())
            if self._not_in_hand(picked):
                return self._wrong(_both("not_in_hand"), reason="bad_input")
            got = frozenset(picked)
            if got == want:
                return self._right()
            missing, extra = want - got, got - want
            if extra:
                return self._wrong(_both(f"pick_extra_{self.lesson.question}", cards=_faces(extra)), "R-1.1")
            return self._wrong(_both("pick_missing", n=len(missing)), "R-1.1")
        if kind is GoalKind.GROUP:
            if self._not_in_hand(picked):
                return self._wrong(_both("not_in_hand"), reason="bad_input")
            group = group_of(picked)
            best = best_group_hu(self.hand())
            if group is None:
                return self._wrong(_both("not_a_group", cards=_faces(picked)), "R-3")
            if group.hu < best:
                return self._wrong(
                    _both("group_less", cards=_faces(picked), name=group.name, hu=group.hu, best=best), "R-3"
                )
            return self._right()
        if kind is GoalKind.WAITS:
            if len(set(picked)) != len(picked):
                return self._wrong(_both("tap_once"), reason="bad_input")
            waits = self._waits()
            wins = frozenset(waits)
            chosen = frozenset(picked)
            if chosen == wins:
                listed = "，".join(f"{c} {s}" for c, s in sorted(waits.items()))
                return self._right((_both("waits_are", waits=listed),))
            if chosen - wins:
                return self._wrong(_both("waits_extra", cards=_faces(chosen - wins)), "R-6.1")
            return self._wrong(_both("waits_missing", n=len(wins - chosen)), "R-6.1")
        raise ErqishiError(f"lesson {self.lesson.id} takes no cards")

    def _not_in_hand(self, picked: tuple[Card, ...]) -> bool:
        held = list(self.hand())
        for c in picked:
            if c not in held:
                return True
            held.remove(c)
        return False

    def try_choice(self, key: str) -> Verdict:
        """CHOOSE: the answer picked by its key.

        Raises:
            ErqishiError: the lesson offers no choices.
        """
        if self.lesson.kind is not GoalKind.CHOOSE:
            raise ErqishiError(f"lesson {self.lesson.id} offers no choices")
        keys = {c.key for c in self.choices()}
        if key not in keys:
            return self._wrong(_both("not_a_choice"), reason="bad_input")
        if key == self.answer():
            return self._right()
        result = self.win_result()
        fans = "、".join(result.fan_names) or "—"
        return self._wrong(
            _both(f"wrong_{self.lesson.ask}", hu=result.hu, base=result.base, fans=fans, score=result.score),
            "R-8" if self.lesson.ask == "payments" else "R-7",
        )

    def _accepts(self, action: Action) -> bool:
        step = self.lesson.steps[self.step]
        if action.kind.value not in step.accept:
            return False
        return not (
            step.cards and action.kind is ActionKind.CHI and action.cards != tuple(sorted(parse_cards(step.cards)))
        )

    def try_move(self, action: Action) -> Verdict:
        """MOVE: the learner's move at the position. A move the engine refuses is answered
        with the engine's reason (R-id in words); a legal move that is not the goal is not
        made; the goal's move is made on the table and the next step set.

        Raises:
            ErqishiError: not a MOVE lesson, or it is done.
        """
        table = self.table
        if table is None or self.done:
            raise ErqishiError(f"lesson {self.lesson.id} has no move to make now")
        seat = self.seat
        legal = self._offered()
        if action not in legal:
            refusal = table.why_not(seat, action)
            why = Text(explain(refusal, "zh"), explain(refusal, "en"))
            if action in self._tempting():
                # the step's goal invites this try ("try to 吃 it, then decide"): the
                # engine's refusal is the lesson, not a mistake, and costs no star
                return Verdict(False, False, why, refusal.rule, "refused")
            return self._wrong(why, refusal.rule, "refused")
        if not self._accepts(action):
            not_goal = Text(
                say("not_goal", "zh", move=action_words(action, "zh")),
                say("not_goal", "en", move=action_words(action, "en")),
            )
            return self._wrong(not_goal, None, "not_goal")
        before = len(table.events)
        if seat in table.waiting():
            table.declare(seat, action)
        for other in table.waiting():  # the other seats let the lesson go on
            table.declare(other, PASS if PASS in table.options(other) else table.options(other)[0])
        table.close_window()
        self.moves.append(action)
        n = table.rules.players
        names = Names([_seat_name(s, seat, "zh", n) for s in range(n)], you=seat)
        names_en = Names([_seat_name(s, seat, "en", n) for s in range(n)], you=seat)
        story = tuple(Text(narrate(e, "zh", names), narrate(e, "en", names_en)) for e in table.events[before:])
        self.story += story
        if self.step + 1 < len(self.lesson.steps):
            self.step += 1
            return Verdict(True, False, _both("step_done"), None, "right", story)
        return self._right(story)


def _seat_name(seat: int, me: int, lang: str, players: int = 3) -> str:
    """你, 上家 or 下家 as ``me`` sees ``seat`` (R-2.1: play runs up the seat numbers)."""
    if seat == me:
        return say("you", lang)
    if seat == (me - 1) % players:
        return say("shangjia", lang)
    return say("xiajia", lang)


def _pay_key(pays: tuple[int, ...]) -> str:
    return " ".join(str(p) for p in pays)


def _pay_text(pays: tuple[int, ...], winner: int) -> Text:
    zh, en = [], []
    for seat, p in enumerate(pays):
        if seat == winner or p == 0:
            continue
        who_zh, who_en = _seat_name(seat, winner, "zh", len(pays)), _seat_name(seat, winner, "en", len(pays))
        zh.append(f"{who_zh} 付 {-p}")
        en.append(f"{who_en} pays {-p}")
    return Text("，".join(zh), ", ".join(en))
