"""The project's own documentation: docs/rules.md and docs/formats.md are what everything cites.

Nothing in the repository points outside it for the rules or the formats, every "docs/rules.md
section N" and "docs/formats.md section N" names a section that exists, and the options table
of docs/rules.md is the one `Rules` enforces.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nardy.cli import build_parser
from nardy.rules import OPTIONS, Variant

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SOURCES = ["README.md", "pyproject.toml", "setup.py", "MANIFEST.in", ".ci", "docs", "src", "cython", "tests", "benchmarks"]
TEXT = (".py", ".pyx", ".pxd", ".pyi", ".h", ".md", ".toml", ".in", ".perft", ".txt", ".rst", "run")
OUTSIDE = re.compile(r"\.\./shared|shared/RULES|shared/FORMATS|(?<![\w/])(RULES|FORMATS)\.md")


def source_files() -> list[Path]:
    files: list[Path] = []
    for name in SOURCES:
        path = ROOT / name
        candidates = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for p in candidates:
            if p.name.endswith(TEXT) and "egg-info" not in str(p) and "_build" not in p.parts:
                files.append(p)
    return files


def sections(path: Path) -> set[str]:
    return set(re.findall(r"^## (\d+)\.", path.read_text(encoding="utf-8"), re.M))


def test_nothing_points_outside_the_repository() -> None:
    files = source_files()
    assert len(files) > 50
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for p in files for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if OUTSIDE.search(line) and p.name != "test_docs.py"]
    assert found == []


def test_the_help_texts_point_at_the_docs() -> None:
    parser = build_parser()
    texts = [parser.format_help()]
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        texts += [sub.format_help() for sub in action.choices.values()]
        texts += [str(a.help) for a in action._choices_actions]
    assert not [t for t in texts if OUTSIDE.search(t)]
    assert any("docs/rules.md section 7" in t for t in texts)


@pytest.mark.parametrize("doc", ["rules", "formats"])
def test_section_references_exist(doc: str) -> None:
    known = sections(DOCS / f"{doc}.md")
    assert known
    cited = re.compile(rf"docs/{doc}\.md,?\s+sections?\s+(\d+)((?:(?:,\s*|\s+(?:and|to)\s+)\d+)*)")
    missing = []
    for p in source_files():
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            for m in cited.finditer(line):
                numbers = [m[1], *re.findall(r"\d+", m[2])]
                missing += [f"{p.relative_to(ROOT)}:{n}: section {s}" for s in numbers if s not in known]
    assert missing == []


def test_the_options_table_is_the_one_rules_enforces() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    table = text.split("## 9. Rule options", 1)[1].split("\n## ", 1)[0]
    rows = {m[1]: (m[2], m[3]) for m in re.finditer(r"^\| `(\w+)` \| (\w+) \| (.+?) \|", table, re.M)}
    assert set(rows) == set(OPTIONS)
    for name, (variants, _choices, defaults) in OPTIONS.items():
        where, values = rows[name]
        assert where == ("both" if len(variants) == 2 else variants[0].value), name
        for choice in _choices:
            assert (f"`{choice!r}`" if isinstance(choice, bool) else f'`"{choice}"`') in values, (name, choice)
        first = values.split(",")[0]
        if len(variants) == 1:
            default = defaults[variants[0]]
            assert first == (f"`{default!r}`" if isinstance(default, bool) else f'`"{default}"`'), name
        else:
            for v in (Variant.LONG, Variant.SHORT):
                assert f'{v.value} `"{defaults[v]}"`' in values, (name, v)


def readme_command_summaries() -> dict[str, str]:
    """Each `nardy COMMAND ...` code span of the bullets that start with one, by command, in the
    README and the guides (docs/cli.md summarises every command)."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))])
    bullets = re.findall(r"^- `nardy .*?(?=^- |^$)", text, re.M | re.S)
    spans: dict[str, str] = {}
    for bullet in bullets:
        for command, rest in re.findall(r"`nardy\s+([\w-]+)([^`]*)`", bullet):
            spans[command] = spans.get(command, "") + rest
    return spans


def test_the_readme_summary_of_each_command_names_its_options() -> None:
    parser = build_parser()
    skip = {"--help"} | {"--" + name.replace("_", "-") for name in OPTIONS}  # the rule options: --RULE-OPTION
    summaries = readme_command_summaries()
    missing = []
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        for command, sub in action.choices.items():
            options = [a.option_strings for a in sub._actions if a.option_strings and not skip & set(a.option_strings)]
            missing += [f"{command} {names[-1]}" for names in options if command in summaries
                        and not any(re.search(re.escape(n) + r"(?![\w-])", summaries[command]) for n in names)]
    assert missing == []


def test_docs_cli_summarises_every_command() -> None:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    parser = build_parser()
    commands = [c for a in parser._subparsers._group_actions for c in a.choices]  # type: ignore[union-attr]
    assert [c for c in commands if f"`nardy {c} " not in text] == []
