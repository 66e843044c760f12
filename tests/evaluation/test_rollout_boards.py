"""`nardy.evaluation.rollout.rollout_boards`: many positions rolled out at once, the games
those of `rollout`, cut at a horizon where the net judges, and its refusals."""

from __future__ import annotations

import numpy as np
import pytest

from nardy import GameOverError, InvalidArgumentError, InvalidPositionError, Position, Rules, batch
from nardy.evaluation.net import default_net, lookahead, swap_sides
from nardy.evaluation.rollout import rollout, rollout_boards


def positions(variant: str, count: int) -> np.ndarray:
    """The side on roll's boards of a few plies of seeded random play (no finished game)."""
    rules = Rules(variant)
    rng = np.random.default_rng(7)
    boards = []
    board = np.frombuffer(Position.start(variant).to_bytes(), np.int8).copy()
    while len(boards) < count:
        children, _, _ = batch.generate(board[None, :], rng.integers(1, 7, size=(1, 2), dtype=np.int8), rules)
        board = batch.flip(children[rng.integers(len(children))][None, :], variant)[0]
        if batch.wins(board[None, :], rules)[0] or batch.wins(batch.flip(board[None, :], variant), rules)[0]:
            board = np.frombuffer(Position.start(variant).to_bytes(), np.int8).copy()
            continue
        boards.append(board.copy())
    return np.array(boards)


@pytest.mark.parametrize("variant", ["short", "long"])
@pytest.mark.parametrize("luck", [False, True])
def test_one_position_plays_the_games_of_rollout(variant: str, luck: bool) -> None:
    p = Position.start(variant)
    whole = rollout(p, 36, seed=5, luck=luck)
    got = rollout_boards([p], 36, seed=5, luck=luck)
    assert got.shape == (1, 5)
    np.testing.assert_allclose(got[0], whole.probs, rtol=0, atol=1e-12)


def test_every_36_trials_roll_each_first_and_each_second_roll_once(monkeypatch) -> None:
    """The stratification: any 36 consecutive games, every 1296 each pair of opening rolls once."""
    from nardy.evaluation import rollout as module

    board = positions("short", 1)
    seen = []
    real = module.batch.generate

    def generate(boards, dice, rules):
        seen.append(np.array(dice))
        return real(boards, dice, rules)

    monkeypatch.setattr(module.batch, "generate", generate)
    rollout_boards(board, 36, variant="short", horizon=2)
    first, second = (set(map(tuple, d.tolist())) for d in seen[:2])
    assert len(seen[0]) == len(seen[1]) == 36 and len(first) == len(second) == 36
    seen.clear()
    rollout_boards(board, 1296, variant="short", horizon=2)
    assert len(set(zip(map(tuple, seen[0].tolist()), map(tuple, seen[1].tolist())))) == 1296


@pytest.mark.parametrize("variant", ["short", "long"])
def test_a_horizon_of_one_ply_is_the_look_one_roll_ahead(variant: str) -> None:
    """36 trials stratify the first roll: each ordered roll once, its best play judged at 0 ply."""
    rules, net = Rules(variant), default_net(variant)
    boards = positions(variant, 12)
    got = rollout_boards(boards, 36, rules=rules, horizon=1, chunk_size=100)
    ahead = swap_sides(lookahead(batch.flip(boards, variant), rules, net, 1))
    np.testing.assert_allclose(got, ahead, rtol=0, atol=1e-9)


def test_rows_are_independent_of_the_threads_and_each_is_a_probability() -> None:
    boards = positions("short", 20)
    one = rollout_boards(boards, 8, variant="short", horizon=6, seed=3, chunk_size=24)
    two = rollout_boards(boards, 8, variant="short", horizon=6, seed=3, chunk_size=24, threads=2)
    assert np.array_equal(one, two)
    assert ((one >= 0) & (one <= 1)).all() and (one[:, 1] <= one[:, 0]).all() and (one[:, 3] <= 1 - one[:, 0]).all()
    other = rollout_boards(boards, 8, variant="short", horizon=6, seed=4, chunk_size=24)
    assert not np.array_equal(one, other)
    seen = []
    rollout_boards(boards[:3], 8, variant="short", progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (24, 24)


@pytest.mark.parametrize("call, error, message", [
    (lambda b: rollout_boards(b), InvalidArgumentError, "variant= or rules="),
    (lambda b: rollout_boards(b[:, :20], variant="short"), InvalidPositionError, "shape"),
    (lambda b: rollout_boards(b, 0, variant="short"), InvalidArgumentError, "trials"),
    (lambda b: rollout_boards(b, variant="short", horizon=0), InvalidArgumentError, "horizon"),
    (lambda b: rollout_boards(b, variant="short", threads=0), InvalidArgumentError, "threads"),
    (lambda b: rollout_boards(b, variant="short", luck="yes"), InvalidArgumentError, "luck"),
    (lambda b: rollout_boards(b, variant="short", progress=3), InvalidArgumentError, "progress"),
    (lambda b: rollout_boards(b, variant="long", net=default_net("short")), InvalidArgumentError, "short"),
    (lambda b: rollout_boards(b, 10**13, variant="short"), InvalidArgumentError, "more than this machine's"),
])
def test_bad_arguments_are_refused(call, error, message) -> None:
    with pytest.raises(error, match=message):
        call(positions("short", 2))


def test_an_invalid_or_finished_board_is_refused_by_row() -> None:
    boards = positions("short", 3)
    bad = boards.copy()
    bad[1, 5] += 1   # sixteen checkers
    with pytest.raises(InvalidPositionError, match="row 1"):
        rollout_boards(bad, variant="short")
    over = Position.from_points("short", white={}, black={6: 1}, own_numbers=True)
    with pytest.raises(GameOverError, match="row 0 is a finished game"):
        rollout_boards([over], 4)
    with pytest.raises(GameOverError, match="the game is over in .*nothing to roll out"):
        rollout(over, 4)


def test_threads_beyond_the_chunks_cost_no_memory() -> None:
    """Only threads with a chunk play: a billion threads for one position's 36 games were refused
    as needing 36,000,000,000 games' memory (blaming the trials)."""
    from nardy import Position

    one = rollout_boards([Position.start("short")], 36, horizon=2, seed=1, threads=10**9)
    assert np.array_equal(one, rollout_boards([Position.start("short")], 36, horizon=2, seed=1))


def test_last_roll_draw_is_refused_not_ignored(capsys) -> None:
    """Rollouts once played the game without long nardy's last_roll_draw when the rules had it,
    and said nothing; a position does not tell who started, on which the last roll depends."""
    from nardy.cli import main

    rules = Rules("long", last_roll_draw=True)
    start = Position.start("long")
    with pytest.raises(InvalidArgumentError, match="rollouts play the game without last_roll_draw"):
        rollout(start, 36, rules=rules)
    with pytest.raises(InvalidArgumentError, match="without last_roll_draw"):
        rollout_boards(np.array([start.view()], np.int8), 36, rules=rules)
    assert main(["rollout", "long", "--games", "36", "--last-roll-draw", "true"]) == 2
    assert "without last_roll_draw" in capsys.readouterr().err
    assert rollout(start, 36, rules=Rules("long", last_roll_draw=False)).games == 36
