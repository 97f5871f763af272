"""``python -m erqishi.storage upgrade URL``: bring a database to the newest migration.

URL is an SQLite file path or a database URL (``postgresql://USER:PASSWORD@HOST/DB``).
"""

from __future__ import annotations

import argparse
import sys

from erqishi.storage.store import mask_url, upgrade


def main(argv: list[str] | None = None) -> int:
    """Run the command; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m erqishi.storage", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("upgrade", help="run the migrations up to a revision (the newest by default)")
    up.add_argument("url", help="an SQLite file path or a database URL")
    up.add_argument("--revision", default="head", help="target revision (default: head)")
    args = parser.parse_args(argv)
    try:
        upgrade(args.url, args.revision)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{mask_url(args.url)}: migrated to {args.revision}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
