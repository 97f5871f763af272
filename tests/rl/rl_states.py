"""Random states for the rl tests: hands played by random declarations through the engine
(the one collector of a response window, :func:`erqishi.play.step`), every state kept."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

from erqishi.core.cards import Card
from erqishi.core.engine import Deal, State, apply, new_hand, seat_options
from erqishi.core.rules import RuleSet
from erqishi.play import asked, resolve

#: (players, rules): every player count, every preset, and 下雨 (yu) on.
RULES = [
    RuleSet.load("leshan"),
    RuleSet.load("duikou"),
    dataclasses.replace(RuleSet.load("leshan"), players=4),
    RuleSet.load("meishan"),
    RuleSet.load("app"),
    RuleSet.load("jianwei"),
    dataclasses.replace(RuleSet.load("leshan"), yu=True),
    dataclasses.replace(RuleSet.load("duikou"), yu=True, players=2),
]


def random_hand(rules: RuleSet, rng: random.Random, quan: int | None = 1) -> list[State]:
    """Every state of one hand of random declarations (the last one over)."""
    state = new_hand(Deal.shuffled(rng, rng.randrange(rules.players), rules), rules, quan)
    states = [state]
    while not state.is_over:
        declared = {seat: rng.choice(seat_options(state, seat)) for seat in asked(state)}
        state = apply(state, *resolve(state, declared))
        states.append(state)
    return states


def iter_states(hands: int, seed: int) -> Iterator[State]:
    """The states of ``hands`` random hands, the rule sets of :data:`RULES` in turn."""
    rng = random.Random(seed)
    for i in range(hands):
        yield from random_hand(RULES[i % len(RULES)], rng, quan=rng.choice([None, 1, 3, 10]))


def reshuffle_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A state that ``seat`` cannot tell from ``state``: the other seats' concealed cards and
    the unflipped stock dealt anew from the same cards (each other seat keeps its hand
    size; melds, rows, the flipped part of the stock and every public fact stay)."""
    others = [s for s in state.order if s != seat]
    pool: list[Card] = []
    for s in others:
        pool += state.seats[s].cards()
    rest = list(state.deal.stock[state.stock_pos :])
    pool += rest
    rng.shuffle(pool)
    seats = list(state.seats)
    pos = 0
    for s in others:
        st = state.seats[s]
        size = sum(st.hand)
        counts = [0] * 20
        for c in pool[pos : pos + size]:
            counts[c] += 1
        pos += size
        quads = sum(1 for n in counts if n == 4) + sum(1 for g in st.melds if len(g.cards) == 4)
        seats[s] = st.evolve(hand=tuple(counts), quads=quads)
    stock = state.deal.stock[: state.stock_pos] + tuple(pool[pos:])
    deal = dataclasses.replace(state.deal, stock=stock)
    return dataclasses.replace(state, seats=tuple(seats), deal=deal)
