"""The evaluator: the compiled forward pass against numpy, exact answers, ranking, errors, training."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import _hooks, Color, InvalidArgumentError, InvalidPositionError, NardyError, Position, Rules, batch
from nardy.evaluation import bearoff as race
from nardy.play.env import VectorEnv
from nardy.evaluation.net import OUTPUTS, Net, best_move, default_net, equity, evaluate, rank
from nardy.evaluation.training import duel, gradients, lambda_returns, net_chooser, random_chooser, train

from strategies import boards

VARIANTS = ["long", "short"]


def played_boards(variant: str, steps: int = 30, games: int = 32) -> np.ndarray:
    """Afterstates of random self-play: contact, races and bear-offs."""
    env = VectorEnv(variant, games, seed=5)
    env.reset()
    found = []
    for _ in range(steps):
        found.append(np.asarray(env.afterstates).copy())
        env.step(env.sample_actions())
    return np.concatenate(found)


@pytest.fixture(params=[True, False], ids=["avx2", "baseline"])
def simd(request: pytest.FixtureRequest):
    yield _hooks.use_net_avx2(request.param)
    _hooks.use_net_avx2(True)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("after", [False, True])
def test_core_forward_matches_numpy(variant: str, after: bool, simd: bool) -> None:
    rows = played_boards(variant)
    net = Net.initial(variant, 64, seed=2)
    odd = Net.initial(variant, 24, seed=3)    # a size not a multiple of 64 takes the generic loops
    wide = Net.initial(variant, 192, seed=4, inputs="expert")   # other multiples of 64: the vector loops
    for n in (net, odd, wide):
        assert np.abs(n.forward(rows, after=after) - n.forward_reference(rows, after=after)).max() < 1e-5


@pytest.mark.parametrize("variant", VARIANTS)
def test_folded_tables_sum_to_the_hidden_layer_of_every_input(variant: str) -> None:
    """What the core adds (`folding.tables`: a row per occupied point, the kept inputs times their
    rows, the bias) is x @ w1 + b1 over all 226 inputs, in numpy: the folding alone, core aside."""
    rows = played_boards(variant)
    short = variant == "short"
    if short:   # checkers on the bar, whose share of pips and timing is folded into the bar's row
        assert (rows[:, 25] > 0).any() and (rows[:, 0] < 0).any()
    else:       # a side's 15 on its head (unit 97)
        assert (rows[:, 12] == -15).any()
    net = Net.initial(variant, 64, seed=6, inputs="expert")
    t = net._tables
    x = net.inputs_of(rows).astype(np.float64)
    h = np.tile(t.bias.astype(np.float64), (len(rows), 1))
    for p in range(1, 25):
        c = rows[:, p].astype(int)
        own = np.where(c > 0, p, 25 - p if short else (p + 12 if p <= 12 else p - 12))
        index = np.where(c == 0, 0, 1 + ((c < 0) * 24 + own - 1) * 15 + np.abs(c) - 1)
        h += t.points[index]
    values = np.concatenate([x[:, [96, 97, 194, 195]], x[:, 198:]], axis=1)
    kept = [e for e in range(values.shape[1]) if t.keep >> e & 1]
    h += values[:, kept] @ t.rows[kept].astype(np.float64)
    assert np.abs(h - (x @ net.w1 + net.b1)).max() < 1e-4
    # the inputs left to the core: short nardy's bars and the expert inputs not sums over points
    left = {"short": [0, 2] + [4 + s * 13 + i for s in (0, 1) for i in (1, 3, 5, 7, 8, 11, 12)] + [31],
            "long": [4 + s * 13 + i for s in (0, 1) for i in (3, 4, 5, 6, 7, 8, 9, 12)] + [31]}
    assert kept == left[variant]


@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_probabilities_are_consistent(rules: Rules, data: st.DataObject) -> None:
    board = data.draw(boards(rules))
    p = evaluate(np.array([board]), rules=rules)[0]
    assert ((0 <= p) & (p <= 1)).all()
    assert p[1] <= p[0] and p[2] <= p[1] and p[3] <= 1 - p[0] + 1e-12 and p[4] <= p[3]
    assert equity(p) == pytest.approx(2 * p[0] - 1 + p[1] + p[2] - p[3] - p[4])


def test_a_sure_race_win_is_at_most_one() -> None:
    """Summing the bear-off table's turn distributions gave P(win) = 1 + 2e-16 here."""
    board = np.zeros((1, 26), dtype=np.int8)
    board[0, 1], board[0, 15] = 1, -4
    p = evaluate(board, rules=Rules("long"))[0]
    assert p[0] == 1.0 and ((0 <= p) & (p <= 1)).all()


