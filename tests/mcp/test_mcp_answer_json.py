"""An answer's JSON is compact and keeps text as it is, made by the SDK's encoder: the same
text ``json`` makes, also for the characters JSON escapes, and ``json``'s own for a lone
surrogate (which the SDK's encoder refuses)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from oda_tui.mcp.answers import to_json


def json_of(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(values)
def test_an_answer_is_the_json_json_makes(data: Any) -> None:
    assert to_json(data) == json_of(data)


def test_the_characters_json_escapes_are_escaped_alike() -> None:
    text = "".join(map(chr, range(0x80))) + "\u2028\u2029\ufeff👍🏽 é — </script>"
    data = {"title": text, "memories": [{"preview": text, "tokens": 12, "enabled": False, "scope": None}]}
    assert to_json(data) == json_of(data)
    assert json.loads(to_json(data)) == data


def test_a_lone_surrogate_is_kept_visible() -> None:
    data = {"text": "before \ud800 after"}
    assert to_json(data) == json_of(data) == '{"text":"before \ud800 after"}'
