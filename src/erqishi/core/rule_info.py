"""The rule options in words, for people (R-10): one place for every front end.

Each field of :class:`~erqishi.core.rules.RuleSet` has one :class:`OptionInfo` in
:data:`OPTIONS` (in the field order): its label and one-line meaning in Chinese and
English, the rule it varies (an R-id of RULES.md) and the words for each of its values.
``erqishi rules`` prints them as a table; ``erqishi replay`` names a record's rules with
:func:`describe_rules`; a rules page or a room's option screen can read the same data.
The presets have names in words too (:data:`PRESET_NAMES`).

Standard library only, like the rest of the core.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from erqishi.core._compiled import reduce_fields
from erqishi.core.errors import InvalidRulesError
from erqishi.core.rules import PRESETS, RuleSet, unknown_option, unknown_preset

__all__ = [
    "OPTIONS",
    "PRESET_NAMES",
    "Lang",
    "OptionInfo",
    "Value",
    "describe_option",
    "describe_rules",
    "differences",
    "nearest_preset",
    "option_info",
    "option_item",
    "preset_name",
]

#: The languages of the words: Chinese and English.
Lang = Literal["zh", "en"]
#: An option's value as in JSON (``RuleSet.to_options``): a string, a number, on/off or none.
Value = str | int | bool | None

_ON_OFF: dict[Value, tuple[str, str]] = {True: ("有", "on"), False: ("无", "off")}


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One rule option (a field of ``RuleSet``) in words.

    Attributes:
        name: the field name, as in JSON (``kun_fan``).
        zh: the short Chinese label (``坤胡``).
        en: the short English label (``坤胡 番``).
        rule_id: the rule of RULES.md the option varies (``R-7.3``).
        meaning_zh: what the option decides, in one line of Chinese (from R-10).
        meaning_en: the same in English.
        values: words for each value, as in JSON (``True``, ``"flipper_only"``, ``None``):
            value -> (Chinese, English).
        number: for a whole-number option, the words of a number not in ``values``:
            (Chinese, English) templates with ``{n}``; None for the other options.
        section: the kind of option, (Chinese, English): ``("番", "switch")``.
    """

    name: str
    zh: str
    en: str
    rule_id: str
    meaning_zh: str
    meaning_en: str
    values: Mapping[Value, tuple[str, str]] = field(default_factory=dict)
    number: tuple[str, str] | None = None
    section: tuple[str, str] = ("", "")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    def label(self, lang: Lang = "zh") -> str:
        """The short label in ``lang``."""
        return self.en if lang == "en" else self.zh

    def meaning(self, lang: Lang = "zh") -> str:
        """The one-line meaning in ``lang``, without the R-id."""
        return self.meaning_en if lang == "en" else self.meaning_zh

    def words(self, value: object, lang: Lang = "zh") -> str:
        """The words for ``value`` (a JSON value or the enum member of a ``RuleSet``).

        Raises:
            InvalidRulesError: the option has no such value.

        >>> option_info("kun_fan").words(False, "en"), option_info("cap").words(100)
        ('off', '100')
        """
        v = value.value if isinstance(value, Enum) else value
        for key, pair in self.values.items():
            if key == v and isinstance(key, bool) == isinstance(v, bool):
                return pair[1] if lang == "en" else pair[0]
        if self.number is not None and isinstance(v, int) and not isinstance(v, bool):
            return (self.number[1] if lang == "en" else self.number[0]).format(n=v)
        raise InvalidRulesError(
            f"option {self.name!r} has no value {value!r}", zh=f"选项 {self.name} 没有 {value!r} 这个值"
        )


def _switch(name: str, zh: str, en: str, rule_id: str, meaning_zh: str, meaning_en: str) -> OptionInfo:
    return OptionInfo(name, zh, en, rule_id, meaning_zh, meaning_en, _ON_OFF, section=("番", "switch"))