def test_shipped_nets_load() -> None:
    for variant in VARIANTS:
        net = default_net(variant)
        assert net.variant.value == variant and net.hidden % 8 == 0
        # the commands that made it, oldest first: TD self-play, then rounds of distillation
        commands = net.meta.get("previous", []) + [net.meta["command"]]
        assert commands[0].startswith("python -m nardy.training")
        assert all(c.startswith("python -m nardy.evaluation.distill") for c in commands[1:])


def test_finished_games_are_exact() -> None:
    # short nardy, White has borne off all 15 and Black has a checker on the bar: a backgammon
    won = Position.from_points("short", white={}, black={6: 14}, black_bar=1, turn=Color.BLACK)
    assert evaluate(won).tolist() == [[0, 0, 0, 1, 1]]
    oin = Position.from_points("long", white={}, black={1: 5}, turn=Color.BLACK)
    assert evaluate(oin).tolist() == [[0, 0, 0, 0, 0]]
    mars = Position.from_points("long", white={}, black={1: 15}, turn=Color.BLACK)
    assert evaluate(mars).tolist() == [[0, 0, 0, 1, 0]]


@pytest.mark.parametrize("rules", [Rules("short"), Rules("long"), Rules("long", koks=True)], ids=repr)
def test_finished_outcomes_agree_with_the_reference_result(rules: Rules) -> None:
    """The vectorised outcomes of finished games (evaluate, rollouts, lookahead) against
    reference.result, on random finished boards of either side and every kind of win."""
    from nardy import reference
    from nardy.evaluation.net import _finished

    rng = np.random.default_rng(5)
    short = rules.variant.value == "short"
    boards = np.zeros((600, 26), np.int8)
    for board in boards:
        left = int(rng.choice([15, 15, 15, int(rng.integers(1, 15))]))   # the loser's checkers not off
        places = range(0, 25) if short else range(1, 25)                # short: 0 is the loser's bar
        for point in rng.choice(list(places), size=left):
            board[point] -= 1
    boards[1::2] = batch.flip(boards[1::2], rules.variant)    # odd rows: the side on roll has lost
    got = _finished(boards, rules)
    for board, outcome in zip(boards, got):
        view = board.tolist()
        won = reference.result(view, rules)
        if won is None:   # the other side has finished
            points, sign = reference.result(list(batch.flip(board[None], rules.variant)[0]), rules)[1], -1
        else:
            points, sign = won[1], 1
        wins = [1, points >= 2, points >= 3]
        expected = wins + [0, 0] if sign > 0 else [0, 0, 0] + wins[1:]
        assert outcome.tolist() == expected, (view, points, sign)
    kinds = {tuple(o) for o in got.tolist()}
    assert len(kinds) == (6 if short or rules.koks else 4)   # every kind of win, for each side


@pytest.mark.parametrize("variant", VARIANTS)
def test_bear_offs_are_exact(variant: str) -> None:
    p = Position.from_points(variant, white={6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2},
                             black={6: 4, 5: 3, 4: 3, 3: 2, 2: 1}, own_numbers=True)
    exact = race.race_probabilities(np.array([p.view()]), variant)[0]
    got = evaluate(p)[0]
    assert got.tolist() == pytest.approx([exact[0], exact[1], 0, exact[2], 0])


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_core_finds_the_rows_the_bear_off_table_answers(variant: str) -> None:
    # every row of played games (contact, races, bear-offs, the bar), against the rule in numpy
    from nardy import simulate
    from nardy.evaluation.net import home_rows

    rows = np.ascontiguousarray(simulate(variant, 60, seed=5, threads=1, record=True).trace[:, :26])
    points = rows[:, 1:25]
    theirs_home = slice(18, 24) if variant == "short" else slice(12, 18)
    theirs_out = points < 0
    theirs_out[:, theirs_home] = False
    expected = ~(points[:, 6:] > 0).any(axis=1) & ~theirs_out.any(axis=1) & (rows[:, 0] == 0) & (rows[:, 25] == 0)
    assert 0 < expected.sum() < len(rows)
    assert (home_rows(rows, Rules(variant).variant) == expected).all()


@pytest.mark.parametrize("variant", VARIANTS)
def test_rank_lists_every_play_best_first(variant: str) -> None:
    p = Position.start(variant)
    ranked = rank(p, (6, 5))
    assert sorted(str(m) for m, _, _ in ranked) == sorted(str(m) for m in p.legal_moves((6, 5)))
    equities = [e for _, e, _ in ranked]
    assert equities == sorted(equities, reverse=True)
    again = rank(p, (6, 5))
    assert [(m, e) for m, e, _ in again] == [(m, e) for m, e, _ in ranked]   # deterministic
    assert best_move(p, (6, 5)) == ranked[0][0]
    for m, e, probs in ranked:
        assert e == pytest.approx(equity(probs))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("ply", [0, 1])
