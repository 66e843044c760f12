"""Reading and writing the game's texts and pictures: Position, Match and XG IDs (`ids`), move text
(`notation`), the ASCII board (`diagram`), match files (`matfile`, `sgf`) and SVG boards (`svg`)."""

from .._lazy import on_first_use as _on_first_use

_MODULES = ("diagram", "ids", "matfile", "notation", "sgf", "svg")
__getattr__, __dir__ = _on_first_use(__name__, _MODULES)  # the sub-modules load on first use
__all__: list[str] = []