#: Every option of ``RuleSet``, in its field order (R-10).
OPTIONS: tuple[OptionInfo, ...] = (
    OptionInfo(
        "players",
        "人数",
        "players",
        "R-2.1",
        "玩家人数；2 = 对抠；4 = 座位 (庄 − 1) mod 4 本手轮空：不发牌，不付也不收",
        "how many play; 2 = 对抠 (duikou); 4 = seat (dealer − 1) mod 4 sits each hand out, dealt nothing, "
        "paying and receiving nothing",
        {3: ("3", "3"), 2: ("2", "2"), 4: ("4", "4")},
        section=("牌桌", "table"),
    ),
    OptionInfo(
        "flip_chi",
        "吃翻牌",
        "flip 吃 by",
        "R-5.3",
        "谁可吃翻出的牌：翻牌者，翻牌者不吃则其下家；或只许翻牌者（大贰）",
        "who may 吃 a flipped card: the flipper, then the flipper's 下家; or the flipper only (大贰)",
        {"flipper_then_xiajia": ("翻牌者、下家", "flipper, 下家"), "flipper_only": ("仅翻牌者", "flipper only")},
        section=("吃", "chi"),
    ),
    OptionInfo(
        "discard_chi",
        "吃打牌",
        "discard 吃 by",
        "R-5.2",
        "谁可吃打出的牌：打牌者的下家；或无人（对抠：吃字进张只能自摸牌）",
        "who may 吃 a discard: the discarder's 下家; or nobody (对抠)",
        {"xiajia": ("下家", "下家"), "none": ("无人", "nobody")},
        section=("吃", "chi"),
    ),
    OptionInfo(
        "tiers",
        "规格表",
        "tiers",
        "R-7.2",
        "胡数对应的规格：seed 为 R-7.2 之表；app（游戏大厅）10–14:10 15–20:20 21–24:40 25–30:60 ≥31:100；"
        "jianwei（犍为）10:10 11–20:20 21–30:40 ≥31:80",
        "the base of each hu: seed = the table of R-7.2; app (game hall) 10–14:10 15–20:20 21–24:40 25–30:60 "
        "≥31:100; jianwei (犍为) 10:10 11–20:20 21–30:40 ≥31:80",
        {"seed": ("标准", "seed"), "app": ("游戏大厅", "game hall"), "jianwei": ("犍为", "Jianwei (犍为)")},
        section=("计分", "scoring"),
    ),
    OptionInfo(
        "tianhu",
        "天胡",
        "天胡",
        "R-7.3",
        "天胡的价值：一番；两番（眉山、仁寿）；或固定 100 分（不计其他番，仍受封顶）",
        "what 天胡 is worth: 1 番; 2 番 (眉山, 仁寿); or a flat 100 (no other 番; the cap still applies)",
        {"one_fan": ("一番", "1 番"), "two_fan": ("两番", "2 番"), "fixed_100": ("固定 100 分", "flat 100")},
        section=("计分", "scoring"),
    ),
    OptionInfo(
        "taipao_multiplier",
        "抬炮倍数",
        "抬炮 multiple",
        "R-8.2",
        "抬炮时打牌者付得分的几倍；默认三人 3 倍（包三家），两人 2 倍",
        "what the discarder pays on a 抬炮, in multiples of the score; by default 3 (包三家), or 2 with two players",
        {None: ("默认", "default")},
        number=("{n} 倍", "×{n}"),
        section=("计分", "scoring"),
    ),
    OptionInfo(
        "cap",
        "封顶",
        "cap",
        "R-8.2",
        "每家最多付的得分（先封顶，再乘抬炮倍数）",
        "the largest score one payer pays (capped first, then multiplied on a 抬炮)",
        {None: ("无", "none")},
        number=("{n}", "{n}"),
        section=("计分", "scoring"),
    ),
    OptionInfo(
        "yu",
        "下雨",
        "下雨 (yu)",
        "R-5.13",
        "下雨：亮出的对加上第四张成开（此开可不开）",
        "下雨: a 4th card onto an exposed 对 makes a 开 (an optional one)",
        _ON_OFF,
        section=("开", "kai"),
    ),
    OptionInfo(
        "dealer",
        "坐庄",
        "deal",
        "R-2.2",
        "下一手谁坐庄：庄家的下家（轮庄）；或胡家坐庄，荒庄则传给下家，每家都坐过庄为一圈",
        "who deals next: the dealer's 下家 (rotate); or the winner, a dead hand passing the deal on, "
        "a 圈 complete once every seat has dealt",
        {"rotate": ("轮庄", "rotates"), "winner": ("胡家坐庄", "to the winner")},
        section=("庄", "deal"),
    ),
    OptionInfo(
        "match_quan",
        "比赛圈数",
        "圈 per match",
        "R-2.4",
        "一场比赛打几圈（每家各坐一次庄为一圈）",
        "圈 in a match (one 圈: every player has dealt once)",
        number=("{n}", "{n}"),
        section=("圈", "match"),
    ),
    _switch(
        "quan_fan",
        "圈胡",
        "圈胡 番",
        "R-7.3",
        "圈胡：有三张圈牌（对或坎）一番，四张（双圈，开或滚）两番",
        "圈胡: three of the 圈 card as a 对 or 坎 is 1 番; all four (双圈) 2 番",
    ),
    _switch(
        "shuang_quan",
        "双圈",
        "双圈 番",
        "R-7.3",
        "双圈：四张圈牌算两番；无：只算一番，记作圈胡",
        "双圈: all four 圈 cards are 2 番; off: 1 番, listed as 圈胡",
    ),
    _switch(
        "tian_di_fan",
        "天地胡",
        "天胡/地胡 番",
        "R-7.3",
        "天胡、地胡各加番；无：仍可胡，但不加番、不列入番（固定 100 照付）",
        "天胡 and 地胡 add 番; off: they still win but add no 番 and are not listed (a flat 100 still pays 100)",
    ),
    _switch(
        "kun_fan",
        "坤胡",
        "坤胡 番",
        "R-7.3",
        "坤胡（房房数）：除桩子外每房至少 1 胡，一番",
        "坤胡: every group but the pair scores at least 1 hu: 1 番",
    ),
    _switch(
        "piao_fan",
        "瞟胡",
        "瞟胡 番",
        "R-7.3",
        "瞟胡：胡数全在桌上或靠胡牌得来（无坎、无滚、无由坎开成的开，胡前手里没有整副二七十），一番",
        "瞟胡: all hu earned on the table or with the winning card (no 坎, 滚 or 开 grown from a 坎, "
        "no 二七十 held before the win): 1 番",
    ),
)