def test_rank_gives_each_plays_afterstate_and_index(variant: str, ply: int) -> None:
    views = batch.flip(played_boards(variant, steps=12), variant)
    p = next(q for q in (Position(v.tolist(), variant) for v in views) if len(q.legal_moves((3, 1))) >= 3)
    ranked = rank(p, (3, 1), ply=ply)
    moves, children = p.legal_moves((3, 1)), p.children((3, 1))
    assert ranked.afterstates.shape == (len(moves), 26) and ranked.afterstates.dtype == np.int8
    assert sorted(ranked.indices.tolist()) == list(range(len(moves)))
    for (move, _, _), after, index in zip(ranked, ranked.afterstates, ranked.indices):
        assert move == moves[index]
        assert p.apply(move) == children[index]
        assert Position(after.tobytes(), variant, p.turn).pass_turn() == children[index]


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_ply_ranks_every_play(variant: str) -> None:
    views = batch.flip(played_boards(variant, steps=12), variant)
    p = next(q for q in (Position(v.tolist(), variant) for v in views) if len(q.legal_moves((3, 1))) >= 3)
    zero = rank(p, (3, 1))
    one = rank(p, (3, 1), ply=1)
    assert {str(m) for m, _, _ in one} == {str(m) for m, _, _ in zero}
    assert [e for _, e, _ in one] != [e for _, e, _ in zero]   # the lookahead changes the figures
    assert rank(p, (3, 1), ply=1)[0][0] == one[0][0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_two_ply_is_one_ply_of_each_best_reply(variant: str) -> None:
    # ply 2 of a play = the mean over the other side's 21 rolls of the mover's 1-ply figure (its own
    # 21 rolls, its best 0-ply play) after the other side's best 0-ply reply, computed here through
    # the public API one position at a time
    from nardy.evaluation.net import ROLL_WEIGHTS, ROLLS

    views = batch.flip(played_boards(variant, steps=30), variant)
    p = next(q for q in (Position(v.tolist(), variant) for v in views) if 3 <= len(q.legal_moves((4, 2))) <= 12)
    two = rank(p, (4, 2), ply=2)
    assert {str(m) for m, _, _ in two} == {str(m) for m, _, _ in rank(p, (4, 2))}
    assert [e for _, e, _ in two] != [e for _, e, _ in rank(p, (4, 2), ply=1)]
    best_zero = rank(p, (4, 2))[0][0]
    theirs = p.apply(best_zero)
    expected = np.zeros(5)
    for weight, roll in zip(ROLL_WEIGHTS, ROLLS):
        reply = rank(theirs, roll)[0][0]
        ours = theirs.apply(reply)
        if ours.is_game_over():
            pytest.skip("a reply ends the game")  # (not in the positions this seed gives)
        one = sum(w * rank(ours, r)[0][2] for w, r in zip(ROLL_WEIGHTS, ROLLS))
        expected += weight * np.asarray(one)
    got = next(probs for move, _, probs in two if move == best_zero)
    assert np.asarray(got) == pytest.approx(expected, abs=1e-9)


def test_a_winning_play_is_found() -> None:
    # White bears off its last two checkers with 2-1; Black has none off and 14 in White's home
    # (White's points 6 and 5): a backgammon, equity 3
    p = Position.from_points("short", white={2: 1, 1: 1}, black={24: 1, 6: 10, 5: 4})
    assert str(best_move(p, (2, 1))) == "2/off 1/off"
    assert rank(p, (2, 1))[0][1] == 3.0


def test_bad_input_raises_nardy_errors(tmp_path) -> None:
    p = Position.start("short")
    with pytest.raises(InvalidArgumentError):
        rank(p, (6, 5), ply=3)
    with pytest.raises(InvalidArgumentError):
        rank(p, (6, 5), ply=True)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        rank("24/18", (6, 5))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        evaluate(np.zeros((1, 26), np.int8))          # an array needs its variant
    with pytest.raises(InvalidPositionError):
        evaluate(np.zeros((1, 26), np.int8), "short")  # no checkers at all
    with pytest.raises(InvalidArgumentError):
        rank(p, (6, 5), net=default_net("long"))
    with pytest.raises(InvalidArgumentError):
        Net("short", np.zeros((198, 12)), np.zeros(12), np.zeros((5, 12)), np.zeros(5))   # not a multiple of 8
    with pytest.raises(InvalidArgumentError):
        Net("short", np.full((198, 8), np.nan), np.zeros(8), np.zeros((5, 8)), np.zeros(5))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a net")
    with pytest.raises(InvalidArgumentError, match="not a nardy net"):
        Net.load(bad)
    with pytest.raises(NardyError):
        train(Rules("short"), 0)


def test_net_files_round_trip(tmp_path) -> None:
    net = Net.initial("long", 16, seed=4)
    net = Net(net.variant, net.w1, net.b1, net.w2, net.b2, meta={"command": "x", "games": 3})
    net.save(tmp_path / "n.npz")
    back = Net.load(tmp_path / "n.npz")
    assert back.meta == net.meta and back.variant is net.variant
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(back, name), getattr(net, name))


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(1)
    x = (rng.random((7, 198)) < 0.2).astype(np.float64)
    y = rng.random((7, 5))
    params = [rng.normal(0, 0.3, (198, 8)), rng.normal(0, 0.3, 8), rng.normal(0, 0.3, (5, 8)), rng.normal(0, 0.3, 5)]
    _, grads = gradients(params, x, y)
    for k, index in [(0, (3, 2)), (1, (5,)), (2, (4, 7)), (3, (0,))]:
        bumped = [p.copy() for p in params]
        bumped[k][index] += 1e-6
        lower = [p.copy() for p in params]
        lower[k][index] -= 1e-6
        numeric = (gradients(bumped, x, y)[0] - gradients(lower, x, y)[0]) / 2e-6
        assert grads[k][index] == pytest.approx(numeric, rel=1e-4, abs=1e-8)


