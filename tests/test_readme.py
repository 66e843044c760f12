"""Every Python block of README.md and of the guides in docs/ runs: `>>>` blocks as doctests,
the others as scripts.

A block is taken from between its fences, so a closing fence never becomes a doctest's
expected output. A block preceded by a line ``<!-- not run: REASON -->`` (an example that needs
a cluster, say) is only compiled, so it is still valid Python, and the test says why it is not
run.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDES = sorted((ROOT / "docs").glob("*.md"))
NOT_RUN = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->")


def python_blocks(text: str) -> list[tuple[int, str, str | None]]:
    """(first line number, code, reason it is not run or None) of each ```python block."""
    blocks: list[tuple[int, str, str | None]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            start = i + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            if end == len(lines):
                raise AssertionError(f"line {i + 1}: a ```python block without its closing fence")
            previous = next((line for line in reversed(lines[:i]) if line.strip()), "")
            reason = NOT_RUN.search(previous)
            blocks.append((start + 1, "\n".join(lines[start:end]) + "\n", reason[1] if reason else None))
            i = end
        i += 1
    return blocks


BLOCKS = python_blocks(README.read_text(encoding="utf-8"))
GUIDE_BLOCKS = [(path, *block) for path in GUIDES for block in python_blocks(path.read_text(encoding="utf-8"))]


def test_readme_has_python_blocks() -> None:
    assert len(BLOCKS) >= 4
    assert sum(">>>" in code for _, code, _ in BLOCKS) >= 3


def test_a_closing_fence_is_not_expected_output() -> None:
    blocks = python_blocks("text\n\n```python\n>>> 1 + 1\n2\n```\n\n```sh\n>>> not python\n```\n")
    assert blocks == [(4, ">>> 1 + 1\n2\n", None)]
    test = doctest.DocTestParser().get_doctest(blocks[0][1], {}, "x", "x", 0)
    assert test.examples[0].want == "2\n"


@pytest.mark.parametrize("line, code, reason", BLOCKS, ids=[f"line{line}" for line, _, _ in BLOCKS])
def test_readme_block(line: int, code: str, reason: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_block(README, line, code, reason, tmp_path, monkeypatch)


def test_the_guides_have_python_blocks() -> None:
    assert len({path for path, *_ in GUIDE_BLOCKS}) >= 5


@pytest.mark.parametrize("path, line, code, reason", GUIDE_BLOCKS,
                         ids=[f"{path.stem}-line{line}" for path, line, _, _ in GUIDE_BLOCKS])
def test_guide_block(path: Path, line: int, code: str, reason: str | None, tmp_path: Path,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    run_block(path, line, code, reason, tmp_path, monkeypatch)


def run_block(path: Path, line: int, code: str, reason: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run one block: a doctest, or a script; a block marked not run is only compiled."""
    name = path.relative_to(ROOT)
    monkeypatch.chdir(tmp_path)  # blocks that write files write them here
    padded = "\n" * (line - 1) + code  # errors name the file's own line numbers
    if reason is not None:
        if ">>>" not in code:
            compile(padded, str(path), "exec")
        pytest.skip(f"{name} line {line} is not run: {reason}")
    if ">>>" not in code:
        exec(compile(padded, str(path), "exec"), {"__name__": "__main__"})
        return
    test = doctest.DocTestParser().get_doctest(code, {"__name__": "readme"}, f"{name}:{line}", str(path), line - 1)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_plain_python_dash_m_doctest_passes(tmp_path: Path) -> None:
    """`python -m doctest README.md` (no options, no fence handling) passes too: each ``>>>`` block
    ends in a blank line before its fence, and an elided traceback asks for ELLIPSIS itself."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "doctest", str(README)], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:]
