"""Reading match files per MB: the SGF reader against the .mat reader on the same bulk.

Each file is one game of GNU Backgammon's own money session (tests/data/archives) and 4 MB of
what the format carries besides the play. "sgf" and "mat": the same text in both, SGF as a
comment property (`C[...]`, with its escapes), `.mat` as `;` comment lines. "sgf-nodes" and
"mat-lines": the densest text of each, an empty node per character, a comment line per two.
"sgf-gnubg" is the whole SGF file as gnubg wrote it (its bulk is gnubg's analysis; 7 games to
replay in 0.4 MB). Each records its CPU time per MB (`ms_per_mb`); the end of the run prints
the figures and the SGF / .mat ratios.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from nardy import Rules
from nardy.formats import matfile
from nardy.formats import sgf

ARCHIVES = Path(__file__).parents[1] / "tests" / "data" / "archives"
FILLER = "gnubg 0.508081 0.134545 0.006763 [a] \\ 1-0 cube: no double, take\n"
MEGABYTES = 4
RESULTS: dict[str, float] = {}


def _texts() -> dict[str, str]:
    mat = (ARCHIVES / "gnubg-money-jacoby.mat").read_text()
    whole = (ARCHIVES / "gnubg-money-jacoby.sgf").read_text()
    first_sgf = whole[:whole.index("\n(;")] if "\n(;" in whole else whole
    first_mat = mat[:mat.index(" Game 2")]
    bulk = FILLER * (MEGABYTES * 1_000_000 // len(FILLER))
    escaped = bulk.replace("\\", "\\\\").replace("]", "\\]")
    size = MEGABYTES * 1_000_000
    return {
        "sgf": first_sgf.replace("RE[", "C[" + escaped + "]RE[", 1),
        "mat": "".join("; " + line + "\n" for line in bulk.splitlines()) + first_mat,
        "sgf-nodes": first_sgf.replace("\n;", "\n" + ";" * size + "\n;", 1),
        "mat-lines": ";\n" * (size // 2) + first_mat,
        "sgf-gnubg": whole,
    }


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return _texts()


def _read(kind: str, text: str) -> None:
    if kind.startswith("mat"):
        matfile.read(text, Rules("short", jacoby=True))
    else:
        sgf.read(text)


PAIRS = (("sgf", "mat"), ("sgf-nodes", "mat-lines"))


@pytest.mark.parametrize("kind", ["sgf", "mat", "sgf-nodes", "mat-lines", "sgf-gnubg"])
def test_read_per_mb(benchmark, texts, kind):
    text = texts[kind]
    benchmark.group = "match files per MB"
    cpu: list[float] = []

    def run() -> None:
        start = time.process_time()
        _read(kind, text)
        cpu.append(time.process_time() - start)

    benchmark.pedantic(run, rounds=3, iterations=1)
    per_mb = min(cpu) / (len(text) / 1e6)
    RESULTS[kind] = per_mb
    benchmark.extra_info.update(megabytes=round(len(text) / 1e6, 2), ms_per_mb=round(per_mb * 1e3, 2))
    for sgf_kind, mat_kind in PAIRS:
        if kind in (sgf_kind, mat_kind) and {sgf_kind, mat_kind} <= RESULTS.keys():
            benchmark.extra_info["sgf_over_mat"] = round(RESULTS[sgf_kind] / RESULTS[mat_kind], 2)


def teardown_module() -> None:
    figures = ", ".join(f"{kind} {RESULTS[kind] * 1e3:.1f} ms/MB" for kind in RESULTS)
    ratios = "".join(f"; {a} / {b} {RESULTS[a] / RESULTS[b]:.2f}" for a, b in PAIRS if {a, b} <= RESULTS.keys())
    print(f"\nmatch files, CPU per MB: {figures}{ratios}")
