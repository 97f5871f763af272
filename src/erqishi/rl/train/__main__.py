"""``python -m erqishi.rl.train CONFIG.toml [--resume] [--seed N]``: see :mod:`erqishi.rl.train`."""

from erqishi.rl.train.pipeline import main

if __name__ == "__main__":
    raise SystemExit(main())
