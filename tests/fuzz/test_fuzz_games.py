"""Fuzz: Rules, Game and Match, built and driven with wrong values."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fuzzing import answered_or_refused, anything, fuzz, huge_ints
from nardy import Game, Match, Rules
from nardy.rules import OPTIONS

OPTION_VALUES = st.one_of(*(st.sampled_from(choices) for _, choices, _ in OPTIONS.values()), anything())
RULES = st.one_of(st.sampled_from(["long", "short", Rules("short"), Rules("long", koks=True)]), anything())


@fuzz
@given(variant=st.one_of(st.sampled_from(["long", "short"]), anything()),
       options=st.dictionaries(st.one_of(st.sampled_from(list(OPTIONS)), st.text(max_size=8)), OPTION_VALUES, max_size=4))
def test_rules(variant, options):
    answered_or_refused(Rules, variant, **options)


@fuzz
@given(rules=RULES, length=st.one_of(huge_ints(), anything()), starter=st.one_of(st.none(), anything()),
       dice=st.one_of(st.none(), st.lists(huge_ints(), max_size=12), anything()),
       actions=st.lists(st.tuples(st.sampled_from(["roll", "play", "double", "take", "drop", "resign", "parse_move"]),
                                  st.one_of(st.none(), anything())), max_size=12))
def test_games_and_matches(rules, length, starter, dice, actions):
    answered_or_refused(Match, rules, length)
    game = answered_or_refused(Game, rules, dice=dice, starter=starter)
    if not isinstance(game, Game):
        return
    if game.starter is None:
        answered_or_refused(game.roll_off)
    for action, argument in actions:
        if action == "play":
            moves = answered_or_refused(game.legal_moves)
            answered_or_refused(game.play, moves[0] if isinstance(moves, list) and moves and argument is None else argument)
        elif action == "resign":
            answered_or_refused(game.resign, argument if argument is not None else 1)
        elif action == "parse_move":
            answered_or_refused(game.parse_move, argument)
        else:
            answered_or_refused(getattr(game, action), argument)
    for query in (game.match_state, game.history, game.may_double):
        answered_or_refused(query)
