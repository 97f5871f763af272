"""The rules engine: deal, state, the one move generator, transitions and views
(R-2 to R-9). Asks :mod:`erqishi.core.hands` whether a card wins and what it scores."""

from erqishi.core._boundary import guard_methods, guard_names
from erqishi.core._compiled import NATIVE
from erqishi.core.engine.actions import DUI, HU, KAI, PASS, Action, ActionKind
from erqishi.core.engine.deal import Deal, active_seats, sitting_out_seat
from erqishi.core.engine.explain import Refusal, check_declaration, explain_illegal, refusals, why_illegal
from erqishi.core.engine.legal import (
    Response,
    legal_actions,
    legal_moves,
    resolve_responses,
    responses,
    seat_options,
)
from erqishi.core.engine.match import Match
from erqishi.core.engine.memos import limit_memos, memo_sizes
from erqishi.core.engine.state import Outcome, OutcomeKind, Phase, SeatState, State
from erqishi.core.engine.transitions import apply, new_hand
from erqishi.core.engine.views import PlayerView, PublicView, SeatView, public_view, view

__all__ = [
    "DUI",
    "HU",
    "KAI",
    "PASS",
    "Action",
    "ActionKind",
    "Deal",
    "Match",
    "Outcome",
    "OutcomeKind",
    "Phase",
    "PlayerView",
    "PublicView",
    "Refusal",
    "Response",
    "SeatState",
    "SeatView",
    "State",
    "active_seats",
    "apply",
    "check_declaration",
    "explain_illegal",
    "legal_actions",
    "legal_moves",
    "limit_memos",
    "memo_sizes",
    "new_hand",
    "public_view",
    "refusals",
    "resolve_responses",
    "responses",
    "seat_options",
    "sitting_out_seat",
    "view",
    "why_illegal",
]

if not NATIVE:  # the pure build refuses a wrongly typed argument as the compiled one does
    guard_names(
        globals(),
        (
            "active_seats",
            "check_declaration",
            "explain_illegal",
            "limit_memos",
            "new_hand",
            "public_view",
            "refusals",
            "responses",
            "sitting_out_seat",
            "why_illegal",
        ),
    )
    guard_methods(Action, ("discard", "chi", "parse"))
    guard_methods(Deal, ("validate", "hand_counts", "shuffled"))
    guard_methods(Match, ("start", "deal", "after"))
