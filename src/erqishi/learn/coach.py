"""The coach: after a decision that erqishi's strongest play rates clearly worse, a short
note says why and names the better move. It reads only the player's own
:class:`~erqishi.core.engine.PlayerView` (R-9), never a hidden card, and decides nothing
about legality (the engine's options are the view's ``legal``).

What it notices, in this order (the first that applies is told):

- ``missed_hu``: a 胡 was offered and not taken (R-6.1; declining it is 过胡, R-6.2).
- ``passed_wait``: a pass, when a 吃 or 对 of the card would have left the hand waiting
  (下叫) and it is not waiting now.
- ``leaves_wait``: a discard after which the hand waits on nothing live, when another
  discard keeps a 下叫 (:func:`erqishi.play.hints.discard_hints`).
- ``breaks_ejs``: discarding a card of a held 二七十 (3 hu small, 6 big, R-3) when the
  ranking of discards the search bot picks its candidates by (the heuristic's, fast enough
  to run after every move) puts another card clearly ahead.
- ``further``: a discard that leaves the hand a step further from waiting (the bots'
  :func:`~erqishi.bots.heuristic.shanten`) than the best discard.
"""

from __future__ import annotations

from dataclasses import dataclass

from erqishi.bots.heuristic import HeuristicBot, shanten
from erqishi.core import Card
from erqishi.core.engine import HU, PASS, Action, ActionKind, Phase, PlayerView
from erqishi.core.errors import ErqishiError
from erqishi.core.hands import Group, GroupKind, WinContext, classify_triple, find_waits
from erqishi.learn.lessons import Text
from erqishi.learn.text import say
from erqishi.play.hints import discard_hints, live_waits, visible_counts
from erqishi.play.narrate import action_words

__all__ = ["CoachNote", "coach"]

_RANKER = HeuristicBot()


@dataclass(frozen=True, slots=True)
class CoachNote:
    """One note of the coach.

    Attributes:
        reason: ``missed_hu``, ``passed_wait``, ``leaves_wait``, ``breaks_ejs``, ``further``.
        played: the move made.
        better: the move the coach would have made.
        text: the note, in Chinese and English.
        rule: the rule the note leans on (R-x.y).
    """

    reason: str
    played: Action
    better: Action
    text: Text
    rule: str


def _note(reason: str, played: Action, better: Action, rule: str, **params: object) -> CoachNote:
    key = f"coach_{reason}"
    texts = []
    for lang in ("zh", "en"):
        words: dict[str, object] = {"played": action_words(played, lang), "better": action_words(better, lang)}
        for name, value in params.items():  # a list of cards reads 肆、柒 / 肆, 柒
            words[name] = ("、" if lang == "zh" else ", ").join(map(str, value)) if isinstance(value, tuple) else value
        texts.append(say(key, lang, **words))
    return CoachNote(reason, played, better, Text(texts[0], texts[1]), rule)


def _counts(cards: tuple[Card, ...] | list[Card]) -> list[int]:
    counts = [0] * 20
    for c in cards:
        counts[c] += 1
    return counts


def _after_take(v: PlayerView, action: Action) -> tuple[list[Card], list[Group]] | None:
    """The hand and melds after taking the pending card with ``action`` (吃 or 对)."""
    x = v.pending
    if x is None:
        return None
    hand = list(v.hand)
    melds = list(v.seats[v.seat].melds)
    if action.kind is ActionKind.DUI:
        hand.remove(x)
        hand.remove(x)
        melds.append(Group(GroupKind.DUI, (x, x, x), exposed=True))
        return hand, melds
    if action.kind is ActionKind.CHI:
        for c in action.cards:
            hand.remove(c)
        kind = classify_triple((x, *action.cards))
        if kind is None:
            return None
        melds.append(Group(kind, tuple(sorted((x, *action.cards))), exposed=True))
        for group in action.bai:
            for c in group:
                hand.remove(c)
            bai_kind = classify_triple(group)
            if bai_kind is None:
                return None
            melds.append(Group(bai_kind, tuple(group), exposed=True))
        return hand, melds
    return None


