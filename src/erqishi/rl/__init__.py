"""Reinforcement learning on 贰柒拾 (the optional extra ``pip install erqishi[rl]``).

Three entry points, all on the one table of :mod:`erqishi.play` (legality is the
engine's alone) with one observation encoding (:mod:`erqishi.rl.encoding`) and one fixed
action space of 884 actions (:mod:`erqishi.rl.actions`):

- ``from erqishi.rl import erqishi_v0``: the PettingZoo AEC environment
  (``erqishi_v0.env(players=3, rules="leshan", match=False, match_quan=None)``);
- ``gymnasium.make("erqishi/Erqishi-v0", opponents="heuristic")``: one learning seat
  against erqishi's bots (:mod:`erqishi.rl.gym_env`; importing :mod:`erqishi.rl`
  registers the id);
- ``import erqishi.rl.openspiel_game`` registers the OpenSpiel game ``erqishi``
  (``pyspiel.load_game("erqishi", {"players": 3})``), for OpenSpiel's Python ISMCTS and
  MCTS bots (:mod:`erqishi.rl.openspiel_game`).

``docs/rl.md`` documents the planes, the action table and the speed.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from erqishi.rl.actions import ACTIONS, N_ACTIONS, action_index, decode_action

if TYPE_CHECKING:
    from erqishi.rl import erqishi_v0
    from erqishi.rl.encoding import OwnMarks, action_mask, encode_observation, observation_shape, plane_names
    from erqishi.rl.gym_env import ErqishiEnv, ObservationPolicy

__all__ = [
    "ACTIONS",
    "ENV_ID",
    "N_ACTIONS",
    "ErqishiEnv",
    "ObservationPolicy",
    "OwnMarks",
    "action_index",
    "action_mask",
    "decode_action",
    "encode_observation",
    "erqishi_v0",
    "observation_shape",
    "plane_names",
]

#: The Gymnasium id of the single-agent environment.
ENV_ID = "erqishi/Erqishi-v0"

# The names that need the extra come from their modules when first used, so that
# ``import erqishi.rl`` (and the action table) works without numpy; with the extra,
# importing erqishi.rl registers the Gymnasium id.
_LAZY = {
    "erqishi_v0": "erqishi.rl.erqishi_v0",
    "OwnMarks": "erqishi.rl.encoding",
    "action_mask": "erqishi.rl.encoding",
    "encode_observation": "erqishi.rl.encoding",
    "observation_shape": "erqishi.rl.encoding",
    "plane_names": "erqishi.rl.encoding",
    "ErqishiEnv": "erqishi.rl.gym_env",
    "ObservationPolicy": "erqishi.rl.gym_env",
}


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'erqishi.rl' has no attribute {name!r}")
    module = importlib.import_module(where)
    value = module if where.endswith(f".{name}") else getattr(module, name)
    globals()[name] = value
    return value


if importlib.util.find_spec("gymnasium") is not None:
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="erqishi.rl.gym_env:ErqishiEnv")
