"""The type checks the compiled build makes at a call, made the same way in the pure build.

In the compiled build (mypyc, see setup.py) a call of a compiled function checks each
argument against its annotation before the function runs and refuses a wrong one with a
``TypeError`` of its own wording: ``int object expected; got str``,
``erqishi.core.engine.state.State object expected; got None``. The pure build would run
the function on the wrong value instead and fail somewhere inside it (an
``AttributeError``, a ``TypeError`` about ``<=``), or not at all. :func:`mistyped` works
out the compiled build's error for a call from the function's annotations, so that the
public entry points of the pure build can raise it too (:func:`guarded`, or an
``except`` around a hot function's body calling :func:`raise_if_mistyped`): the same
exception, with the same words, in both builds.

What the compiled build checks, and so what is checked here: ``int`` (``bool`` is an
``int``), ``bool``, ``float`` (an ``int`` is one), ``str``, ``bytes``, ``dict``, ``list``,
``tuple``, ``set``, ``frozenset`` (their subclasses too), classes defined in a compiled
module, ``X | None`` and unions of those. Anything else (``Iterable``, ``Mapping``,
``Callable``, ``random.Random``, ``object``) is not checked, and a union holding such a
type is not checked either.
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable
from typing import Any, Final, TypeVar

from erqishi.core._compiled import NATIVE

#: the modules compiled in the compiled build (setup.py's ``COMPILED``): their classes are
#: checked by the compiled build when a parameter is annotated with one
COMPILED_MODULES: Final = ("erqishi.core", "erqishi.bots", "erqishi.play.step", "erqishi.play.table")

_BUILTIN_NAMES: Final = {
    int: "int",
    bool: "bool",
    float: "float",
    str: "str",
    bytes: "bytes",
    dict: "dict",
    list: "list",
    tuple: "tuple",
    set: "set",
    frozenset: "frozenset",
}

#: a parameter's check: (its name, its position or -1 when keyword-only, whether a value
#: passes, the compiled build's name of the type)
_Check = tuple[str, int, Callable[[object], bool], str]
_CHECKS: dict[Callable[..., object], tuple[_Check, ...]] = {}


def _compiled_class(tp: object) -> bool:
    module = getattr(tp, "__module__", "")
    return isinstance(tp, type) and any(module == m or module.startswith(m + ".") for m in COMPILED_MODULES)


def _checker(tp: object) -> tuple[Callable[[object], bool], str] | None:
    """How the compiled build checks a value against annotation ``tp``: (the test, the
    type's name in its message), or None when it does not check it."""
    if tp is None or tp is type(None):
        return (lambda v: v is None), "None"
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        members = [_checker(m) for m in typing.get_args(tp)]
        if any(m is None for m in members):
            return None  # a union with an unchecked member takes any value
        found = [m for m in members if m is not None]
        tests = tuple(m[0] for m in found)
        names = [m[1] for m in found]
        if len(found) == 2 and names[1] == "None":
            name = f"{names[0]} or None"
        else:
            name = f"union[{', '.join(names)}]"
        return (lambda v: any(test(v) for test in tests)), name
    if origin is typing.Literal:
        values = typing.get_args(tp)
        return _checker(type(values[0])) if values else None
    base = origin if origin is not None else tp
    if base is float:
        return (lambda v: isinstance(v, (int, float))), "float"
    if isinstance(base, type) and base in _BUILTIN_NAMES:
        return (lambda v: isinstance(v, base)), _BUILTIN_NAMES[base]
    if _compiled_class(base):
        assert isinstance(base, type)
        return (lambda v: isinstance(v, base)), f"{base.__module__}.{base.__qualname__}"
    return None


def _hints(func: Callable[..., object]) -> dict[str, object]:
    """The annotations of ``func`` evaluated; one that cannot be (a name imported only for
    type checking) is left out."""
    try:
        return typing.get_type_hints(func)
    except Exception:
        pass
    out: dict[str, object] = {}
    namespace = getattr(func, "__globals__", {})
    for name, text in getattr(func, "__annotations__", {}).items():
        try:
            out[name] = eval(text, namespace) if isinstance(text, str) else text
        except Exception:
            continue
    return out


def _checks(func: Callable[..., object]) -> tuple[_Check, ...]:
    found = _CHECKS.get(func)
    if found is None:
        hints = _hints(func)
        checks: list[_Check] = []
        for index, param in enumerate(inspect.signature(func).parameters.values()):
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or param.name not in hints:
                continue
            check = _checker(hints[param.name])
            if check is not None:
                position = -1 if param.kind is param.KEYWORD_ONLY else index
                checks.append((param.name, position, check[0], check[1]))
        found = _CHECKS[func] = tuple(checks)
    return found


def _got(value: object) -> str:
    if value is None:
        return "None"
    cls = type(value)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def mistyped(func: Callable[..., object], args: tuple[object, ...], kwargs: dict[str, object]) -> TypeError | None:
    """The ``TypeError`` the compiled build raises for the call ``func(*args, **kwargs)``
    before ``func`` runs (the first argument, in the order of the parameters, that its
    annotation refuses), or None when it would accept the arguments' types. ``func`` is the
    function itself (for a method, with ``self`` or ``cls`` first in ``args``)."""
    for name, position, test, expected in _checks(func):
        if 0 <= position < len(args):
            value = args[position]
        elif name in kwargs:
            value = kwargs[name]
        else:
            continue  # its default
        if not test(value):
            return type_error(expected, value)
    return None


def raise_if_mistyped(func: Callable[..., object], *args: object, **kwargs: object) -> None:
    """Raise :func:`mistyped`'s error for this call, if any (for the ``except`` around a
    hot function's body: only a call that failed pays for the check). Nothing in the
    compiled build, which refused such a call before it ran.

    Raises:
        TypeError: as the compiled build would for this call.
    """
    if NATIVE:
        return
    error = mistyped(func, args, kwargs)
    if error is not None:
        raise error


F = TypeVar("F", bound=Callable[..., Any])


def guarded(func: F) -> F:
    """``func`` checking its arguments' types first, as the compiled build does (for the
    pure build's public entry points that are not hot: see the module text).

    >>> def half(n: int) -> int:
    ...     return n // 2
    >>> guarded(half)("4")
    Traceback (most recent call last):
    ...
    TypeError: int object expected; got str
    """

    checks: tuple[_Check, ...] | None = None  # worked out at the first call (names in
    # annotations may be defined after the function)

    @functools.wraps(func)
    def checked(*args: object, **kwargs: object) -> object:
        nonlocal checks
        if checks is None:
            checks = _checks(func)
        count = len(args)
        for name, position, test, expected in checks:  # in the order of the parameters
            if 0 <= position < count:
                value = args[position]
            elif kwargs and name in kwargs:
                value = kwargs[name]
            else:
                continue  # its default
            if not test(value):
                raise type_error(expected, value)
            if value.__class__ is bool and expected == "int":
                # an ``int`` parameter holds an int in the compiled build: a bool becomes 0 or 1
                if 0 <= position < count:
                    args = (*args[:position], int(value), *args[position + 1 :])
                else:
                    kwargs[name] = int(value)
        return func(*args, **kwargs)

    return checked  # type: ignore[return-value]


def guard_names(namespace: dict[str, Any], names: tuple[str, ...]) -> None:
    """Replace each function ``names`` of a module's ``namespace`` (a package's public
    ones) by :func:`guarded` of it."""
    for name in names:
        namespace[name] = guarded(namespace[name])


def guard_methods(cls: type, names: tuple[str, ...]) -> None:
    """Make each method ``names`` of ``cls`` (plain, class or static) :func:`guarded`."""
    for name in names:
        raw = cls.__dict__[name]
        if isinstance(raw, classmethod):
            setattr(cls, name, classmethod(guarded(raw.__func__)))
        elif isinstance(raw, staticmethod):
            setattr(cls, name, staticmethod(guarded(raw.__func__)))
        else:
            setattr(cls, name, guarded(raw))


def type_error(expected: str, value: object) -> TypeError:
    """The compiled build's ``TypeError`` for ``value`` where its annotation names
    ``expected`` (``"int or None"``, ``"erqishi.core.cards.Card or None"``): for a check
    the pure build makes itself."""
    return TypeError(f"{expected} object expected; got {_got(value)}")
