"""erqishi: the reference implementation of 贰柒拾 (2-7-10), the 80-card card game of Leshan.

The public API lives in :mod:`erqishi.core`; it is re-exported here.
"""

from erqishi.core import *  # noqa: F403
from erqishi.core import __all__ as _core_all

__all__ = list(_core_all)
__version__ = "0.1.0"
