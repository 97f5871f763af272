"""Rule sets: every regional variation as a named option, and the presets (R-10).

A :class:`RuleSet` is a frozen value. Build one from a preset name
(:meth:`RuleSet.preset`), from options over ``leshan`` (:meth:`RuleSet.from_options`),
or from either form as found in a record's ``rules`` field (:meth:`RuleSet.load`).
Presets are data (:data:`PRESETS`), not code.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from erqishi.core._compiled import checks_own_input, field_key, raw
from erqishi.core.errors import InvalidRulesError

__all__ = [
    "DUIKOU",
    "LESHAN",
    "NUMBER_RANGES",
    "PRESETS",
    "DealerRule",
    "DiscardChi",
    "FlipChi",
    "RuleSet",
    "TianhuRule",
    "Tiers",
    "unknown_option",
    "unknown_preset",
]


class FlipChi(StrEnum):
    """Who may 吃 a flipped card (R-5.3)."""

    FLIPPER_THEN_XIAJIA = "flipper_then_xiajia"
    FLIPPER_ONLY = "flipper_only"


class DiscardChi(StrEnum):
    """Who may 吃 a discard (R-5.2)."""

    XIAJIA = "xiajia"
    NONE = "none"


class Tiers(StrEnum):
    """Which hu-to-base table applies (R-7.2, R-10): ``seed`` (R-7.2), ``app`` (the Leshan
    game-hall table) or ``jianwei`` (犍为)."""

    SEED = "seed"
    APP = "app"
    JIANWEI = "jianwei"


class TianhuRule(StrEnum):
    """What a 天胡 is worth (R-7.3, R-10): one 番, two 番, or a flat score of 100."""

    ONE_FAN = "one_fan"
    TWO_FAN = "two_fan"
    FIXED_100 = "fixed_100"


class DealerRule(StrEnum):
    """Who deals the next hand (R-2.2, R-10)."""

    ROTATE = "rotate"
    WINNER = "winner"


_ENUMS: dict[str, type[StrEnum]] = {
    "flip_chi": FlipChi,
    "discard_chi": DiscardChi,
    "tiers": Tiers,
    "tianhu": TianhuRule,
    "dealer": DealerRule,
}


@checks_own_input
@dataclass(frozen=True, slots=True)
class RuleSet:
    """A complete, validated set of rule options (R-10). Defaults are the ``leshan`` preset.

    Attributes:
        players: 3 (default), 2 (对抠) or 4 (one seat sits each hand out).
        flip_chi: who may 吃 a flip (R-5.3).
        discard_chi: who may 吃 a discard (R-5.2).
        tiers: the base-value table (R-7.2).
        tianhu: 天胡 worth (R-7.3).
        taipao_multiplier: what the discarder pays, in multiples of the score (R-8.2);
            ``None`` means 3, or 2 with two players (see :attr:`taipao_factor`).
        cap: largest score one payer pays (``None`` = no cap), applied before the
            抬炮 multiplier (R-8.2).
        yu: a 4th card onto an exposed 对 makes a 开 (下雨, R-5.13).
        dealer: dealer rotation (R-2.2).
        match_quan: 圈 per match (R-2.4).
        quan_fan: 圈胡 / 双圈 count (R-7.3).
        shuang_quan: all four 圈 cards are 双圈, 2 番; off: 1 番, listed as 圈胡 (R-10).
        tian_di_fan: 天胡 / 地胡 are 番; off: they still win but add no 番 and are not
            listed (``tianhu: fixed_100`` still pays 100) (R-10).
        kun_fan: 坤胡 is a 番 (R-7.3, R-10).
        piao_fan: 瞟胡 is a 番 (R-7.3, R-10).

    The four 番 switches and ``shuang_quan`` are the game halls' room options; every bool
    option is on/off in JSON (adding one is one field here).

    Raises:
        InvalidRulesError: a value is out of range or of the wrong type.

    >>> RuleSet.preset("duikou").taipao_factor
    2
    """

    players: int = 3
    flip_chi: FlipChi = FlipChi.FLIPPER_THEN_XIAJIA
    discard_chi: DiscardChi = DiscardChi.XIAJIA
    tiers: Tiers = Tiers.SEED
    tianhu: TianhuRule = TianhuRule.ONE_FAN
    taipao_multiplier: int | None = None
    cap: int | None = None
    yu: bool = False
    dealer: DealerRule = DealerRule.ROTATE
    match_quan: int = 10
    quan_fan: bool = True
    shuang_quan: bool = True
    tian_di_fan: bool = True
    kun_fan: bool = True
    piao_fan: bool = True

    def __eq__(self, other: object) -> bool:  # explicit for the compiled build (field_key)
        if other.__class__ is not self.__class__:
            return NotImplemented
        return field_key(self) == field_key(other)

    def __hash__(self) -> int:
        return hash(field_key(self))

    def __post_init__(self) -> None:
        # each value read unchecked (``raw``): the checks below are the ones both builds make
        for name, enum in _ENUMS.items():
            value = raw(self, name)
            if isinstance(value, str) and not isinstance(value, enum):
                object.__setattr__(self, name, _convert(name, value))
        players = raw(self, "players")
        if not _is_int(players) or players not in (2, 3, 4):
            raise InvalidRulesError(
                f"option 'players' must be 2, 3 or 4, got {_shown(players)}",
                zh=f"选项 players 只能是 2、3 或 4，不是 {_shown(players)}",
            )
        for name, enum in _ENUMS.items():
            value = raw(self, name)
            if not isinstance(value, enum):
                raise _not_a_choice(name, enum, value)
        for name in _BOOLS:
            value = raw(self, name)
            if not isinstance(value, bool):
                raise _not_a_switch(name, value)
        multiplier = raw(self, "taipao_multiplier")
        if multiplier is not None and not _in_range("taipao_multiplier", multiplier):
            raise InvalidRulesError(
                f"option 'taipao_multiplier' must be a whole number 1-10 or null, got {_shown(multiplier)}",
                zh=f"选项 taipao_multiplier 应是 1-10 的整数或 null，不是 {_shown(multiplier)}",
            )
        cap = raw(self, "cap")
        if cap is not None and not _in_range("cap", cap):
            raise InvalidRulesError(
                f"option 'cap' must be a positive whole number or null, got {_shown(cap)}",
                zh=f"选项 cap 应是正整数或 null，不是 {_shown(cap)}",
            )
        match_quan = raw(self, "match_quan")
        if not _in_range("match_quan", match_quan):
            raise InvalidRulesError(
                f"option 'match_quan' must be a whole number 1-100, got {_shown(match_quan)}",
                zh=f"选项 match_quan 应是 1-100 的整数，不是 {_shown(match_quan)}",
            )

    @property
    def taipao_factor(self) -> int:
        """Multiple of the score the discarder pays on a 抬炮 (R-8.2): the option, else
        3, or 2 with two players."""
        if self.taipao_multiplier is not None:
            return self.taipao_multiplier
        return 2 if self.players == 2 else 3

    @property
    def name(self) -> str | None:
        """The preset this rule set equals, if any."""
        for preset_name in PRESETS:
            if RuleSet.preset(preset_name) == self:
                return preset_name
        return None

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """The preset ``name`` (``leshan``, ``duikou``, ``meishan``, ``app``, ``jianwei``).

        Raises:
            InvalidRulesError: no preset of that name.
            TypeError: ``name`` is no ``str`` (in both builds).
        """
        if not isinstance(name, str):
            raise TypeError(f"a preset name is a str, got {type(name).__name__} {name!r}")
        found = _PRESET_SETS.get(name)
        if found is None:
            options = PRESETS.get(name)
            if options is None:
                raise unknown_preset(name)
            # built once: a rule set is frozen, and records, the store and the server ask
            # for presets (and each rule set's name) many times a hand
            found = _PRESET_SETS[name] = cls.from_options(options, base=None)
        return found

    @classmethod
    def from_options(cls, options: Mapping[str, Any], *, base: str | None = "leshan") -> RuleSet:
        """Options over the preset ``base`` (or over the defaults when ``base`` is None).

        Values are as in JSON: enum options by their string, bool options (``yu``,
        ``quan_fan``, ``shuang_quan``, ``tian_di_fan``, ``kun_fan``, ``piao_fan``) as
        ``true``/``false`` or ``"on"``/``"off"``, ``cap`` as a number or ``null``/``"none"``.

        Raises:
            InvalidRulesError: an unknown option name or a bad value, named in the message.

        >>> RuleSet.from_options({"cap": 100}).cap
        100
        """
        if base is not None and not isinstance(base, str):
            raise TypeError(f"base must be a preset name or None, got {type(base).__name__} {base!r}")
        if not isinstance(options, Mapping):
            raise InvalidRulesError(f"rule options must be an object, got {options!r}", zh="规则选项要是一个 JSON 对象")
        if "preset" in options:
            preset = options["preset"]
            if not isinstance(preset, str):
                raise InvalidRulesError(
                    f"option 'preset' must be a preset name, got {_shown(preset)}",
                    zh=f"选项 preset 要是预设名，不是 {_shown(preset)}",
                )
            base = preset
            options = {k: v for k, v in options.items() if k != "preset"}
        start = cls() if base is None else cls.preset(base)
        known = {f.name for f in fields(cls)}
        changes: dict[str, Any] = {}
        for key, value in options.items():
            if key not in known:
                raise unknown_option(key, sorted(known))
            changes[key] = _convert(key, value)
        return replace(start, **changes)

    @classmethod
    def load(cls, spec: str | Mapping[str, Any] | RuleSet) -> RuleSet:
        """A rule set from a preset name, a JSON object text, or a mapping of options over
        ``leshan`` (the ``rules`` field of a record, FORMATS.md). A ``"preset"`` key in the
        options names another base preset (``{"preset": "duikou", "cap": 50}``).

        Raises:
            InvalidRulesError: unknown preset, bad JSON, unknown option or bad value.
            TypeError: ``spec`` is none of these (in both builds): check data read from a
                file first.

        >>> RuleSet.load('{"players": 2}').players
        2
        """
        if isinstance(spec, RuleSet):
            return spec
        if isinstance(spec, str):
            text = spec.strip()
            if text[:1] in ("{", "[", '"'):
                try:
                    data = json.loads(text)
                except (ValueError, RecursionError) as exc:
                    raise InvalidRulesError(
                        f"rule options are not valid JSON: {exc}", zh="规则选项不是有效的 JSON"
                    ) from None
                if not isinstance(data, dict):
                    raise InvalidRulesError(
                        "rules must be a preset name or a JSON object of options",
                        zh="规则要是预设名，或由选项组成的 JSON 对象",
                    )
                return cls.from_options(data)
            return cls.preset(text)
        if not isinstance(spec, Mapping):  # as the compiled build checks the argument
            raise TypeError(
                f"rules must be a RuleSet, a preset name or an object of options, got {type(spec).__name__} {spec!r}"
            )
        return cls.from_options(spec)

    def to_options(self) -> dict[str, Any]:
        """Every option as JSON-ready values; ``RuleSet.from_options(r.to_options()) == r``."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, StrEnum) else value
        return out

    def to_spec(self) -> str | dict[str, Any]:
        """The shortest record form: the preset name, or the options that differ from
        ``leshan``."""
        name = self.name
        if name is not None:
            return name
        default = RuleSet().to_options()
        return {k: v for k, v in self.to_options().items() if default[k] != v}

    def __str__(self) -> str:
        spec = self.to_spec()
        return spec if isinstance(spec, str) else json.dumps(spec, ensure_ascii=False, sort_keys=True)

    @classmethod
    def parse(cls, text: str) -> RuleSet:
        """Inverse of ``str``: same as :meth:`load` on a string."""
        return cls.load(text)