def _waiting_after(
    v: PlayerView, hand: list[Card], melds: list[Group], forbidden: frozenset[Card]
) -> tuple[Card, tuple[Card, ...]] | None:
    """The discard (free, not forbidden) after which ``hand`` with ``melds`` waits on the
    most unseen winning copies, and the cards it waits on; None if no discard waits."""
    seen = visible_counts(v)
    counts = _counts(hand)
    best: tuple[int, Card, tuple[Card, ...]] | None = None
    for c in sorted(set(hand)):
        if counts[c] >= 3 or c in forbidden:
            continue
        rest = list(hand)
        rest.remove(c)
        try:
            waits = find_waits(rest, melds, WinContext(quan=v.quan), v.rules)
        except ErqishiError:
            continue
        left = _counts(rest)
        live = tuple(w.card for w in waits if seen[w.card] + left[w.card] < 4)
        copies = sum(4 - seen[w] - left[w] for w in live)
        if live and (best is None or copies > best[0]):
            best = (copies, c, live)
    return None if best is None else (best[1], best[2])


def _shangtu(action: Action, x: Card) -> frozenset[Card]:
    """The discards R-5.10 forbids after ``action`` (a 吃 of ``x``)."""
    out = set()
    for c in range(20):
        card = Card(c)
        if classify_triple((*action.cards, card)) is not None:
            out.add(card)
    out.discard(x)
    return frozenset(out)


def coach(view: PlayerView, played: Action) -> CoachNote | None:
    """The coach's note on ``played``, decided from ``view`` (the player's view just before
    the move), or None when the move is fine or close enough.

    Raises:
        ErqishiError: ``played`` is not one of ``view.legal``.
    """
    if played not in view.legal:
        raise ErqishiError(f"{played} is not one of the options the coach was shown")
    if len(view.legal) == 1:
        return None
    if HU in view.legal and played != HU:
        return _note("missed_hu", played, HU, "R-6.2", card=view.pending or "")
    if view.phase is Phase.RESPONSE and played == PASS and view.pending is not None:
        if live_waits(view):
            return None  # already waiting: passing may be the plan
        for action in view.legal:
            if action.kind not in (ActionKind.CHI, ActionKind.DUI):
                continue
            after = _after_take(view, action)
            if after is None:
                continue
            forbidden = _shangtu(action, view.pending) if action.kind is ActionKind.CHI else frozenset()
            found = _waiting_after(view, after[0], after[1], forbidden)
            if found is not None:
                discard, waits = found
                return _note(
                    "passed_wait", played, action, "R-6.1", discard=discard, waits=tuple(waits)
                )
        return None
    if played.kind is not ActionKind.DISCARD:
        return None
    discards = [a for a in view.legal if a.kind is ActionKind.DISCARD]
    card = played.cards[0]
    hints = discard_hints(view)
    if hints and all(h.card != card for h in hints):
        best = hints[0]
        return _note(
            "leaves_wait", played, Action.discard(best.card), "R-6.1", waits=tuple(w.card for w in best.waits)
        )
    ranked = _RANKER._discard_scores(view, discards)
    best_value, best_action = ranked[0]
    value = next(val for val, a in ranked if a == played)
    counts = _counts(view.hand)
    if card.rank in (2, 7, 10):
        off = 10 if card.is_big else 0
        trio = [off + 1, off + 6, off + 9]
        if all(counts[t] >= 1 for t in trio) and best_action.cards[0] not in trio and best_value - value >= 1.0:
            return _note("breaks_ejs", played, best_action, "R-3", hu=6 if card.is_big else 3)
    melds = list(view.seats[view.seat].melds)
    after_played = list(counts)
    after_played[card] -= 1
    after_best = list(counts)
    after_best[best_action.cards[0]] -= 1
    if shanten(after_played, melds) > shanten(after_best, melds) and best_value - value >= 2.0:
        return _note("further", played, best_action, "R-6.1")
    return None
