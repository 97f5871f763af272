"""Rule sets and presets (R-10)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from erqishi.core import InvalidRulesError, RuleSet
from erqishi.core.rules import PRESETS, DiscardChi, FlipChi, TianhuRule, Tiers


def test_leshan_is_all_defaults() -> None:
    r = RuleSet.preset("leshan")
    assert r == RuleSet()
    assert (r.players, r.flip_chi, r.discard_chi, r.tiers, r.tianhu) == (
        3,
        FlipChi.FLIPPER_THEN_XIAJIA,
        DiscardChi.XIAJIA,
        Tiers.SEED,
        TianhuRule.ONE_FAN,
    )
    assert (r.cap, r.yu, r.match_quan, r.quan_fan, r.taipao_factor) == (None, False, 10, True, 3)
    # R-10: the game halls' switches are all on by default
    assert (r.shuang_quan, r.tian_di_fan, r.kun_fan, r.piao_fan) == (True, True, True, True)


def test_presets_of_r10() -> None:
    duikou = RuleSet.preset("duikou")
    assert (duikou.players, duikou.discard_chi, duikou.flip_chi, duikou.taipao_factor) == (
        2,
        DiscardChi.NONE,
        FlipChi.FLIPPER_ONLY,
        2,
    )
    assert RuleSet.preset("meishan").tianhu is TianhuRule.TWO_FAN
    app = RuleSet.preset("app")
    assert (app.tiers, app.cap) == (Tiers.APP, 100)
    jianwei = RuleSet.preset("jianwei")  # 犍为: tiers jianwei, cap 80
    assert (jianwei.tiers, jianwei.cap) == (Tiers.JIANWEI, 80)
    assert jianwei == RuleSet.from_options({"tiers": "jianwei", "cap": 80})
    assert set(PRESETS) == {"leshan", "duikou", "meishan", "app", "jianwei"}


@pytest.mark.parametrize("name", ["shuang_quan", "tian_di_fan", "kun_fan", "piao_fan"])
def test_fan_switches_are_on_off_options(name: str) -> None:
    """R-10: each game-hall switch reads as on/off or true/false, and nothing else."""
    assert getattr(RuleSet.load({name: "off"}), name) is False
    assert getattr(RuleSet.load(f'{{"{name}": false}}'), name) is False
    assert getattr(RuleSet.load({name: "on"}), name) is True
    assert RuleSet.load({name: False}).to_spec() == {name: False}
    with pytest.raises(InvalidRulesError, match=f"'{name}' must be on or off"):
        RuleSet.load({name: "maybe"})
    with pytest.raises(InvalidRulesError, match=f"'{name}' must be on or off"):
        RuleSet(**{name: 1})  # type: ignore[arg-type]


def test_presets_are_data() -> None:
    """R-10: a preset is options over the defaults; every one loads and names itself."""
    for name, options in PRESETS.items():
        assert isinstance(options, dict)
        assert RuleSet.from_options(options, base=None).name == name


def test_taipao_multiplier_defaults_by_player_count() -> None:
    """R-10: 3 when players != 2, else 2, unless set."""
    assert RuleSet.from_options({"players": 2}).taipao_factor == 2
    assert RuleSet.from_options({"players": 4}).taipao_factor == 3
    assert RuleSet.from_options({"players": 2, "taipao_multiplier": 3}).taipao_factor == 3


def test_options_from_json_over_leshan() -> None:
    r = RuleSet.load('{"yu": "on", "quan_fan": false, "cap": 50, "dealer": "winner"}')
    assert (r.yu, r.quan_fan, r.cap, r.dealer.value) == (True, False, 50, "winner")
    assert r.players == 3
    assert RuleSet.load({"cap": "none"}).cap is None


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("nosuch", "unknown rules preset 'nosuch'"),
        ('{"player": 3}', "unknown rule option 'player'"),
        ('{"players": 5}', "'players' must be 2, 3 or 4"),
        ('{"players": true}', "'players' must be 2, 3 or 4"),
        ('{"tiers": "big"}', "'tiers' must be one of"),
        ('{"cap": 0}', "'cap' must be a positive whole number"),
        ('{"cap": 1.5}', "'cap' must be a positive whole number"),
        ('{"yu": "maybe"}', "'yu' must be on or off"),
        ('{"match_quan": 0}', "'match_quan' must be a whole number"),
        ('{"flip_chi": null}', "'flip_chi' must be one of"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a preset name or a JSON object"),
        ('"app"', "must be a preset name or a JSON object"),
    ],
)
def test_bad_options_are_rejected_with_a_clear_error(spec: str, fragment: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        RuleSet.load(spec)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ('{"cap": true}', "option 'cap' must be a positive whole number or null, got true"),
        ('{"players": null}', "option 'players' must be 2, 3 or 4, got null"),
        ('{"piao_fan": 3}', "option 'piao_fan' must be on or off (true/false), got 3"),
        ('{"tiers": "big"}', 'option \'tiers\' must be one of "seed", "app", "jianwei", got "big"'),
        ('{"taipao_multiplier": false}', "option 'taipao_multiplier' must be a whole number 1-10 or null, got false"),
        ('{"preset": 7}', "option 'preset' must be a preset name, got 7"),
    ],
)
def test_a_bad_value_is_named_as_json_spells_it(spec: str, message: str) -> None:
    """Rule options are written in JSON (records, rooms, the command line), so the error
    names the value that way: ``true`` and ``null``, not Python's ``True`` and ``None``."""
    with pytest.raises(InvalidRulesError) as info:
        RuleSet.load(spec)
    assert str(info.value) == message


def test_rule_set_is_frozen() -> None:
    r = RuleSet()
    with pytest.raises(AttributeError):
        r.players = 2  # type: ignore[misc]


@given(
    st.fixed_dictionaries(
        {
            "players": st.sampled_from([2, 3, 4]),
            "tiers": st.sampled_from(["seed", "app", "jianwei"]),
            "tianhu": st.sampled_from(["one_fan", "two_fan", "fixed_100"]),
            "cap": st.none() | st.integers(1, 1000),
            "yu": st.booleans(),
            "match_quan": st.integers(1, 20),
            "quan_fan": st.booleans(),
            "shuang_quan": st.booleans(),
            "tian_di_fan": st.booleans(),
            "kun_fan": st.booleans(),
            "piao_fan": st.booleans(),
        }
    )
)
def test_options_round_trip(options: dict[str, object]) -> None:
    r = RuleSet.from_options(options)
    assert RuleSet.from_options(r.to_options()) == r
    assert RuleSet.parse(str(r)) == r
    assert RuleSet.load(r.to_spec()) == r


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_names_round_trip(name: str) -> None:
    r = RuleSet.preset(name)
    assert r.name == name and str(r) == name and RuleSet.parse(name) == r
