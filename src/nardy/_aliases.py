"""The old module names, kept for one release: `nardy.eval` is `nardy.evaluation.net`, and so on.

A finder on `sys.meta_path` answers an import of an old name with the module at its new place
(the same module object), after a `DeprecationWarning` naming that place; `nardy.__getattr__` does
the same for attribute access (`nardy.eval.rank`).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import CodeType, ModuleType

MOVED = {
    "nardy.analysis": "nardy.evaluation.analysis",
    "nardy.cube": "nardy.evaluation.cube",
    "nardy.diagram": "nardy.formats.diagram",
    "nardy.distributed": "nardy.play.distributed",
    "nardy.engine": "nardy._backend",
    "nardy.eval": "nardy.evaluation.net",
    "nardy.gym_env": "nardy.play.gym",
    "nardy.matfile": "nardy.formats.matfile",
    "nardy.met": "nardy.evaluation.met",
    "nardy.race": "nardy.evaluation.bearoff",
    "nardy.rollout": "nardy.evaluation.rollout",
    "nardy.sgf": "nardy.formats.sgf",
    "nardy.svg": "nardy.formats.svg",
    "nardy.threads": "nardy.play.threads",
    "nardy.training": "nardy.evaluation.training",
}
"""Old name -> new name. `nardy.simulate` names the function, and the module `nardy.play.simulate`
is registered under the old module name without a warning (loading it there would rebind
`nardy.simulate` to the module)."""


_IDS, _POSITION, _NOTATION = "nardy.formats.ids", "nardy.position", "nardy.formats.notation"
SPLIT = {
    "nardy.notation": {
        "LONG_ID_PREFIX": _IDS, "MatchState": _IDS, "match_id": _IDS, "parse_match_id": _IDS, "position_id": _IDS,
        "xgid": _IDS, "parse_xgid": _POSITION, "position_from_id": _POSITION, "read_position": _POSITION,
        "parse_chains": _NOTATION, "resolve": _NOTATION,
    },
    "nardy.env": {
        **dict.fromkeys(["BOARD_FEATURES", "MAX_PLIES", "OBSERVATION_FEATURES", "VectorEnv", "encode", "not_copyable"],
                        "nardy.play.env"),
        "GymnasiumVectorEnv": "nardy.play.gym",  # imports Gymnasium: looked up on first use
    },
}
"""Old modules whose names went to several places: old name -> {name: its module now}."""


def moved(old: str) -> ModuleType:
    """The module `old` now names (for a module that was split, one that finds each of its names
    where it went), after a `DeprecationWarning` naming the new place."""
    new = MOVED.get(old) or ", ".join(sorted(set(SPLIT[old].values())))
    warnings.warn(f"{old} is deprecated and will be removed in the next release: use {new}", DeprecationWarning,
                  stacklevel=3)
    return importlib.import_module(new) if old in MOVED else _split(old)


def _split(old: str) -> ModuleType:
    places = SPLIT[old]
    module = sys.modules.get(old)
    if module is not None:
        return module
    module = ModuleType(old, f"Deprecated: the names of {old}, now in {', '.join(sorted(set(places.values())))}.")

    def find(name: str) -> object:
        if name not in places:
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        return getattr(importlib.import_module(places[name]), name)

    module.__getattr__ = find  # type: ignore[method-assign]
    exported = sorted(name for name, place in places.items() if place != "nardy.play.gym")  # Gymnasium: optional
    module.__all__ = exported  # type: ignore[attr-defined]
    return module


class _Loader(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return moved(spec.name)

    def exec_module(self, module: ModuleType) -> None:
        """The module is already loaded at its new place."""

    def get_code(self, name: str) -> CodeType:
        """What `python -m <old name>` runs (`python -m nardy.training`): the module at its new place."""
        new = MOVED[name]
        source = (f"import runpy, warnings\nwarnings.warn({f'{name} is deprecated: use python -m {new}'!r}, "
                  f"DeprecationWarning)\nrunpy.run_module({new!r}, run_name='__main__', alter_sys=True)\n")
        return compile(source, f"<{name}: {new}>", "exec")


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if name not in MOVED and name not in SPLIT:
            return None
        return importlib.machinery.ModuleSpec(name, _Loader())


def install() -> None:
    """Put the finder on `sys.meta_path` (once), and `nardy.play.simulate` in `sys.modules` as `nardy.simulate`."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
    sys.modules.setdefault("nardy.simulate", importlib.import_module("nardy.play.simulate"))


__all__ = ["MOVED", "SPLIT", "install", "moved"]
