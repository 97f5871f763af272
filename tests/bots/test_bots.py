"""Bots see only their view, choose only what they are offered, and are reproducible
from their seeds; the heuristic measures closeness to a win sensibly."""

from __future__ import annotations

import random

import pytest

from erqishi.bots import BOTS, Bot, HeuristicBot, OldSearchBot, SearchBot, make_bot
from erqishi.bots.heuristic import shanten
from erqishi.core import RuleSet, parse_cards, parse_meld
from erqishi.core.engine import Deal, PlayerView
from erqishi.play import play_hand, table_chooser

RULES = {2: RuleSet.preset("duikou"), 3: RuleSet(), 4: RuleSet.from_options({"players": 4})}


class Watcher:
    """Wraps a bot: checks it is given a view and answers from ``view.legal``."""

    def __init__(self, inner: str) -> None:
        if inner == "search":
            self.inner: Bot = SearchBot(playouts=8)
        elif inner == "search-old":
            self.inner = OldSearchBot(playouts=4, seconds=0.5)
        else:
            self.inner = make_bot(inner)
        self.name = inner
        self.calls = 0

    def choose(self, view: PlayerView, rng: random.Random):  # type: ignore[no-untyped-def]
        assert isinstance(view, PlayerView) and view.legal
        action = self.inner.choose(view, rng)
        assert action in view.legal, (self.name, action, view.legal)
        self.calls += 1
        return action


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_make_only_legal_moves(players: int) -> None:
    rules = RULES[players]
    rng = random.Random(31 + players)
    names = list(BOTS)
    for game in range(60):
        bots = [Watcher(names[(game + s) % len(names)]) for s in range(players)]
        rngs = [random.Random(rng.random()) for _ in range(players)]
        played = play_hand(Deal.shuffled(rng, game % players, rules), table_chooser(bots, rngs), rules)
        assert played.final.is_over and sum(played.outcome.payments) == 0
        assert sum(b.calls for b in bots) > 0


def test_same_seeds_same_game() -> None:
    def run() -> str:
        rng = random.Random(5)
        bots = [make_bot("heuristic"), make_bot("random"), make_bot("heuristic")]
        rngs = [random.Random(10 + s) for s in range(3)]
        return str(play_hand(Deal.shuffled(rng, 1), table_chooser(bots, rngs)).to_json())

    assert run() == run()


@pytest.mark.parametrize(
    ("hand", "melds", "expected"),
    [
        # seven groups held: a win shape, one step beyond waiting
        ("一二三四五六七八九壹贰叁肆伍陆柒捌玖二七十", [], -1),
        # six groups and a partial 七八: waiting
        ("一二三四五六七八壹贰叁肆伍陆柒捌玖二七十", [], 0),
        # three groups to go and nothing hangs together: 2 x 3 - 1
        ("一五叁捌", ["二二二", "六六六", "贰贰贰", "陆陆陆"], 5),
        # the same needs with 七十 (part of 二七十) and 一壹 (part of a 花吃): two partials
        ("一七十壹", ["二二二", "六六六", "贰贰贰", "陆陆陆"], 3),
    ],
)
def test_shanten(hand: str, melds: list[str], expected: int) -> None:
    counts = [0] * 20
    for c in parse_cards(hand):
        counts[c] += 1
    assert shanten(counts, [parse_meld(m) for m in melds]) == expected


def test_unknown_bot_name() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nosuch'"):
        make_bot("nosuch")
    assert isinstance(make_bot("heuristic"), HeuristicBot)


def _positions(seed: int, want: int) -> list[PlayerView]:
    """Views where a bot has a real choice, from seeded heuristic games."""
    from erqishi.core.engine import apply, new_hand, resolve_responses, view

    out: list[PlayerView] = []
    rng = random.Random(seed)
    bot = HeuristicBot()
    while len(out) < want:
        state = new_hand(Deal.shuffled(rng, rng.randrange(3)))
        while not state.is_over:
            seats = state.order if state.phase == "response" else (state.turn,)
            declared = {}
            for s in seats:
                v = view(state, s)
                if len(v.legal) > 1:
                    if rng.random() < 0.3:
                        out.append(v)
                    declared[s] = bot.choose(v, rng)
                elif v.legal:
                    declared[s] = v.legal[0]
            if state.phase == "response":
                move = resolve_responses(state, declared)
            else:
                move = (state.turn, declared[state.turn])
            state = apply(state, *move)
    return out[:want]