def test_lambda_returns() -> None:
    won = np.array([1.0, 0, 0, 0, 0])
    v = np.array([[0.5, 0, 0, 0, 0], [0.4, 0, 0, 0, 0], [0, 0, 0, 0, 0]])   # the side on roll at the end lost
    # lambda 0: each target is the next value seen from this side; lambda 1: the result
    assert lambda_returns(v, 0.0)[:, 0].tolist() == pytest.approx([0.6, 1.0])
    assert lambda_returns(v, 1.0)[:, 0].tolist() == pytest.approx([0.0, 1.0])
    assert lambda_returns(np.array([won, won]), 0.5)[0, 0] == 0


@pytest.mark.slow
def test_training_is_reproducible_and_learns() -> None:
    a = train(Rules("short"), 200, hidden=16, seed=3, parallel=32, batch_size=512)
    b = train(Rules("short"), 200, hidden=16, seed=3, parallel=32, batch_size=512)
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(a, name), getattr(b, name))
    assert not np.array_equal(a.w1, Net.initial("short", 16, seed=3).w1)


@pytest.mark.slow
def test_a_falling_step_size_is_reproducible_and_checked() -> None:
    args = dict(hidden=16, seed=3, parallel=32, batch_size=512)
    a = train(Rules("short"), 200, lr_end=1e-5, **args)
    b = train(Rules("short"), 200, lr_end=1e-5, **args)
    constant = train(Rules("short"), 200, **args)
    assert np.array_equal(a.w1, b.w1) and not np.array_equal(a.w1, constant.w1)
    with pytest.raises(InvalidArgumentError, match="lr_end"):
        train(Rules("short"), 200, lr_end=0.0, **args)


def test_the_shipped_short_net_beats_random_play() -> None:
    result = duel(Rules("short"), net_chooser(default_net("short"), Rules("short")), random_chooser, 200, seed=9)
    assert result["ppg"] > 0.5


def test_outputs_name_the_five_probabilities() -> None:
    assert OUTPUTS == ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def test_rollouts_are_reproducible_whatever_the_threads() -> None:
    from nardy.evaluation.rollout import rollout

    p = Position.start("short")
    one = rollout(p, 90, seed=4, chunk_size=30, threads=1)
    three = rollout(p, 90, seed=4, chunk_size=30, threads=3)
    assert one == three and one.games == 90
    assert 0 <= one.probs[0] <= 1 and one.equity_se > 0
    assert rollout(p, 36, seed=4, luck=True).luck_adjusted
    with pytest.raises(InvalidArgumentError):
        rollout(p, 0)
    with pytest.raises(InvalidArgumentError):
        rollout(p, 10, ply=1)


def test_a_bear_off_rollout_agrees_with_the_exact_odds() -> None:
    from nardy.evaluation.rollout import rollout

    p = Position.from_points("short", white={6: 2, 5: 2, 4: 2}, black={6: 2, 5: 2, 3: 2}, own_numbers=True)
    exact = evaluate(p)[0]
    got = rollout(p, 2000, seed=1)
    assert abs(got.probs[0] - exact[0]) < 4 * got.probs_se[0] + 1e-9


def test_net_policies() -> None:
    import nardy
    from nardy.evaluation.net import NetPolicy, net_move

    s = nardy.simulate("short", 40, seed=2, policy="net", threads=1)
    assert s.policy == "net" and s.games == 40
    env = VectorEnv("long", 8, seed=1)
    env.reset()
    actions = env.best_actions(NetPolicy("long")(env.afterstates))
    assert actions.shape == (8,)
    game = nardy.Game("short", seed=3)
    game.roll_off()
    if game.dice is None:
        game.roll()
    move = net_move(game)
    assert move in game.legal_moves()
    game.play(move)
    with pytest.raises(InvalidArgumentError):
        net_move(game)          # not rolled yet


