"""The rule options in words (erqishi.core.rule_info, R-10): one entry per field of
RuleSet, words for every value, R-ids that exist in RULES.md, rule sets named in words."""

from __future__ import annotations

import re
import typing
from dataclasses import fields
from enum import StrEnum
from pathlib import Path

import pytest

from conftest import ROOT
from erqishi.core import InvalidRulesError, RuleSet
from erqishi.core.rule_info import (
    OPTIONS,
    PRESET_NAMES,
    describe_option,
    describe_rules,
    differences,
    nearest_preset,
    option_info,
    option_item,
    preset_name,
)
from erqishi.core.rules import PRESETS

FIELDS = [f.name for f in fields(RuleSet)]
HINTS = typing.get_type_hints(RuleSet)


def test_one_entry_per_option_in_field_order() -> None:
    assert [o.name for o in OPTIONS] == FIELDS
    assert len(FIELDS) == 15  # R-10 lists fifteen options
    for info in OPTIONS:
        assert info.zh and info.en and info.meaning_zh and info.meaning_en, info.name
        assert info.section[0] and info.section[1], info.name
        assert option_info(info.name) is info


def test_every_value_has_words() -> None:
    """Enum options: exactly their choices; on/off options: both; whole numbers: any."""
    for info in OPTIONS:
        hint = HINTS[info.name]
        if isinstance(hint, type) and issubclass(hint, StrEnum):
            assert set(info.values) == {m.value for m in hint}, info.name
            assert info.number is None
        elif hint is bool:
            assert set(info.values) == {True, False} and all(isinstance(k, bool) for k in info.values)
        else:  # players, taipao_multiplier, cap, match_quan
            assert info.number is not None or info.name == "players", info.name
        for zh, en in info.values.values():
            assert zh and en


def test_words_of_values() -> None:
    """The words of R-10's values, written out by hand."""
    assert option_info("flip_chi").words("flipper_only", "en") == "flipper only"
    assert option_info("discard_chi").words("none") == "无人"
    assert option_info("tianhu").words("two_fan") == "两番"
    assert option_info("kun_fan").words(True) == "有" and option_info("kun_fan").words(False, "en") == "off"
    assert option_info("cap").words(None, "en") == "none" and option_info("cap").words(160) == "160"
    assert (
        option_info("taipao_multiplier").words(2) == "2 倍" and option_info("taipao_multiplier").words(2, "en") == "×2"
    )
    assert option_info("match_quan").words(1) == "1"
    assert option_info("players").words(2) == "2"


@pytest.mark.parametrize(
    ("name", "value"),
    [("flip_chi", "anyone"), ("kun_fan", 1), ("players", 5), ("players", True), ("cap", "x")],
)
def test_a_value_an_option_does_not_have_is_refused(name: str, value: object) -> None:
    with pytest.raises(InvalidRulesError, match=name):
        option_info(name).words(value)


def test_unknown_names_are_refused() -> None:
    with pytest.raises(InvalidRulesError, match="unknown rule option 'colour'"):
        option_info("colour")
    with pytest.raises(InvalidRulesError, match="unknown rules preset 'nanchong'"):
        preset_name("nanchong")


def test_rule_ids_are_rules_of_the_spec_and_r10_lists_every_option(shared: Path) -> None:
    text = (shared / "RULES.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"\*\*(R-\d+\.\d+)\*\*", text))
    r10 = text[text.index("## R-10") : text.index("## R-11")]
    for info in OPTIONS:
        assert info.rule_id in ids, (info.name, info.rule_id)
        assert f"| `{info.name}` |" in r10, info.name


def test_every_preset_is_named_and_every_value_described() -> None:
    assert set(PRESET_NAMES) == set(PRESETS)
    assert preset_name("leshan") == "乐山 leshan" and preset_name("leshan", "en") == "Leshan (leshan)"
    for name in PRESETS:
        rules = RuleSet.preset(name)
        for info in OPTIONS:
            for lang in ("zh", "en"):
                assert describe_option(rules, info.name, lang)
        assert nearest_preset(rules) == name
        assert describe_rules(rules) == preset_name(name)  # a preset is its name alone


def test_taipao_multiplier_shows_the_multiple_in_effect() -> None:
    """R-8.2, R-10: unset, the discarder pays 3 ×, or 2 × with two players."""
    assert describe_option(RuleSet(), "taipao_multiplier") == "默认（3 倍）"
    assert describe_option(RuleSet(players=2), "taipao_multiplier", "en") == "default (×2)"
    assert describe_option(RuleSet.preset("duikou"), "taipao_multiplier", "en") == "×2"  # set by the preset


def test_differences_from_leshan_are_the_presets_options() -> None:
    """R-10's presets, as the spec words them."""
    leshan = RuleSet()
    assert differences(RuleSet.preset("leshan"), leshan) == ()
    assert differences(RuleSet.preset("duikou"), leshan) == ("players", "flip_chi", "discard_chi", "taipao_multiplier")
    assert differences(RuleSet.preset("meishan"), leshan) == ("tianhu",)
    assert differences(RuleSet.preset("app"), leshan) == ("tiers", "cap")
    assert differences(RuleSet.preset("jianwei"), leshan) == ("tiers", "cap")


def test_rule_sets_in_words() -> None:
    one_quan = RuleSet.from_options({"match_quan": 1})
    assert describe_rules(one_quan) == "乐山 leshan；比赛圈数 1"
    assert describe_rules(one_quan, "en") == "Leshan (leshan); 圈 per match 1"
    # over another preset: the nearest one, then what differs from it
    capped = RuleSet.load('{"preset": "duikou", "cap": 50}')
    assert describe_rules(capped) == "对抠 duikou；封顶 50"
    # two players over leshan differ from leshan in one option, from duikou in three
    assert describe_rules(RuleSet(players=2)) == "乐山 leshan；人数 2"
    both = RuleSet.from_options({"kun_fan": False, "yu": True})
    assert describe_rules(both, "en") == "Leshan (leshan); 下雨 (yu) on; 坤胡 番 off"
    assert option_item(both, "cap") == "封顶 无"


def test_the_module_uses_the_standard_library_only() -> None:
    """The core may not import anything outside the standard library (DESIGN.md)."""
    source = (ROOT / "src/erqishi/core/rule_info.py").read_text(encoding="utf-8")  # the source, in both builds
    imported = re.findall(r"^(?:from|import) ([\w.]+)", source, re.M)
    assert all(
        name.split(".")[0] in {"__future__", "collections", "dataclasses", "enum", "typing", "erqishi"}
        for name in imported
    ), imported
    assert all(name.startswith("erqishi.core") for name in imported if name.startswith("erqishi"))
