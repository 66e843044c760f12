"""The SGF parser (sgf.parse) gives what the character-by-character parser it replaced gave:
the same trees, or the same error at the same offset (issue 27: it reads 10 times faster)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nardy.formats import sgf
from nardy.errors import InvalidArgumentError, InvalidNotationError
from nardy.formats.sgf import MAX_SIZE, Node


def reference_parse(text: str) -> list[list[Node]]:
    """The SGF parser as it was, one character at a time: the reference the fast one must equal."""
    if not isinstance(text, str):
        raise InvalidArgumentError(f"an SGF file is text, got {type(text).__name__}")
    if len(text) > MAX_SIZE:
        raise InvalidNotationError(f"the SGF text has {len(text)} characters; at most {MAX_SIZE} are read")
    trees: list[list[Node]] = []
    i, n = 0, len(text)

    def skip(i: int) -> int:
        while i < n and text[i].isspace():
            i += 1
        return i

    def error(i: int, what: str) -> InvalidNotationError:
        return InvalidNotationError(f"malformed SGF at offset {i}: {what}")

    def sequence(i: int, nodes: list[Node] | None) -> int:
        """Parse the nodes from text[i] == ';' on; append them to `nodes` (None: skip them)."""
        while i < n and text[i] == ";":
            node: Node = []
            i = skip(i + 1)
            while i < n and text[i].isalpha():
                start = i
                while i < n and text[i].isalpha():
                    i += 1
                name = text[start:i]
                if not name.isupper() or not name.isascii():
                    raise error(start, f"a property name is upper-case letters, got {name!r}")
                values: list[str] = []
                i = skip(i)
                while i < n and text[i] == "[":
                    j, chars = i + 1, []
                    while j < n and text[j] != "]":
                        if text[j] == "\\" and j + 1 < n:
                            j += 1
                            if text[j] != "\n":  # an escaped newline is a soft line break
                                chars.append(text[j])
                        else:
                            chars.append(text[j])
                        j += 1
                    if j >= n:
                        raise error(i, f"the value of {name} is not closed with ']'")
                    values.append("".join(chars))
                    i = skip(j + 1)
                if not values:
                    raise error(i, f"property {name} has no value")
                node.append((name, values))
            if nodes is not None:
                nodes.append(node)
            i = skip(i)
        return i

    def tree(i: int, nodes: list[Node]) -> int:
        """Parse the game tree at text[i] == '('; append its main line to `nodes`. Iterative, so
        variations nest as deep as the text goes: the first variation of a tree on the main line
        continues it, the others are skipped."""
        depth = main = 0  # the trees open, and how many of them (the outermost) are on the main line
        first = True  # the innermost open tree has had no variation yet
        while True:  # here text[i] == '(' opens a tree
            if main == depth and first:
                main += 1
            depth += 1
            i = skip(i + 1)
            if i >= n or text[i] != ";":
                raise error(i, "a game tree starts with a node (';')")
            i, first = sequence(i, nodes if main == depth else None), True
            while i >= n or text[i] != "(":  # close trees until a variation opens
                if i >= n or text[i] != ")":
                    raise error(i, "expected ')' to close the game tree" if i < n else "the text ends inside a game tree")
                depth, first = depth - 1, False
                main = min(main, depth)
                if not depth:
                    return i + 1
                i = skip(i + 1)

    i = skip(i)
    while i < n:
        if text[i] != "(":
            raise error(i, f"expected '(' to open a game tree, got {text[i]!r}")
        nodes: list[Node] = []
        i = skip(tree(i, nodes))
        trees.append(nodes)
    if not trees:
        raise InvalidNotationError("not an SGF file: no game tree")
    return trees


def outcome(parser, text):
    try:
        return parser(text)
    except InvalidNotationError as exc:
        return str(exc)


PIECES = ["(", ")", ";", "[", "]", "\\", "\\]", "\\\n", "\n", " ", "\t", "\u00a0", "GM", "W", "ab", "Wx", "\u00e9",
          "\u00b2", "XX[1]", "C[a\\]b]", "(;GM[6]", "[x]", "A", "z", "1", ":", "\x00", "\\\\"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_the_parser_equals_the_character_by_character_one(text):
    assert outcome(sgf.parse, text) == outcome(reference_parse, text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_parses_as_before(text):
    assert outcome(sgf.parse, "(;" + text) == outcome(reference_parse, "(;" + text)
    assert outcome(sgf.parse, text) == outcome(reference_parse, text)


def test_the_real_gnubg_file_parses_as_before():
    from pathlib import Path

    text = (Path(__file__).parent.parent / "data" / "archives" / "gnubg-money-jacoby.sgf").read_text()
    assert sgf.parse(text) == reference_parse(text)
