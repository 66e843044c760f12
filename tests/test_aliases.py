"""The old module names (nardy.eval, nardy.race, nardy.engine, ...) work for one release: the same
module as the new name, after a DeprecationWarning naming the new place; `python -m nardy.training`
still runs the training."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import nardy
from nardy._aliases import MOVED, SPLIT

FRESH = "import sys, warnings, nardy\nwarnings.simplefilter('error')\n"


@pytest.fixture(autouse=True)
def forget_the_old_names():
    """Each test's imports of old names are undone, so that `dir(nardy)` stays as other tests see it."""
    names, modules = set(vars(nardy)), set(sys.modules)
    yield
    for name in set(vars(nardy)) - names:
        delattr(nardy, name)
    for name in set(sys.modules) - modules:
        if name in MOVED or name in SPLIT:
            del sys.modules[name]


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", FRESH + code], capture_output=True, text=True)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_name_is_the_module_at_its_new_place(old: str) -> None:
    if old == "nardy.gym_env":
        pytest.importorskip("gymnasium")
    with pytest.warns(DeprecationWarning, match=MOVED[old].replace(".", r"\.")):
        module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])


def test_each_form_of_import_warns_and_gives_the_new_module() -> None:
    code = (
        "try:\n    import nardy.eval\nexcept DeprecationWarning as e:\n    assert 'nardy.evaluation.net' in str(e)\n"
        "else:\n    raise AssertionError('no warning')\n"
        "warnings.simplefilter('ignore')\n"
        "import nardy.eval, nardy.evaluation.net\nassert nardy.eval is nardy.evaluation.net\n"
        "from nardy.race import race_odds\nfrom nardy.evaluation.bearoff import race_odds as new\nassert race_odds is new\n"
        "from nardy import engine\nassert engine is sys.modules['nardy._backend']\n"
    )
    assert run(code).returncode == 0, run(code).stderr


def test_attribute_access_loads_the_old_name_lazily() -> None:
    code = (
        "assert 'nardy.evaluation.net' not in sys.modules\n"
        "try:\n    nardy.eval.rank\nexcept DeprecationWarning:\n    pass\nelse:\n    raise AssertionError('no warning')\n"
        "warnings.simplefilter('ignore')\nimport nardy.evaluation.net as net\nassert nardy.eval.rank is net.rank\n"
        "assert nardy.svg.board is sys.modules['nardy.formats.svg'].board\n"
    )
    out = run(code)
    assert out.returncode == 0, out.stderr


def test_a_split_module_finds_each_name_where_it_went() -> None:
    from nardy import position
    from nardy.formats import ids, notation

    with pytest.warns(DeprecationWarning, match="nardy.formats.ids"):
        old = importlib.import_module("nardy.notation")
    assert old.read_position is position.read_position and old.xgid is ids.xgid and old.resolve is notation.resolve
    assert set(old.__all__) == set(SPLIT["nardy.notation"])
    with pytest.raises(AttributeError, match="no_such_name"):
        old.no_such_name  # noqa: B018
    with pytest.warns(DeprecationWarning, match="nardy.play.env"):
        env = importlib.import_module("nardy.env")
    assert env.VectorEnv is importlib.import_module("nardy.play.env").VectorEnv


def test_simulate_stays_the_function_and_its_module_imports() -> None:
    from nardy.simulate import Simulation

    from nardy.play.simulate import Simulation as new

    assert Simulation is new and callable(nardy.simulate) and not isinstance(nardy.simulate, type(nardy))


def test_the_old_training_command_runs() -> None:
    out = subprocess.run([sys.executable, "-m", "nardy.training", "--help"], capture_output=True, text=True)
    usage = "usage: python -m nardy.evaluation.training"
    assert out.returncode == 0 and out.stdout.startswith(usage), out.stderr
    assert "nardy.evaluation.training" in out.stderr  # the deprecation, on stderr


def test_no_old_name_in_dir() -> None:
    old = sorted({name.rpartition(".")[2] for name in [*MOVED, *SPLIT]} - {"simulate"})
    assert run(f"assert not set({old!r}) & set(dir(nardy)), dir(nardy)").returncode == 0