def test_cli_hint_eval_rollout(capsys) -> None:
    from nardy.cli import main

    assert main(["hint", "short", "3", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("white to play 3-1") and lines[1].lstrip().startswith("1. ")
    assert main(["hint", "long", "6-5", "--ply", "1"]) == 0
    assert "24/13" in capsys.readouterr().out
    assert main(["eval", "short", "4HPwATDgc/ABMA"]) == 0
    assert "cubeless equity" in capsys.readouterr().out
    assert main(["rollout", "short", "--games", "36"]) == 0
    assert "36 games" in capsys.readouterr().out
    assert main(["hint", "short", "7", "1"]) == 2
    assert "error" in capsys.readouterr().err


def test_cli_rollout_labels_luck_adjusted_figures_as_estimates(capsys) -> None:
    from nardy.cli import main
    from nardy.evaluation.rollout import rollout

    assert main(["rollout", "short", "--games", "36"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("win ")
    # a seed whose luck-adjusted estimates leave 0..1 (the first of a few)
    seed, probs = next((s, r.probs) for s in range(1, 200)
                       if min((r := rollout(Position.start("short"), 36, luck=True, seed=s)).probs) < 0)
    assert main(["rollout", "short", "--games", "36", "--luck", "--seed", str(seed)]) == 0
    second = capsys.readouterr().out.splitlines()[1]
    assert second.startswith("luck-adjusted estimates (not probabilities: they can leave 0..1): win ")
    negative = min(probs)
    assert f"{negative:.3f}" in second and negative < 0  # shown as it is, never clipped


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_person_plays_a_whole_game_against_the_net(variant: str) -> None:
    import io

    from nardy import Game
    from nardy.cli import play_game

    game = Game(variant, seed=11, cube=False)
    game.roll_off()
    asked = []

    def person(prompt: str) -> str:   # asks for a hint once, types a bad move once, then plays the first play
        asked.append(prompt)
        if len(asked) == 1:
            return "hint"
        if len(asked) == 2:
            return "1/7"
        return str(game.legal_moves()[0])

    out = io.StringIO()
    play_game(game, Color.WHITE, person, out)
    text = out.getvalue()
    assert game.result is not None and "won:" in text
    assert "  1. " in text                 # the hint
    assert "plays" in text                 # the net's moves


def test_play_quits_and_ends_at_end_of_input() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "nardy.cli", "play", "short", "--seed", "1"], input="quit\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "abandoned" in done.stdout
    done = subprocess.run([sys.executable, "-m", "nardy.cli", "play", "long", "--seed", "1"], input="",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "abandoned" in done.stdout and "Traceback" not in done.stderr


def test_analysis_finds_no_loss_in_the_nets_own_moves(tmp_path, capsys) -> None:
    import random

    from nardy import Match
    from nardy.formats import matfile
    from nardy.evaluation.analysis import MoveAnalysis, analyse
    from nardy.cli import main
    from nardy.evaluation.net import net_move

    match = Match(Rules("short"), 1)
    rng = random.Random(2)
    game = match.new_game()
    game.roll_off()
    while game.result is None:
        if game.dice is None:
            game.roll()
        game.play(net_move(game) if game.turn is Color.WHITE else rng.choice(game.legal_moves()))
    match.finish_game()
    result = analyse(match.games, ply=0)
    white, black = result.summary(Color.WHITE), result.summary(Color.BLACK)
    assert white.total_loss == 0 and white.moves > 0
    assert black.total_loss > 0 and black.error_rate > 0
    assert all(m.loss >= 0 for m in result.moves)
    path = tmp_path / "m.mat"
    matfile.dump(match, path)
    assert main(["analyse", str(path), "--ply", "0"]) == 0
    text = capsys.readouterr().out
    assert "error rate per move" in text and "0.0 mEMG" in text and "0-ply analysis" in text
    from nardy.formats import sgf

    sgf.dump(match, tmp_path / "m.sgf")
    assert main(["analyse", str(tmp_path / "m.sgf"), "--ply", "0"]) == 0
    assert capsys.readouterr().out == text
    move = result.moves[0]
    marked = [MoveAnalysis(1, 1, Color.WHITE, (3, 1), move.played, move.best, -loss, 0.0, 2).mark
              for loss in (0.03, 0.04, 0.1, 0.2)]
    assert marked == [None, "doubtful", "bad", "very bad"]
    with pytest.raises(InvalidArgumentError):
        analyse(["not a game"])  # type: ignore[list-item]


@pytest.mark.parametrize("probs, message", [
    ([1, 2], r"shape \(\.\.\., 5\)"), ("x", r"shape \(\.\.\., 5\)"), (None, r"shape \(\.\.\., 5\)"),
    ([[1, 2], [3]], "rectangular"), ([np.nan] * 5, r"each is a number in 0\.\.1"),
    ([[0.5, 0, 0, 0, 0], [0.5, np.inf, 0, 0, 0]], r"probs\[1\] \[0.5, inf"),
    ([2, 0, 0, 0, 0], r"\[2\.0, 0\.0, 0\.0, 0\.0, 0\.0\] are not probabilities"), ([0.5, -0.1, 0, 0, 0], "in 0..1"),
    # inconsistent: they were given an equity (gammons above the wins they count)
    ([0.1, 0.9, 0.9, 0, 0], "inconsistent"), ([[0.5, 0, 0, 0, 0], [0.5, 0.2, 0.3, 0, 0]], r"probs\[1\].*inconsistent"),
    ([0.8, 0, 0, 0.5, 0], "inconsistent"), ([0.5, 0, 0, 0.1, 0.2], "inconsistent"),
])
def test_equity_checks_the_probabilities(probs, message):
    with pytest.raises(InvalidArgumentError, match=message):
        equity(probs)


def test_equity_of_good_probabilities():
    assert equity([1, 1, 1, 0, 0]) == 3.0 and equity([0, 0, 0, 1, 1]) == -3.0
    assert equity(np.zeros((0, 5))).shape == (0,)
    p = evaluate([Position.start("short"), Position.start("short").pass_turn()])
    assert equity(p) == pytest.approx(2 * p[:, 0] - 1 + p[:, 1] + p[:, 2] - p[:, 3] - p[:, 4])
    moves = rank(Position.start("long"), (6, 5))
    assert equity(np.array([probs for _, _, probs in moves])) == pytest.approx([e for _, e, _ in moves])


def test_generate_takes_a_workspace_as_out():
    views, rolls = np.array([Position.start("short").view()], np.int8), np.array([[3, 1]], np.int8)
    for backend in (None, "python"):
        with pytest.raises(InvalidArgumentError, match="out must be a nardy.batch.Workspace or None, got int"):
            batch.generate(views, rolls, "short", out=5, backend=backend)  # type: ignore[arg-type]
    assert np.array_equal(batch.generate(views, rolls, "short", out=batch.Workspace())[0],
                          batch.generate(views, rolls, "short")[0])


def test_a_net_of_the_wrong_kind_or_variant_and_a_wrong_variant_are_refused():
    """evaluate(long, 'short') judged a long position as short; net='x' was an AttributeError."""
    from nardy.evaluation.net import NetPolicy, default_net, rank
    from nardy.evaluation.rollout import rollout

    long_start = Position.start("long")
    with pytest.raises(InvalidPositionError, match="long nardy positions given with variant='short'"):
        evaluate([long_start], "short")
    with pytest.raises(InvalidPositionError, match=r"long nardy positions given with Rules\("):
        evaluate([long_start], rules=Rules("short"))  # an InvalidArgumentError before, beside the line above
    for call in (lambda: evaluate(long_start, net="abc"), lambda: rollout(long_start, 10, net="x"),
                 lambda: NetPolicy("long", "x"), lambda: rank(long_start, (3, 1), net=5)):
        with pytest.raises(InvalidArgumentError, match="net must be a nardy.evaluation.net.Net"):
            call()
    with pytest.raises(InvalidArgumentError, match="a short nardy net cannot judge long nardy positions"):
        evaluate(long_start, net=default_net("short"))
    with pytest.raises(InvalidArgumentError, match="luck is True or False"):
        rollout(long_start, 10, luck="no")
    with pytest.raises(InvalidArgumentError, match="ply must be 0, 1 or 2"):
        rank(long_start, (3, 1), ply=1.0)
    with pytest.raises(InvalidArgumentError, match="0-ply"):
        rollout(long_start, 10, ply=0.0)


def test_a_bad_net_file_or_net_arguments_are_nardy_errors(tmp_path):
    """Net.load of an empty or truncated file was an EOFError or BadZipFile; Net.initial(-8) numpy's error."""
    good = tmp_path / "good.npz"
    default_net("long").save(good)
    cases = {"empty.npz": b"", "zip.npz": b"PK\x03\x04garbage", "half.npz": good.read_bytes()[:len(good.read_bytes()) // 2]}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(InvalidArgumentError, match="not a nardy net file"):
            Net.load(tmp_path / name)
    for path in (None, 5):
        with pytest.raises(InvalidArgumentError, match="read from a path"):
            Net.load(path)  # type: ignore[arg-type]
    for hidden in (-8, 8.0, 2**40, True):
        with pytest.raises(InvalidArgumentError, match="hidden units"):
            Net.initial("long", hidden)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="seed must be"):
        Net.initial("long", 8, seed=-1)
    net = Net.initial("long", 8)
    for w1 in (net.w1.astype(str), net.w1 + 1j):
        with pytest.raises(InvalidArgumentError, match="net w1 must be an array of real numbers"):
            Net("long", w1, net.b1, net.w2, net.b2)


def test_a_failed_net_save_leaves_the_old_file_as_it_was(tmp_path, monkeypatch):
    """Net.save opened its target itself: a failure half-way left a truncated net."""
    import errno
    import os

    path = tmp_path / "net.npz"
    Net.initial("long", 8, seed=1).save(path)
    before = path.read_bytes()

    def half_then_disk_full(f, **arrays):
        f.write(before[:100])  # part of an archive...
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(np, "savez", half_then_disk_full)
    with pytest.raises(OSError, match="No space left on device"):
        Net.initial("long", 16).save(path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["net.npz"]
    monkeypatch.undo()
    Net.initial("long", 16).save(path)
    assert Net.load(path).hidden == 16 and os.listdir(tmp_path) == ["net.npz"]


def test_a_net_saved_to_a_directory_is_the_error_the_match_dumps_give(tmp_path):
    """It was a raw IsADirectoryError."""
    from nardy import Match
    from nardy.formats import matfile
    from nardy.formats import sgf

    target = tmp_path / "nets"
    target.mkdir()
    errors = []
    match = Match("short", 1)
    match.new_game().roll_off()
    for save in (Net.initial("long", 8).save, lambda p: matfile.dump(match, p), lambda p: sgf.dump(match, p)):
        with pytest.raises(NardyError, match="it is a directory") as caught:
            save(target)
        errors.append(caught.type)
    assert errors == [InvalidArgumentError] * 3 and list(target.iterdir()) == []


def test_analyse_of_what_is_not_a_sequence_of_games_is_an_error():
    from nardy.evaluation.analysis import analyse

    for games in (None, "game", 5):
        with pytest.raises(InvalidArgumentError, match="a sequence of nardy.Game"):
            analyse(games)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", VARIANTS)
def test_evaluate_takes_the_rules_name_as_rank_does(variant: str) -> None:
    p = Position.start(variant)
    assert np.array_equal(evaluate(p, rules=variant), evaluate(p, rules=Rules(variant)))
    assert np.array_equal(evaluate(np.array([p.view()]), rules=variant), evaluate(p))
    with pytest.raises(InvalidArgumentError, match="rules"):
        evaluate(p, rules=3)
    with pytest.raises(InvalidPositionError):
        evaluate(p, rules="long" if variant == "short" else "short")


def crowded_roll(variant: str = "short", plies: int = 1) -> tuple[Position, tuple[int, int], list]:
    """A position and roll of self-play with more than 8 plays within 0.16 of the 0-ply best."""
    from nardy.evaluation.net import PRUNE_WINDOW

    views = batch.flip(played_boards(variant, steps=30), variant)
    for view in views:
        p = Position(view.tolist(), variant)
        for dice in ((2, 2), (1, 1), (3, 3), (4, 2)):
            zero = rank(p, dice)
            near = [m for m, e, _ in zero if e >= zero[0][1] - PRUNE_WINDOW]
            if len(near) > 8 and len(zero) > len(near):
                return p, dice, zero
    raise AssertionError("no crowded roll in the sample")


def test_the_move_filter_keeps_every_play_near_the_best() -> None:
    # the lookahead judges every play within PRUNE_WINDOW of the 0-ply best, up to PRUNE_KEEP
    # (16 within 0.24; 8 within 0.16 dropped the rolled-out best play of 2.0% of short nardy's
    # benchmark decisions, 3.6% of long nardy's), and no play beyond the window
    from nardy.evaluation.net import PRUNE_KEEP, PRUNE_WINDOW, lookahead, raw_equity

    assert PRUNE_KEEP >= 16 and PRUNE_WINDOW >= 0.24
    p, dice, zero = crowded_roll()
    one = rank(p, dice, ply=1)
    near = [k for k, (_, e, _) in enumerate(zero) if e >= zero[0][1] - PRUNE_WINDOW][:PRUNE_KEEP]
    deep = raw_equity(lookahead(zero.afterstates[near], Rules("short"), default_net("short"), 1))
    looked = dict(zip(zero.indices[near].tolist(), deep))
    assert len(looked) > 8
    for (_, e, _), index in zip(one, one.indices):
        if index in looked:
            assert e == pytest.approx(looked[index], abs=1e-12)
    zero_of = {int(i): e for (_, e, _), i in zip(zero, zero.indices)}
    rest = [(e, int(i)) for (_, e, _), i in zip(one, one.indices) if int(i) not in looked]
    assert rest and all(e == zero_of[i] for e, i in rest)   # beyond the filter: the 0-ply figure


def test_rank_includes_a_given_play_in_the_lookahead() -> None:
    from nardy import IllegalMoveError

    p, dice, zero = crowded_roll()
    worst = zero[-1][0]
    plain = rank(p, dice, ply=1)
    assert next(e for m, e, _ in plain if m == worst) == zero[-1][1]   # pruned: its 0-ply figure
    included = rank(p, dice, ply=1, include=worst)
    got = next(e for m, e, _ in included if m == worst)
    assert got != zero[-1][1] and got <= included[0][1]
    assert [m for m, _, _ in included[:3]] == [m for m, _, _ in plain[:3]]
    assert [e for _, e, _ in rank(p, dice, include=worst)] == [e for _, e, _ in zero]   # ply 0: no lookahead
    for ply in (0, 1):   # checked at every ply (ply 0 once took anything)
        with pytest.raises(IllegalMoveError):
            rank(p, dice, ply=ply, include=Position.start("short").legal_moves((6, 5))[0])
        with pytest.raises(InvalidArgumentError, match="include must be a Move, got 'garbage'"):
            rank(p, dice, ply=ply, include="garbage")


def test_analyse_judges_at_two_ply_by_default_and_the_played_move_at_the_same_ply(tmp_path, capsys) -> None:
    from nardy import Match
    from nardy.cli import main
    from nardy.evaluation.analysis import DEFAULT_PLY, analyse
    from nardy.formats import matfile

    assert DEFAULT_PLY == 2
    match = Match(Rules("short"), 1)
    game = match.new_game()
    game.roll_off()
    for _ in range(6):   # a few moves, the worst 0-ply play each time (outside the filter)
        if game.dice is None:
            game.roll()
        game.play(rank(game.position, game.dice)[-1][0])
    result = analyse(match.games, ply=1)
    assert result.ply == 1 and all(m.loss >= 0 for m in result.moves)
    first = result.moves[0]   # the played move's equity is its 1-ply figure, not its 0-ply one
    start = Position.start("short", match.games[0].starter)
    deep = rank(start, first.dice, ply=1, include=first.played)
    assert first.equity_played == next(e for mv, e, _ in deep if mv == first.played)
    assert first.equity_played != next(e for mv, e, _ in rank(start, first.dice) if mv == first.played)
    path = tmp_path / "m.mat"
    matfile.dump(match, path)
    assert main(["analyse", str(path), "--all", "--lenient"]) == 0   # (the game has no result yet)
    assert "\n2-ply analysis" in capsys.readouterr().out


def test_rank_says_a_ply_given_in_place_of_the_rules_goes_by_keyword():
    with pytest.raises(InvalidArgumentError, match="third argument is the rules, got 1: give a lookahead as ply=1"):
        rank(Position.start("short"), (3, 1), 1)  # type: ignore[arg-type]


def test_rank_judges_the_last_roll_by_its_outcome() -> None:
    """Long nardy's last_roll_draw: the other side has borne off all 15; the play that bears off
    the last checker draws (equity 0), the other loses, at every ply; without last_roll the
    position is a finished game."""
    from nardy import GameOverError

    rules = Rules("long", last_roll_draw=True)
    p = Position.from_points("long", white={}, black={2: 1, 1: 1}, turn="black", own_numbers=True)
    for ply in (0, 1, 2):
        ranked = rank(p, (2, 1), rules, ply=ply, last_roll=True)
        assert [(str(m), e) for m, e, _ in ranked] == [("2/off 1/off", 0.0), ("2/off", -1.0)]
        assert ranked[0][2].tolist() == [0.5, 0, 0, 0, 0] and ranked[1][2].tolist() == [0, 0, 0, 0, 0]
    assert str(best_move(p, (2, 1), rules=rules, last_roll=True)) == "2/off 1/off"
    with pytest.raises(GameOverError):
        rank(p, (2, 1), rules)
    with pytest.raises(InvalidArgumentError, match="last_roll"):
        rank(p, (2, 1), rules, last_roll="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize("human", [Color.WHITE, Color.BLACK])
def test_the_net_plays_its_last_roll(human: Color) -> None:
    """`nardy play long --last-roll-draw true` once stopped with "the game is over" where the net
    had its last roll: net_move passes the game's last_roll. Seed 12 ends in a draw, after a last roll
    (the human's or, the other way round, the net's)."""
    import io

    from nardy import Game
    from nardy.cli import play_game
    from nardy.evaluation.net import net_move

    game = Game(Rules("long", last_roll_draw=True), seed=12)
    game.roll_off()
    last_rolls = []

    def person(prompt: str) -> str:
        last_rolls.append(game.last_roll)
        return str(net_move(game))

    out = io.StringIO()
    play_game(game, human, person, out)
    assert game.over and game.result.kind == "draw", out.getvalue()[-300:]
    assert game.last_roll and not game.result.points
    assert (True in last_rolls) == (human is not game.starter)  # the human's last roll, or the net's


def test_net_move_says_what_to_call_first() -> None:
    from nardy import Game
    from nardy.evaluation.net import net_move

    game = Game("short", seed=1)
    with pytest.raises(InvalidArgumentError, match=r"the game has not started: call roll_off\(\)"):
        net_move(game)
