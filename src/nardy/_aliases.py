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
    "nardy.env": "nardy.play.env",
    "nardy.eval": "nardy.evaluation.net",
    "nardy.gym_env": "nardy.play.gym",
    "nardy.matfile": "nardy.formats.matfile",
    "nardy.met": "nardy.evaluation.met",
    "nardy.notation": "nardy.formats.notation",
    "nardy.race": "nardy.evaluation.bearoff",
    "nardy.rollout": "nardy.evaluation.rollout",
    "nardy.sgf": "nardy.formats.sgf",
    "nardy.svg": "nardy.formats.svg",
    "nardy.threads": "nardy.play.threads",
    "nardy.training": "nardy.evaluation.training",
}
"""Old name -> new name. `nardy.simulate` names the function, and the module `nardy.play.simulate` is registered under the old
module name without a warning (loading it there would rebind `nardy.simulate` to the module)."""


def moved(old: str) -> ModuleType:
    """The module `old` now names, after a `DeprecationWarning` naming its new place."""
    new = MOVED[old]
    warnings.warn(f"{old} is deprecated and will be removed in the next release: use {new}", DeprecationWarning,
                  stacklevel=3)
    return importlib.import_module(new)


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
        if name not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(name, _Loader())


def install() -> None:
    """Put the finder on `sys.meta_path` (once), and `nardy.play.simulate` in `sys.modules` as `nardy.simulate`."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
    sys.modules.setdefault("nardy.simulate", importlib.import_module("nardy.play.simulate"))


__all__ = ["MOVED", "install", "moved"]
