"""Bot-vs-bot tournaments: ``erqishi sim``.

``run_sim`` plays the hands (seeded per hand, seats rotating, optionally on a local
process pool), ``SimResult.summary`` holds the statistics (payments in score units per
hand, R-8), ``render_summary`` draws them as a rich table, and ``save_run`` / ``load_run``
/ ``list_runs`` / ``load_hand_record`` keep runs in an SQL database. ``run_duplicate``
plays every deal once per rotation (or permutation) of the bots over the seats and adds
per-deal statistics with paired intervals (:mod:`erqishi.sim.duplicate`). Parallel runs
play chunks of hands on a :class:`ChunkBackend`: the local process pool (:class:`LocalPool`)
or a Ray cluster (:class:`erqishi.sim.ray_backend.RayBackend`, the ``ray`` extra).
"""

from erqishi.bots import BotLoadError
from erqishi.sim.duplicate import (
    DuplicateSummary,
    arrangements,
    play_duplicate_deal,
    render_duplicate,
    run_duplicate,
    summarize_duplicate,
)
from erqishi.sim.runner import (
    ChunkBackend,
    LocalPool,
    chunk_bounds,
    hand_rngs,
    play_sim_hand,
    run_sim,
    seat_entries,
    validate_bots,
)
from erqishi.sim.stats import (
    BotStats,
    EntryStats,
    SimHand,
    SimResult,
    SimSummary,
    mean_ci95,
    render_summary,
    summarize,
)
from erqishi.sim.store import (
    RUN_STATUS_ZH,
    RecordNotKeptError,
    RunWriter,
    StoredRun,
    list_runs,
    load_hand_record,
    load_run,
    save_run,
    sqlite_url,
)

__all__ = [
    "RUN_STATUS_ZH",
    "BotLoadError",
    "BotStats",
    "ChunkBackend",
    "DuplicateSummary",
    "EntryStats",
    "LocalPool",
    "RecordNotKeptError",
    "RunWriter",
    "SimHand",
    "SimResult",
    "SimSummary",
    "StoredRun",
    "arrangements",
    "chunk_bounds",
    "hand_rngs",
    "list_runs",
    "load_hand_record",
    "load_run",
    "mean_ci95",
    "play_duplicate_deal",
    "play_sim_hand",
    "render_duplicate",
    "render_summary",
    "run_duplicate",
    "run_sim",
    "save_run",
    "seat_entries",
    "sqlite_url",
    "summarize",
    "summarize_duplicate",
    "validate_bots",
]
