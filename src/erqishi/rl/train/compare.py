"""Paired duplicate comparison of learned-bot variants (weights files and playing rules)
against one opponent bot on the same deals.

``python -m erqishi.rl.train.compare [--opponent heuristic] [--deals 1200] [--seed 78]
[--workers 2] [--rules leshan] VARIANT...``

A VARIANT is ``WEIGHTS[:WIDTH[:HU]]``: a weights file (``shipped`` for the package's), the
number of the heuristic's best discards weighed (0: every legal discard; default 3) and
whether a legal 胡 is always taken (1 or 0; default 1), as :class:`~erqishi.bots.learned.LearnedBot`.
Every variant plays the same deals, each once per rotation with the learned bot in one
seat and the opponent in every other (:func:`~erqishi.rl.train.pipeline.deal_values`);
it prints a line ``VARIANT  MEAN ± HALF`` per variant (the mean net payment per deal, R-8,
score units, and the half-width of its 95% interval), then ``VARIANT - FIRST  MEAN ±
HALF`` for each variant less the first, paired deal by deal (docs/learned-bot.md).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from erqishi.bots import BOTS
from erqishi.core.errors import ErqishiError
from erqishi.core.rules import RuleSet
from erqishi.rl.train.pipeline import deal_values, interval

__all__ = ["Variant", "compare", "main", "parse_variant"]


@dataclass(frozen=True, slots=True)
class Variant:
    """A learned bot to compare: its weights file, ``width`` and ``always_hu``, and the
    text it was given as (its label)."""

    weights: str
    width: int
    always_hu: bool
    label: str


def parse_variant(text: str) -> Variant:
    """``WEIGHTS[:WIDTH[:HU]]`` as a :class:`Variant` (module text).

    Raises:
        ValueError: a part that is not a number, a negative width, HU not 0 or 1, or a
            weights file that does not exist.
    """
    weights, numbers = text, list[str]()
    for _ in range(2):  # trailing numbers only: a path may hold colons
        head, sep, tail = weights.rpartition(":")
        if not sep or not tail.isdigit():
            break
        weights, numbers = head, [tail, *numbers]
    if weights == "shipped":
        weights = str(resources.files("erqishi.bots").joinpath("data/learned.npz"))
    if not Path(weights).is_file():
        raise ValueError(f"variant {text!r}: no weights file {weights!r}")
    width = int(numbers[0]) if numbers else 3
    hu = numbers[1] if len(numbers) > 1 else "1"
    if hu not in ("0", "1"):
        raise ValueError(f"variant {text!r}: HU must be 0 or 1, got {hu!r}")
    return Variant(weights, width, hu == "1", text)


def compare(
    variants: Sequence[Variant], opponent: str, deals: int, seed: int, rules: str, workers: int
) -> list[list[float]]:
    """Per variant, the learned seat's mean net payment of each deal (score units), the
    deals ``0 … deals - 1`` of ``seed`` for every variant."""
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        return [
            deal_values(pool, workers, v.weights, opponent, seed, deals, rules, width=v.width, always_hu=v.always_hu)
            for v in variants
        ]


def main(argv: Sequence[str] | None = None) -> int:
    """The command (module text); exit 2 on bad arguments."""
    parser = argparse.ArgumentParser(
        prog="python -m erqishi.rl.train.compare", description="Paired duplicate comparison of learned-bot variants."
    )
    parser.add_argument("variants", nargs="+", help="WEIGHTS[:WIDTH[:HU]] (WEIGHTS 'shipped' for the package's)")
    parser.add_argument("--opponent", default="heuristic", help="the bot in every other seat")
    parser.add_argument("--deals", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=78)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules", default="leshan", help="a preset or JSON options (R-10)")
    args = parser.parse_args(argv)
    try:
        variants = [parse_variant(t) for t in args.variants]
        if args.opponent not in BOTS:
            raise ValueError(f"unknown bot {args.opponent!r}; bots are {', '.join(BOTS)}")
        if args.deals < 2 or args.workers < 1:
            raise ValueError("--deals must be at least 2 and --workers at least 1")
        RuleSet.parse(args.rules)
    except (ValueError, ErqishiError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    results = compare(variants, args.opponent, args.deals, args.seed, args.rules, args.workers)
    for v, values in zip(variants, results, strict=True):
        mean, half = interval(values)
        print(f"{v.label}  {mean:+.3f} ± {half:.3f}")
    base = results[0]
    for v, values in list(zip(variants, results, strict=True))[1:]:
        mean, half = interval([a - b for a, b in zip(values, base, strict=True)])
        print(f"{v.label} - {variants[0].label}  {mean:+.3f} ± {half:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
