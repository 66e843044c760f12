"""Fuzz: `nardy moves --batch`: one output line per input line, whatever the lines hold."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from fuzzing import NOTATION, fuzz, mutated, time_limit
from nardy import Position, cli

# The line endings the batch is fuzzed with. CR and CRLF are the ux helper's fix of issue 17
# (`moves --batch` on a file with CR line endings); add "\r", "\r\n" here once it is merged.
LINE_ENDINGS = ["\n", "\r\n", "\r"]
LINES = [",".join(map(str, Position.start(v).view())) + " 6 5" for v in ("long", "short")] + [
    "0,0,0,0,0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15 3 3", "garbage", ""]
# a line's text: anything but a line break
LINE_ALPHABET = st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


@fuzz
@given(variant=st.sampled_from(["long", "short"]), ending=st.sampled_from(LINE_ENDINGS),
       lines=st.lists(st.one_of(mutated(LINES, NOTATION.replace("\u2028", "")), st.text(LINE_ALPHABET, max_size=40)),
                      min_size=1, max_size=6), data=st.data())
def test_batch_output_lines_up_with_input(tmp_path_factory, variant, ending, lines, data):
    lines = [line for line in lines if not any(c in line for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")]
    path = tmp_path_factory.mktemp("batch") / "in.txt"
    path.write_text("".join(line + ending for line in lines), encoding="utf-8")
    out = io.StringIO()
    with time_limit():
        code = cli.main(["moves", variant, "--batch", str(path)], out=out)
    assert code in (0, 2)
    if code == 0:
        assert len(out.getvalue().splitlines()) == len(lines), (lines, out.getvalue())
