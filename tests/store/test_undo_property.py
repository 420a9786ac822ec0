"""Undo's answer is true, over random sequences of changes (a property test).

A model follows what happened: the current text, and history as the spec keeps it (every
change keeps its text as the newest version; the same text is kept once, as its newest
version; an outside edit is kept as ``external`` by the next change). For a chat's change the
model notes the text it replaced, as it was, not as the store records it. After each step the
store's history must match the model's, and each undo must do what the decided rule says:

- no change from a chat since the last undo (or its text taken over by a later save of the
  same text): "There is no change from a chat to undo.";
- the chat created the memory: that reason;
- the text the chat's change replaced is the current text: a no-op, saying so;
- that text is kept: it is written back (a version of source ``undo``);
- otherwise: that it is no longer kept (and it is not, in the versions the store lists).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from store import GLOBAL, CouldNotChange, MemoryStore, NothingToUndo

#: Among the suite's longest: started first (see ``tests/conftest.py``).
pytestmark = pytest.mark.slow

TEXTS = ["one", "two", "three", "four"]  # few texts: repeats are where history moves things
IS_CURRENT = "the text from before the change from a chat is the current text already"
NOT_KEPT = "the text from before the change from a chat is no longer kept"
CREATED = "the change from a chat created this memory, so there is no earlier text"


@dataclass
class Model:
    current: str
    #: Newest first: (text, source, the text a chat's change replaced).
    versions: list[tuple[str, str, str | None]] = field(default_factory=list)

    def keep(self, text: str, source: str, replaced: str | None = None) -> None:
        if self.versions and self.versions[0][0] == text:
            return
        self.versions = [(text, source, replaced)] + [v for v in self.versions if v[0] != text]

    def record_outside(self) -> None:
        self.keep(self.current, "external")

    def save(self, text: str, source: str, replaced: str | None = None) -> None:
        self.record_outside()
        self.keep(text, source, replaced)
        self.current = text

    def undo(self) -> tuple[str, str | None]:
        """What undo must answer: ("done", text), ("refused", reason) or ("nothing", None)."""
        for _text, source, replaced in self.versions:
            if source == "undo":
                break
            if source != "chat":
                continue
            if replaced is None:
                return "refused", CREATED
            if replaced == self.current:
                return "refused", IS_CURRENT
            if any(v[0] == replaced for v in self.versions):
                return "done", replaced
            return "refused", NOT_KEPT
        return "nothing", None


step = st.one_of(
    st.tuples(st.just("change"), st.sampled_from(TEXTS), st.sampled_from(["chat", "settings"])),
    st.tuples(st.just("outside"), st.sampled_from(TEXTS), st.just("")),
    st.tuples(st.just("restore"), st.integers(0, 3), st.just("")),
    st.tuples(st.just("undo"), st.just(0), st.just("")),
)


def _outside_save(path: Path, text: str) -> None:
    """Save as an editor does: the frontmatter kept, the text replaced, written to a new file
    renamed over the old one (a new inode: seen at once)."""
    block = path.read_text().split("\n---\n", 1)[0]
    tmp = path.with_name(".edit.tmp")
    tmp.write_text(f"{block}\n---\n\n{text}\n")
    os.replace(tmp, path)


def _undo(store: MemoryStore, memory_id: str, model: Model) -> None:
    """Undo, checked against what the model says it must answer."""
    expected, value = model.undo()
    if expected == "done":
        assert store.undo(GLOBAL, memory_id).text == value
        model.save(str(value), "undo")
    elif expected == "nothing":
        with pytest.raises(NothingToUndo):
            store.undo(GLOBAL, memory_id)
    else:
        with pytest.raises(CouldNotChange) as info:
            store.undo(GLOBAL, memory_id)
        assert info.value.reason == value  # NOT_KEPT: the store's versions are the model's


@settings(max_examples=40, deadline=None)
@given(
    first=st.sampled_from(TEXTS),
    by_chat=st.booleans(),
    steps=st.lists(step, min_size=1, max_size=10),
)
def test_undo_answers_truly(
    examples_folder: Path, first: str, by_chat: bool, steps: list[tuple[str, object, str]]
) -> None:
    with tempfile.TemporaryDirectory(dir=examples_folder) as tmp:
        store = MemoryStore(Path(tmp) / "oda")
        memory = store.create(GLOBAL, "T", first, via="chat" if by_chat else "settings")
        model = Model(current=first)
        model.keep(first, "chat" if by_chat else "settings")
        for kind, arg, via in steps:
            if kind == "change":
                text = str(arg)
                store.change(GLOBAL, memory.id, text=text, via=via)
                if text != model.current:
                    model.save(text, via, model.current if via == "chat" else None)
            elif kind == "outside":
                _outside_save(memory.path, str(arg))
                store.refresh([memory.path])  # as the app's folder watch does
                model.current = str(arg)
            elif kind == "restore":
                versions = store.versions(GLOBAL, memory.id)
                wanted = versions[int(str(arg)) % len(versions)]
                store.restore_version(GLOBAL, memory.id, wanted.name)
                if wanted.text != model.current:
                    model.save(wanted.text, "restore")
            else:
                _undo(store, memory.id, model)
            assert store.get(GLOBAL, memory.id).text == model.current
            kept = [(v.text, v.source) for v in store.versions(GLOBAL, memory.id)]
            assert kept == [(text, source) for text, source, _ in model.versions]
