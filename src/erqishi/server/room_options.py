"""A room's rule options for people (R-10), built from the rule set's own data
(:mod:`erqishi.core.rule_info`, :class:`~erqishi.core.rules.RuleSet`), never retyped in
the browser: what the room-creation screen offers (``GET /api/rule-options``) and the
rules of a room in words for everyone who joins it (the ``room.rules_words`` object).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from erqishi.core.rule_info import OPTIONS, Value, describe_option, option_info, preset_name
from erqishi.core.rules import NUMBER_RANGES, PRESETS, RuleSet

__all__ = ["ROOM_OPTIONS", "TIMERS", "rule_options_json", "rules_words"]

#: The options a room's creator sets first, as the Leshan game halls offer them: the 圈
#: count, the cap (封顶), what a discarder pays (抬炮), and each 番 switch (天地胡, 坤, 漂,
#: 圈胡 and 双圈). The others follow under "more".
ROOM_OPTIONS = (
    "match_quan",
    "cap",
    "taipao_multiplier",
    "tian_di_fan",
    "kun_fan",
    "piao_fan",
    "quan_fan",
    "shuang_quan",
)

#: The values offered for the whole-number options (None: no cap / the default multiple);
#: ``match_quan`` is 1-10 in a room (``CreateRoom``).
_SUGGESTED: dict[str, tuple[int | None, ...]] = {
    "match_quan": tuple(range(1, 11)),
    "cap": (None, 40, 50, 60, 80, 100, 160, 200, 300),
    "taipao_multiplier": (None, 1, 2, 3, 4),
}

#: The room's timers (``CreateRoom``): name -> (Chinese, English) label, the bounds in
#: seconds, and the values offered.
TIMERS: dict[str, tuple[tuple[str, str], int, int, tuple[int, ...]]] = {
    "response_seconds": (("回应时间（秒）", "Time to answer a card (seconds)"), 5, 120, (10, 15, 20, 30, 45, 60, 90)),
    "turn_seconds": (("出牌时间（秒）", "Time to discard (seconds)"), 10, 300, (20, 30, 45, 60, 90, 120, 180)),
}

#: The player count has its own choice on the screen (``CreateRoom.players``).
_APART = ("players",)

#: The on/off options (every ``bool`` field of ``RuleSet``).
_SWITCHES = tuple(f.name for f in fields(RuleSet) if f.type in ("bool", bool))

#: English labels for a page read in English: each Chinese term with its gloss (RULES.md
#: R-11), where the terminal's short label (rule_info) keeps the bare term.
_EN_LABELS: dict[str, str] = {
    "flip_chi": "who may chow (吃) a flip",
    "discard_chi": "who may chow (吃) a discard",
    "tiers": "base table (规格)",
    "tianhu": "heavenly win (天胡) is worth",
    "taipao_multiplier": "a discarder who fires (抬炮) pays",
    "cap": "cap (封顶) per payer",
    "yu": "4th card onto an exposed pung (下雨)",
    "dealer": "who deals next",
    "match_quan": "rounds (圈) per match",
    "quan_fan": "round-card win (圈胡) doubles",
    "shuang_quan": "all four round cards (双圈) double twice",
    "tian_di_fan": "heavenly and earthly wins (天胡/地胡) double",
    "kun_fan": "every group scores (坤胡) doubles",
    "piao_fan": "hu earned on the table (瞟胡) doubles",
}

#: English words of values whose terminal words keep a bare Chinese term.
_EN_VALUES: dict[tuple[str, Value], str] = {
    ("flip_chi", "flipper_then_xiajia"): "the flipper, then the next seat (下家)",
    ("discard_chi", "xiajia"): "the next seat (下家)",
    ("tianhu", "one_fan"): "1 doubling (番)",
    ("tianhu", "two_fan"): "2 doublings (番)",
}


def _pair(zh: str, en: str) -> list[str]:
    return [zh, en]


def _label(name: str) -> list[str]:
    info = option_info(name)
    return [info.zh, _EN_LABELS.get(name, info.en)]


def _words(name: str, value: Value) -> list[str]:
    info = option_info(name)
    return [info.words(value, "zh"), _EN_VALUES.get((name, value)) or info.words(value, "en")]


def _value_words(rules: RuleSet, name: str) -> dict[str, str]:
    raw = getattr(rules, name)
    value = raw.value if hasattr(raw, "value") else raw
    en = _EN_VALUES.get((name, value)) or describe_option(rules, name, "en")
    return {"zh": describe_option(rules, name, "zh"), "en": en}


def _room_first() -> list[str]:
    """Every option's name: the room options in their order, then the others in field order."""
    return list(ROOM_OPTIONS) + [o.name for o in OPTIONS if o.name not in ROOM_OPTIONS]


