"""Make the benchmark corpora: seeded random self-play positions of each variant.

    python benchmarks/make_corpus.py            # writes benchmarks/data/{long,short}.txt

Each file holds 1000 contact and 1000 race (or bear-off) positions in the mover's view, one per
line, and a header with the number of distinct results over all 21 rolls of every position,
counted by the pure-Python reference (the benchmarks assert it, so a fast but wrong core fails).
Regenerate only on purpose and review the diff.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from nardy import Rules, reference
from nardy import _backend as engine

SEED = 20261129
PER_CLASS = 1000
DATA = Path(__file__).parent / "data"
START = {
    "long": (0,) * 12 + (-15,) + (0,) * 11 + (15, 0),
    "short": (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0),
}


def is_race(board: tuple[int, ...], variant: str) -> bool:
    """No checker of either side has one of the other side's checkers still on its path."""
    mine = [p for p in range(1, 26) if board[p] > 0]
    theirs = [p for p in range(0, 25) if board[p] < 0]
    if board[0] or board[25]:
        return False
    if variant == "short":  # the opponent moves up the mover's numbers
        return max(mine, default=0) < min(theirs, default=25)
    # long: the mover runs down to 1; the opponent runs down to 1, then 24 down to 13
    if any(o < m for m in mine for o in theirs):
        return False
    def on_their_path(m: int, o: int) -> bool:
        return m < o or m >= 13 if o <= 12 else 13 <= m < o

    return not any(on_their_path(m, o) for o in theirs for m in mine)


def collect(variant: str, rng: random.Random) -> list[tuple[int, ...]]:
    rules = Rules(variant)
    contact: list[tuple[int, ...]] = []
    race: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    while len(contact) < PER_CLASS or len(race) < PER_CLASS:
        board = START[variant]
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            child = engine.as_ints(rng.choice(engine.results(engine.as_bytes(board), dice, rules))[0])
            if 0 in reference.board.on_board(child):
                break
            board = reference.flip(child, rules.variant)
            if board in seen or rng.random() > 0.25:
                continue
            seen.add(board)
            bucket = race if is_race(board, variant) else contact
            if len(bucket) < PER_CLASS:
                bucket.append(board)
    return contact + race


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="*", default=["long", "short"])
    args = parser.parse_args()
    rng = random.Random(SEED)
    DATA.mkdir(exist_ok=True)
    for variant in args.variants:
        boards = collect(variant, rng)
        rules = Rules(variant)
        counts = []
        for half in (boards[:PER_CLASS], boards[PER_CLASS:]):
            counts.append(sum(len(reference.legal_results(b, dice, rules)) for b in half for dice in reference.ROLLS))
        lines = [
            f"# nardy benchmark corpus: {variant} nardy, random self-play, seed {SEED}",
            "# lines 1-1000 contact positions, 1001-2000 race or bear-off positions (mover's view)",
            f"# results contact {counts[0]} race {counts[1]}  (distinct results over all 21 rolls, by the reference)",
        ]
        lines += [",".join(map(str, b)) for b in boards]
        (DATA / f"{variant}.txt").write_text("\n".join(lines) + "\n")
        print(variant, counts)


if __name__ == "__main__":
    main()