#: Each preset's rule set, once built (:meth:`RuleSet.preset`).
_PRESET_SETS: dict[str, RuleSet] = {}

#: The on/off options: every field of :class:`RuleSet` declared ``bool``.
_BOOLS = tuple(f.name for f in fields(RuleSet) if f.type in ("bool", bool))


#: The whole-number options (R-10) and their bounds, inclusive (None: no upper bound).
NUMBER_RANGES: dict[str, tuple[int, int | None]] = {
    "taipao_multiplier": (1, 10),
    "cap": (1, None),
    "match_quan": (1, 100),
}


def _in_range(name: str, value: object) -> bool:
    low, high = NUMBER_RANGES[name]
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return low <= value and (high is None or value <= high)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choices(enum: type[StrEnum]) -> str:
    return ", ".join(_shown(m.value) for m in enum)


def _shown(value: object) -> str:
    """A value as a rule set's JSON spells it (``true``, ``null``, ``"app"``, ``3``), for
    the messages: options are written in JSON (records, rooms, the command line)."""
    if value is None or isinstance(value, bool | int | float | str):
        try:
            return json.dumps(value.value if isinstance(value, StrEnum) else value, ensure_ascii=False)
        except ValueError:  # nan and inf
            return repr(value)
    return repr(value)


def unknown_preset(name: object) -> InvalidRulesError:
    """The error for a preset name that is none (R-10), in English and Chinese."""
    return InvalidRulesError(
        f"unknown rules preset {name!r}; presets are {', '.join(PRESETS)}",
        zh=f"没有 {name!r} 这个预设；预设有 {'、'.join(PRESETS)}",
    )