def test_search_is_seeded_and_plays_every_candidate_in_the_same_worlds() -> None:
    """Fixed playout counts: the same view and seed give the same choice, every time."""
    views = _positions(7, 12)
    for i, v in enumerate(views):
        first = SearchBot(playouts=12).choose(v, random.Random(i))
        assert first in v.legal
        assert SearchBot(playouts=12).choose(v, random.Random(i)) == first


def test_search_playouts_follow_the_engine() -> None:
    """A playout from a sampled world plays legal moves only, to the end of the hand, and
    returns the seat's payment; the playout rule wins whenever it can."""
    from erqishi.bots.search import determinize, playout, rollout_move
    from erqishi.core.engine import HU, apply, legal_moves

    for i, v in enumerate(_positions(11, 10)):
        rng = random.Random(i)
        state = determinize(v, rng)
        for action in v.legal:
            value = playout(state, v.seat, action)
            assert value is None or isinstance(value, float)
        steps = 0
        while not state.is_over and steps < 400:
            move = rollout_move(state)
            if move is None:
                break
            moves = legal_moves(state)
            if any(a == HU for _, a in moves):
                assert move[1] == HU
            if state.phase == "response":
                assert move in moves
            state = apply(state, *move)
            steps += 1
        if state.is_over:
            assert state.result is not None and sum(state.result.payments) == 0


def test_old_search_is_still_available() -> None:
    assert make_bot("search-old").name == "search-old"
    assert isinstance(make_bot("search"), SearchBot) and SearchBot().playouts >= 96


def _held_against_history(v: PlayerView, state: object) -> list[str]:
    """What a sampled state holds that the seat's view rules out (R-4.2, R-5.12)."""
    from erqishi.core.engine import State

    assert isinstance(state, State)
    untaken = {c for sv in v.seats for c in sv.row}
    problems = []
    for sv, st in zip(v.seats, state.seats, strict=True):
        if sv.seat == v.seat:
            continue
        problems += [f"seat {sv.seat} holds three of {c}, left untaken" for c in untaken if st.hand[c] >= 3]
        quads = sum(1 for n in st.hand if n == 4) + sum(1 for g in sv.melds if len(g.cards) == 4)
        if quads < sv.announced // 4:
            problems.append(f"seat {sv.seat} announced {sv.announced} with {quads} quads")
        if sum(st.hand) != sv.hand_size:
            problems.append(f"seat {sv.seat} holds {sum(st.hand)} cards, not {sv.hand_size}")
    return problems


def test_sampled_worlds_agree_with_the_public_moves() -> None:
    """The search bot's sampled worlds (and OpenSpiel's resampler, which uses them) never
    contradict what the seat saw: nobody holds three of a card left untaken (they would
    have had to 开 it, R-5.12), and a seat that announced 八块 owns that many quads (R-4.2);
    every card is somewhere, once."""
    from core.engine.test_playouts import _census  # every copy in hands, melds, rows, pending, stock
    from erqishi.bots.search import determinize
    from erqishi.core.engine import new_hand, view

    rng = random.Random(3)
    checked = 0
    for i, v in enumerate(_positions(21, 150)):
        if not any(sv.row for sv in v.seats):
            continue
        for k in range(4):
            state = determinize(v, random.Random(1000 * i + k))
            assert not _held_against_history(v, state), (v, _held_against_history(v, state))
            assert _census(state) == [4] * 20
            checked += 1
    assert checked >= 300
    # a dealer dealt two 滚 announces 八块 at once (R-4.3): the others' worlds give it two
    deck = [c for c in range(20) for _ in range(4)]
    dealer_hand = [0] * 4 + [1] * 4
    for c in dealer_hand:
        deck.remove(c)
    rng.shuffle(deck)
    dealer_hand += deck[:13]
    hands = (tuple(dealer_hand), tuple(deck[13:33]), tuple(deck[33:53]))
    from erqishi.core import Card

    deal = Deal(0, tuple(tuple(Card(c) for c in h) for h in hands), tuple(Card(c) for c in deck[53:]))
    state = new_hand(deal)
    v = view(state, 1)
    assert v.seats[0].announced == 8
    for k in range(40):
        assert not _held_against_history(v, determinize(v, random.Random(k)))
