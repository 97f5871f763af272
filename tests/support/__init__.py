"""Test helpers shared by several test files, imported as ``support.<module>`` (``tests/``
is on ``sys.path``): e.g. ``from support.bruteforce import brute_force``."""
