"""Training the ``learned`` bot (:mod:`erqishi.bots.learned`; docs/learned-bot.md).

``python -m erqishi.rl.train CONFIG.toml [--run-dir DIR] [--seed N] [--resume]`` runs rounds
of three stages, each resumable:

1. **generate** (:mod:`erqishi.rl.train.generate`, a process per worker): hands played by
   the engine, one hero seat per hand playing the trajectory policy (the heuristic bot in
   round 0, the last round's learned bot after), decisions labelled by playing every legal
   action out to the end of the hand (Deep Monte-Carlo targets on paired worlds, R-8 net
   payments in score units); chunk files ``data/rNNN_cNNNNN.npz``.
2. **fit** (:mod:`erqishi.rl.train.model`, torch): Q = V + A regressed on the targets, an
   epoch checkpoint ``ckpt/latest.pt`` (model and optimizer) after every epoch.
3. **evaluate**: duplicate deals (every rotation) against two heuristic and two search bots;
   the weights exported to ``weights/roundNNN.npz`` for the numpy-free bot.

The curves (losses, evaluation payments, compute in core-hours) go to ``curves.csv`` and
``curves.png`` in the run folder; ``progress.json`` says where the run stands. Needs the
``train`` extra (torch, matplotlib for the PNG).
"""