def _option_json(name: str) -> dict[str, Any]:
    """One option for the creation screen: labels, meaning, its R-id, and its values in words."""
    info = option_info(name)
    field = next(f for f in fields(RuleSet) if f.name == name)
    values: list[Value]
    if name in _SWITCHES:
        kind, values = "switch", [True, False]
    elif name in NUMBER_RANGES:
        kind = "number"
        values = list(_SUGGESTED.get(name, ()))
    else:
        kind = "choice"
        values = list(info.values)
    default = getattr(RuleSet(), field.name)
    out: dict[str, Any] = {
        "name": name,
        "label": _label(name),
        "meaning": _pair(info.meaning_zh, info.meaning_en),
        "rule": info.rule_id,
        "section": _pair(*info.section),
        "kind": kind,
        "room": name in ROOM_OPTIONS,
        "choices": [{"value": v, "words": _words(name, v)} for v in values],
        "default": default.value if hasattr(default, "value") else default,
    }
    if name in NUMBER_RANGES:
        low, high = NUMBER_RANGES[name]
        if name == "match_quan":
            high = 10
        out["range"] = [low, high]
        out["number"] = list(info.number) if info.number is not None else None
    return out


def rule_options_json(defaults: dict[str, float]) -> dict[str, Any]:
    """``GET /api/rule-options``: every rule option a room may set (R-10), the room's own
    first (``room``: true), each with its label, meaning and R-id and its values in words
    (``[Chinese, English]``), and the room's timers with the server's ``defaults``
    (seconds by timer name)."""
    names = [n for n in _room_first() if n not in _APART]
    timers = [
        {
            "name": name,
            "label": list(label),
            "range": [low, high],
            "choices": list(choices),
            "default": defaults.get(name),
        }
        for name, (label, low, high, choices) in TIMERS.items()
    ]
    return {"v": 2, "options": [_option_json(n) for n in names], "room": list(ROOM_OPTIONS), "timers": timers}


def rules_words(rules: RuleSet, preset: str) -> dict[str, Any]:
    """A room's rules in words, in Chinese and English (``room.rules_words``): its preset's
    name, then each room option (:data:`ROOM_OPTIONS`) and every other option that differs
    from the preset, with its value; ``changed`` marks those that differ from the preset
    (but ``match_quan``, which every room sets).

    >>> words = rules_words(RuleSet.load({"preset": "app", "piao_fan": False}), "app")
    >>> words["preset"], [i["value"]["en"] for i in words["items"] if i["name"] == "piao_fan"]
    ({'zh': '游戏大厅 app', 'en': 'game hall (app)'}, ['off'])
    """
    base = RuleSet.preset(preset) if preset in PRESETS else RuleSet()
    items = []
    for info in map(option_info, _room_first()):
        # every room chooses its length: 圈 per match is listed, not marked as a change
        changed = getattr(rules, info.name) != getattr(base, info.name) and info.name != "match_quan"
        if info.name not in ROOM_OPTIONS and not changed:
            continue
        items.append(
            {
                "name": info.name,
                "label": dict(zip(("zh", "en"), _label(info.name), strict=True)),
                "value": _value_words(rules, info.name),
                "rule": info.rule_id,
                "changed": changed,
            }
        )
    name = preset if preset in PRESETS else "leshan"
    return {"preset": {"zh": preset_name(name, "zh"), "en": preset_name(name, "en")}, "items": items}