_BY_NAME = {o.name: o for o in OPTIONS}

#: The presets of R-10 in words: name -> (Chinese, English).
PRESET_NAMES: dict[str, tuple[str, str]] = {
    "leshan": ("乐山", "Leshan"),
    "duikou": ("对抠", "two-player 对抠"),
    "meishan": ("眉山", "Meishan"),
    "app": ("游戏大厅", "game hall"),
    "jianwei": ("犍为", "Jianwei"),
}


def option_info(name: str) -> OptionInfo:
    """The words of the option ``name`` (a field of ``RuleSet``).

    Raises:
        InvalidRulesError: no option of that name.
    """
    info = _BY_NAME.get(name)
    if info is None:
        raise unknown_option(name, _BY_NAME)
    return info


def preset_name(name: str, lang: Lang = "zh") -> str:
    """A preset's name in words with its code name: ``乐山 leshan`` / ``Leshan (leshan)``.

    Raises:
        InvalidRulesError: no preset of that name.

    >>> preset_name("app"), preset_name("app", "en")
    ('游戏大厅 app', 'game hall (app)')
    """
    words = PRESET_NAMES.get(name)
    if words is None or name not in PRESETS:
        raise unknown_preset(name)
    return f"{words[1]} ({name})" if lang == "en" else f"{words[0]} {name}"


def describe_option(rules: RuleSet, name: str, lang: Lang = "zh") -> str:
    """The value of option ``name`` in ``rules``, in words; an unset ``taipao_multiplier``
    adds the multiple in effect (R-8.2): ``默认（3 倍）`` / ``default (×3)``.

    Raises:
        InvalidRulesError: no option of that name.
    """
    info = option_info(name)
    value = getattr(rules, name)
    text = info.words(value, lang)
    if name == "taipao_multiplier" and value is None:
        factor = rules.taipao_factor
        text += f" (×{factor})" if lang == "en" else f"（{factor} 倍）"
    return text


def option_item(rules: RuleSet, name: str, lang: Lang = "zh") -> str:
    """The option ``name`` with its value in ``rules``: ``封顶 100`` / ``cap 100``.

    Raises:
        InvalidRulesError: no option of that name.
    """
    return f"{option_info(name).label(lang)} {describe_option(rules, name, lang)}"


def differences(rules: RuleSet, base: RuleSet) -> tuple[str, ...]:
    """The names of the options whose value in ``rules`` differs from ``base``, in the
    order of :data:`OPTIONS`."""
    return tuple(o.name for o in OPTIONS if getattr(rules, o.name) != getattr(base, o.name))


def nearest_preset(rules: RuleSet) -> str:
    """The preset ``rules`` differs from in the fewest options (a tie goes to the preset
    listed first in ``PRESETS``, ``leshan``)."""
    return min(PRESETS, key=lambda name: len(differences(rules, RuleSet.preset(name))))


def describe_rules(rules: RuleSet, lang: Lang = "zh") -> str:
    """A rule set in words: its nearest preset's name, then each option that differs from
    that preset with its value, separated by ``；`` (Chinese) or ``; `` (English).

    >>> describe_rules(RuleSet.from_options({"match_quan": 1}))
    '乐山 leshan；比赛圈数 1'
    >>> describe_rules(RuleSet.load('{"preset": "duikou", "cap": 50}'), "en")
    'two-player 对抠 (duikou); cap 50'
    """
    name = nearest_preset(rules)
    items = [preset_name(name, lang)]
    items += [option_item(rules, o, lang) for o in differences(rules, RuleSet.preset(name))]
    return ("; " if lang == "en" else "；").join(items)
