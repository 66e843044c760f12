"""Judging positions: the neural evaluator (`net`), rollouts (`rollout`), game analysis
(`analysis`), training (`training`), the bear-off table (`bearoff`), cube decisions (`cube`), play and
rollouts with the cube (`cubeful`) and match equity tables (`met`)."""

from .._lazy import on_first_use as _on_first_use

_MODULES = ("analysis", "bearoff", "cube", "cubeful", "met", "net", "rollout", "training")
__getattr__, __dir__ = _on_first_use(__name__, _MODULES)  # the sub-modules load on first use
__all__: list[str] = []