def unknown_option(name: object, known: Iterable[str]) -> InvalidRulesError:
    """The error for an option name that is none (R-10), in English and Chinese."""
    names = list(known)
    return InvalidRulesError(
        f"unknown rule option {name!r}; options are {', '.join(names)}",
        zh=f"没有 {name!r} 这个规则选项；选项有 {'、'.join(names)}",
    )


def _not_a_choice(key: str, enum: type[StrEnum], value: object) -> InvalidRulesError:
    return InvalidRulesError(
        f"option {key!r} must be one of {_choices(enum)}, got {_shown(value)}",
        zh=f"选项 {key} 只能是 {_choices(enum).replace(', ', '、')} 之一，不是 {_shown(value)}",
    )


def _not_a_switch(key: str, value: object) -> InvalidRulesError:
    return InvalidRulesError(
        f"option {key!r} must be on or off (true/false), got {_shown(value)}",
        zh=f"选项 {key} 只能是 true（开启）或 false（关闭），不是 {_shown(value)}",
    )


def _convert(key: str, value: Any) -> Any:
    enum = _ENUMS.get(key)
    if enum is not None:
        try:
            return enum(value)
        except ValueError:
            raise _not_a_choice(key, enum, value) from None
    if key in _BOOLS:
        if isinstance(value, bool):
            return value
        if value in ("on", "off"):
            return value == "on"
        raise _not_a_switch(key, value)
    if key in ("cap", "taipao_multiplier") and value in (None, "none"):
        return None
    return value


#: The presets of R-10, as options over the defaults (data: a new preset is one entry).
PRESETS: dict[str, dict[str, Any]] = {
    "leshan": {},
    "duikou": {
        "players": 2,
        "discard_chi": "none",
        "flip_chi": "flipper_only",
        "taipao_multiplier": 2,
    },
    "meishan": {"tianhu": "two_fan"},
    "app": {"tiers": "app", "cap": 100},
    "jianwei": {"tiers": "jianwei", "cap": 80},
}

LESHAN = RuleSet()
DUIKOU = RuleSet.preset("duikou")
