"""Fuzz: the match-file readers (.mat and SGF). Each reader is one line of READERS."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import answered_or_refused, fuzz, mutated, texts
from nardy import Match, Rules
from nardy.formats import matfile
from nardy.formats import sgf

# (name, read(text) -> record, write(match) -> text): the valid files fuzzing starts from are written by `write`
READERS = [
    ("mat", matfile.read, lambda match: matfile.write(match)),
    ("sgf", sgf.read, lambda match: sgf.write(match)),
]


def _played(rules: Rules, length: int, seed: int) -> Match:
    rng = np.random.default_rng(seed)
    match = Match(rules, length, seed=seed)
    while match.winner is None and len(match.games) < 2:
        game = match.new_game()
        if game.starter is None:
            game.roll_off()
        while not game.over:
            if game.dice is None and game.may_double() and rng.random() < 0.1:
                game.double()
                game.take() if rng.random() < 0.7 else game.drop()
                continue
            if game.dice is None:
                game.roll()
            moves = game.legal_moves()
            game.play(moves[rng.integers(len(moves))])
        match.finish_game()
    return match


MATCHES = [_played(Rules("short"), 3, 1), _played(Rules("long"), 1, 2), _played(Rules("short"), 0, 3)]
SEEDS = {name: [write(match) for match in MATCHES] for name, _, write in READERS}
MAT_CHARS = "0123456789 :/*()-\n\t;[]\"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'\r"


@pytest.mark.parametrize("name, read", [r[:2] for r in READERS], ids=[r[0] for r in READERS])
@fuzz
@given(data=st.data())
def test_match_files(name, read, data):
    seeds = SEEDS[name]
    text = data.draw(st.one_of(mutated(seeds, MAT_CHARS), texts(seeds[:1])))
    answered_or_refused(read, text)
