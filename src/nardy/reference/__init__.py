"""The pure-Python reference rules engine: the executable specification of docs/rules.md.

It works on mover's-view arrays (tuples of 26 ints, docs/rules.md section 1) and never imports
the compiled core, so the tests can prove the core against it. Clarity over speed.
"""

from .board import flip, illegal_block, pips, result, status
from .movegen import ROLLS, explain_illegal, legal_results
from .perft import perft

__all__ = [
    "ROLLS",
    "explain_illegal",
    "flip",
    "illegal_block",
    "legal_results",
    "perft",
    "pips",
    "result",
    "status",
]
