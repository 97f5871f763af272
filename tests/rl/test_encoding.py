"""The observation planes and the action mask of erqishi_v0 (erqishi.rl.encoding): the mask
is exactly the seat's options, the planes say what the module text says, and nothing a
seat may not know (R-9) reaches its observation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from erqishi.core.engine import Phase, State, legal_actions, seat_options, view
from erqishi.rl.actions import N_ACTIONS, action_index, decode_action
from erqishi.rl.encoding import (
    GLOBAL_PLANES,
    SEAT_PLANES,
    ObservationEncoder,
    OwnMarks,
    action_mask,
    encode_observation,
    encode_state,
    observation_shape,
    plane_names,
    stock_size,
)
from rl.rl_states import iter_states, reshuffle_hidden

STATES: list[State] = list(iter_states(96, seed=20261201))


def test_thousands_of_states() -> None:
    assert len(STATES) > 3000
    assert {s.rules.players for s in STATES} == {2, 3, 4}


def test_the_mask_decodes_to_exactly_the_legal_set() -> None:
    """Over every state and seat: the mask has a 1 exactly at the seat's options
    (PlayerView.legal), each decodes back to one of them, and every legal action of the
    engine (legal_actions and seat_options) has an index."""
    checked = 0
    for state in STATES:
        for seat in range(state.rules.players):
            legal = view(state, seat).legal
            mask = action_mask(legal)
            assert mask.shape == (N_ACTIONS,) and mask.dtype == np.int8
            decoded = [decode_action(int(i)) for i in np.flatnonzero(mask)]
            assert sorted(map(str, decoded)) == sorted(map(str, legal))
            assert len(set(legal)) == len(legal) == int(mask.sum())
            for action in (*legal_actions(state, seat), *seat_options(state, seat)):
                assert decode_action(action_index(action)) == action
            checked += 1
    assert checked > 9000


def test_state_and_view_encodings_agree() -> None:
    """The environments' fast path (encode_state) is the encoding of the seat's view and
    marks, with one encoder reused as the environments reuse it."""
    encoder = ObservationEncoder()
    for state in STATES[::3]:
        for seat in range(state.rules.players):
            expected = encode_observation(view(state, seat), OwnMarks.of(state, seat))
            assert np.array_equal(encoder.encode_state(state, seat), expected)
            assert np.array_equal(encode_state(state, seat), expected)


def test_no_leak_other_hands_and_stock_do_not_change_the_observation() -> None:
    """Dealing the other seats' concealed cards and the unflipped stock anew leaves the
    seat's PlayerView the same (R-9), and so its observation."""
    rng = random.Random(5)
    changed_hidden = 0
    for state in STATES[::4]:
        if state.phase is Phase.OVER:
            continue  # every hand is shown at the end
        for seat in state.order:
            other = reshuffle_hidden(state, seat, rng)
            if any(a.hand != b.hand for a, b in zip(state.seats, other.seats, strict=True)):
                changed_hidden += 1
            assert view(other, seat) == view(state, seat)
            assert np.array_equal(encode_state(other, seat), encode_state(state, seat))
            assert np.array_equal(
                encode_observation(view(other, seat), OwnMarks.of(other, seat)),
                encode_observation(view(state, seat), OwnMarks.of(state, seat)),
            )
    assert changed_hidden > 500


def test_same_view_same_observation_across_hands() -> None:
    """The observation is a function of the view and the seat's own marks alone: equal
    views (from different states) give equal observations, different ones differ."""
    by_view: dict[object, np.ndarray] = {}
    for state in STATES[::2]:
        for seat in state.order:
            v = view(state, seat)
            key = (v, OwnMarks.of(state, seat))
            obs = encode_observation(v, key[1])
            if key in by_view:
                assert np.array_equal(by_view[key], obs)
            by_view[key] = obs


def _semantics(state: State, seat: int) -> None:
    v = view(state, seat)
    obs = encode_observation(v, OwnMarks.of(state, seat))
    n = state.rules.players
    names = plane_names(n)
    plane = {name: obs[i] for i, name in enumerate(names)}
    hand = [0] * 20
    for card in v.hand:
        hand[card] += 1
    for k in range(1, 5):
        assert plane[f"hand_{k}"].tolist() == [1.0 if h >= k else 0.0 for h in hand]
        assert plane[f"unseen_{k}"].tolist() == [1.0 if 4 - u >= k else 0.0 for u in v.seen()]
    pending = v.pending if v.phase is Phase.RESPONSE else None
    assert plane["pending"].sum() == (pending is not None)
    if pending is not None:
        assert plane["pending"][pending] == 1.0
        assert plane["pending_flip"][0] == float(v.pending_flip)
        assert plane["pending_discard"][0] == float(not v.pending_flip)
    assert [plane[f"phase_{p.value}"][0] for p in Phase] == [float(p is v.phase) for p in Phase]
    assert plane["stock"][0] == pytest.approx(v.stock_left / stock_size(state.rules))
    quan = plane["quan_card"]
    if v.quan is None:
        assert quan.sum() == 0
    else:
        assert quan.tolist() == [1.0 if c == 9 + v.quan else 0.0 for c in range(20)]  # the big card of the 圈's rank
    me = state.seats[seat]
    assert plane["guozhang"].tolist() == [float(me.guozhang >> c & 1) for c in range(20)]
    assert plane["huilong"].tolist() == [float(me.discarded >> c & 1) for c in range(20)]
    assert plane["guohu"][0] == float(me.guohu >= 0)
    for sv in v.seats:
        r = (sv.seat - seat) % n
        seat_plane = {name: obs[len(GLOBAL_PLANES) + len(SEAT_PLANES) * r + i] for i, name in enumerate(SEAT_PLANES)}
        assert seat_plane["dealer"][0] == float(sv.seat == v.dealer)
        assert seat_plane["turn"][0] == float(sv.seat == v.turn and v.phase is not Phase.OVER)
        assert seat_plane["sits_out"][0] == float(sv.seat not in v.order)
        if sv.seat not in v.order:
            continue
        assert seat_plane["hand_size"][0] == pytest.approx(sv.hand_size / 26)
        assert seat_plane["announced"][0] == pytest.approx(sv.announced / 24)
        melds = [0] * 20
        for group in sv.melds:
            for card in group.cards:
                melds[card] += 1
        row = [0] * 20
        for card in sv.row:
            row[card] += 1
        for k in range(1, 5):
            assert seat_plane[f"meld_{k}"].tolist() == [1.0 if m >= k else 0.0 for m in melds]
            assert seat_plane[f"row_{k}"].tolist() == [1.0 if m >= k else 0.0 for m in row]
        # the order planes give back the row in order: position p of card c → (p + 1) / 64
        back = sorted(
            (round(float(seat_plane[f"row_order_{k}"][c]) * 64), c)
            for k in range(1, 5)
            for c in range(20)
            if seat_plane[f"row_order_{k}"][c] > 0
        )
        assert [c for _, c in back] == [int(card) for card in sv.row]


def test_the_planes_mean_what_the_docs_say() -> None:
    for state in STATES[::5]:
        for seat in range(state.rules.players):
            _semantics(state, seat)


def test_shapes_and_bounds() -> None:
    for players, planes in ((2, 65), (3, 87), (4, 109)):
        assert observation_shape(players) == (planes, 20)
        assert len(plane_names(players)) == planes
    for state in STATES[::7]:
        for seat in range(state.rules.players):
            obs = encode_state(state, seat)
            assert obs.dtype == np.float32 and obs.shape == observation_shape(state.rules.players)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            assert obs.flags.writeable
