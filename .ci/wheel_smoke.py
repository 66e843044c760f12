"""Smoke test of an installed nardy (CI runs it against the repaired wheel in a fresh venv).

Run from outside the checkout, so that only the installed package can be imported.
"""

import os
import subprocess
import sys
from pathlib import Path

import nardy
from nardy import Position, Rules

site = Path(nardy.__file__).resolve().parent
assert "site-packages" in site.parts, f"nardy imported from {site}, not from the installed wheel"
assert nardy.BACKEND == "cython", nardy.BACKEND
assert list(site.glob("_core*.so")), "the wheel has no compiled core"
shipped = sorted(p.name for p in (site / "evaluation" / "nets").glob("*.npz"))
assert shipped == ["long-late.npz", "long-race.npz", "long.npz", "short-late.npz", "short-race.npz", "short.npz"], f"the shipped nets: {shipped}"
from nardy.evaluation.net import NetSet, default_judge  # noqa: E402
assert all(isinstance(default_judge(v), NetSet) and default_judge(v).late is not None for v in ("long", "short")), \
    "the judge is not the shipped three"

start = Position.start("short")
moves = start.legal_moves((6, 5))
assert len(moves) == 7 and str(moves[-1]) == "24/13", moves
assert start.id() == "4HPwATDgc/ABMA"
assert len(Position.start("long").legal_moves((6, 6), Rules("long"))) > 0
assert nardy.simulate("long", 200, seed=1).games == 200

cli = Path(sys.executable).with_name("nardy")
perft = subprocess.run([cli, "perft", "long", "2"], capture_output=True, text=True, check=True)
assert perft.stdout.splitlines()[-1] == "484", perft.stdout
batch = subprocess.run([cli, "moves", "short", "--batch", "-"], input="0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0 6 5\n",
                       capture_output=True, text=True, check=True)
assert len(batch.stdout.strip().split(";")) == 7, batch.stdout
bad = subprocess.run([cli, "moves", "short", "x", "6", "5"], capture_output=True, text=True)
assert bad.returncode == 2 and bad.stderr.startswith("nardy: error:") and "Traceback" not in bad.stderr, bad
print(f"wheel smoke test passed: nardy {nardy.__version__} from {site} ({os.path.basename(sys.executable)}"
      f" {sys.version.split()[0]})")
