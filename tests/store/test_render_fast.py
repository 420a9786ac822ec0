"""Writing a field without PyYAML: ``render.text_line`` gives the line PyYAML writes, or leaves
the value to PyYAML; a store writes plain texts without loading the YAML library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from store.format.render import text_line

# Characters that decide a scalar's style: indicators, quotes, blanks, signs, digits, letters
# of bool and null words and of numbers (0b, 0x, e), and the rest of printable ASCII.
TRICKY = " :#-'\"?,.[]{}!&*|>%@`~=<+_/\\0123456789abefxnoNOTFYlrsuy"
KEYS = ["title", "source", "sessionId", "replaced", "via", "yes", "On", "x_1", "a-b", "1a", "Null", ""]


def pyyaml_lines(key: str, value: str) -> list[str]:
    """What the store's slow path writes: PyYAML's block mapping of one key."""
    dumped = yaml.safe_dump(
        {key: value}, allow_unicode=True, width=1_000_000, sort_keys=False, default_flow_style=False
    )
    return dumped.rstrip("\n").split("\n")


@settings(max_examples=3000)
@given(
    key=st.sampled_from(KEYS),
    value=st.one_of(
        st.text(alphabet=TRICKY, max_size=12),
        st.text(alphabet="0123456789abcdefbx", min_size=1, max_size=18),
        st.text(max_size=12),
    ),
)
@example(key="title", value="Regex: escape [ and ] in patterns")
@example(key="title", value="It's here")
@example(key="title", value="yes")
@example(key="title", value="- item")
@example(key="title", value="trailing ")
@example(key="title", value="a #b")
@example(key="title", value="...")
@example(key="replaced", value="0b0101")
@example(key="replaced", value="0x1f")
@example(key="replaced", value="0123")
@example(key="replaced", value="1e10")
@example(key="replaced", value="e760cd4b0094d82a")
def test_the_line_without_pyyaml_is_the_line_pyyaml_writes(key: str, value: str) -> None:
    line = text_line(key, value)
    if line is not None:
        assert [line] == pyyaml_lines(key, value)


def test_plain_texts_and_their_versions_are_written_and_read_without_the_yaml_library(root: Path) -> None:
    code = f"""
import sys
from store import GLOBAL, MemoryStore
s = MemoryStore({str(root)!r})
m = s.create(GLOBAL, "Reply language", "Reply in English.")
s.change(GLOBAL, m.id, text="Reply in French.")
s.change(GLOBAL, m.id, text="Reply in German.", via="chat")  # its version says what it replaced
s.change(GLOBAL, m.id, title="Regex: escape [ and ] in patterns")
s.set_enabled(GLOBAL, m.id, False)
print(sorted(x for x in sys.modules if x.split(".")[0] in ("yaml", "_yaml")))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"
    (path,) = (root / "global").glob("*.md")
    assert "title: 'Regex: escape [ and ] in patterns'\n" in path.read_text()
