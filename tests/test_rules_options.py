"""The `Rules` value: every option of docs/rules.md with its default, and clear errors."""

import pickle

import pytest

from nardy import InvalidRulesError, Rules, Variant


def test_defaults_follow_rules_md():
    long = Rules("long")
    assert long.variant is Variant.LONG
    assert long.options() == {
        "head_exception": "strict", "block_rule": "ahead", "block_timing": "step", "koks": False,
        "last_roll_draw": False, "opening": "reroll", "next_starter": "winner",
    }
    short = Rules(Variant.SHORT)
    assert short.options() == {"opening": "dice", "next_starter": "rolloff", "cube": True, "crawford": True, "jacoby": False}


def test_unknown_option_names_the_valid_ones():
    with pytest.raises(InvalidRulesError, match="unknown rule option 'hed_exception'.*head_exception"):
        Rules("long", hed_exception="strict")


def test_unknown_value_names_the_valid_choices():
    with pytest.raises(InvalidRulesError, match="'strict', 'permission', 'none'"):
        Rules("long", head_exception="loose")
    with pytest.raises(InvalidRulesError, match="False, True"):
        Rules("long", koks="yes")


def test_an_option_of_the_other_variant_is_an_error():
    with pytest.raises(InvalidRulesError, match="applies to long nardy only"):
        Rules("short", block_rule="none")
    with pytest.raises(AttributeError, match="does not apply to short nardy"):
        Rules("short").block_rule


def test_rules_are_values():
    r = Rules("long", block_rule="home")
    assert r == Rules("long", block_rule="home") and hash(r) == hash(Rules("long", block_rule="home"))
    assert r != Rules("long")
    assert repr(r) == "Rules('long', block_rule='home')"
    assert eval(repr(r)) == r
    assert pickle.loads(pickle.dumps(r)) == r
    assert r.replace(block_timing="end") == Rules("long", block_rule="home", block_timing="end")
    with pytest.raises(AttributeError):
        r.koks = True
