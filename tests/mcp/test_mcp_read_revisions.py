"""memory_read's revisions: the complete memory, then what changed since a revision the caller
names, right for any number of conversations sharing one server.

Called through ``tools.call`` on a ``ChatSession`` (the SDK adds nothing to what is answered;
``test_mcp_tools`` covers the same through the SDK's client).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from oda_tui.mcp import tools
from oda_tui.mcp.revisions import SentRevisions, held_with_own_write
from oda_tui.mcp.session import ChatSession
from store import GLOBAL, ChatEntry, MemoryStore, build_chat_memory, change_note
from tests.support.changes import STEPS, TEXTS, TITLES, example_store, settled, take
from tests.support.notes import apply, same, sections

UNCHANGED = "The memory is unchanged since your last memory_read."


def read(session: ChatSession, since: str | None = None) -> dict[str, Any]:
    result = tools.call(session, "memory_read", {} if since is None else {"since": since})
    assert not result.error and result.data is not None, result.text
    # The text the model reads is the memory (or the note); the revision comes with it.
    assert result.text == (result.data["text"] or "There are no memories for this chat yet.")
    assert isinstance(result.data["revision"], str) and result.data["revision"]
    return result.data


@settings(max_examples=20, deadline=None)
@given(st.lists(STEPS, max_size=8), st.lists(st.tuples(TITLES, TEXTS), max_size=4))
def test_notes_since_each_revision_bring_the_model_to_a_complete_read(
    examples_folder: Path, steps: list[tuple[Any, ...]], first: list[tuple[str, str]]
) -> None:
    with example_store(
        examples_folder, first
    ) as app:  # the person's changes, in another store object (as the app)
        session = ChatSession(MemoryStore(app.root), "proj", root_named=False)
        start = read(session)
        held, revision = sections(start["text"]), start["revision"]
        for step in steps:
            take(app, step)
            answer = read(session, revision)
            complete = read(session)
            assert answer["revision"] == complete["revision"]
            if answer["kind"] == "unchanged":
                assert answer["text"] == UNCHANGED
                assert same(held, complete["text"])
            else:
                assert answer["kind"] == "change", answer
                held = apply(held, answer["text"])
                assert same(held, complete["text"]), (step, answer["text"])
            revision = answer["revision"]
        # The first revision is still held: one note over the whole sequence does the same.
        since_start = read(session, start["revision"])
        final = read(session)
        held = (
            sections(start["text"])
            if since_start["kind"] == "unchanged"
            else apply(sections(start["text"]), since_start["text"])
        )
        assert same(held, final["text"])
        session.close()
        settled(app, session.store)


def test_conversations_sharing_a_server_each_get_what_they_lack(root: Path) -> None:
    app = MemoryStore(root)
    tea = app.create(GLOBAL, "Tea", "Green tea.")
    session = ChatSession(MemoryStore(root), None)
    first = read(session)  # conversation one
    app.change(GLOBAL, tea.id, text="Black tea.")
    second = read(session)  # conversation two starts: the complete memory, never a note
    assert second["kind"] == "full" and "Black tea." in second["text"]
    assert read(session, second["revision"])["kind"] == "unchanged"
    note = read(session, first["revision"])  # conversation one asks for what it lacks
    assert note["kind"] == "change" and note["text"].startswith('Memory update: changed "Tea".')
    assert note["revision"] == second["revision"]


def test_the_same_memory_is_the_same_revision_across_processes(root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "Tea", "Green tea.")
    one = read(ChatSession(MemoryStore(root), None))
    restarted = ChatSession(MemoryStore(root), None)  # nothing held: a server started again
    assert read(restarted, one["revision"])["kind"] == "unchanged"


def test_an_unknown_or_forgotten_revision_gets_the_complete_memory_and_why(root: Path) -> None:
    app = MemoryStore(root)
    tea = app.create(GLOBAL, "Tea", "Green tea.")
    session = ChatSession(MemoryStore(root), None, sent=SentRevisions(keep=2))
    why = (
        'The revision "{rev}" is not one this server holds (it holds the last {held} it sent, at '
        "most 2 and at most 8,000,000 characters of memory in all, until it restarts), so this is "
        "the complete memory."
    )
    unknown = tools.call(session, "memory_read", {"since": "r-made-up"})
    assert unknown.data is not None and unknown.data["kind"] == "full"
    assert unknown.data["reason"] == why.format(rev="r-made-up", held=1)
    assert unknown.text == "# Memory\n\n## Tea\n\nGreen tea.\n"  # the reason is in the JSON with it
    oldest = read(session)["revision"]
    for text in ("Black tea.", "White tea."):  # two newer revisions sent: the oldest is forgotten
        app.change(GLOBAL, tea.id, text=text)
        read(session)
    forgotten = read(session, oldest)
    assert forgotten["kind"] == "full" and forgotten["reason"] == why.format(rev=oldest, held=2)
    assert forgotten["text"] == app.chat_memory().text


def test_what_is_held_is_bounded_in_characters() -> None:
    sent = SentRevisions(keep=100, keep_chars=1000)
    store_memories = []
    for n in range(5):
        memory = _memory("x" * 400 + str(n))
        store_memories.append(memory)
        sent.remember(f"r{n}", memory)
    assert len(sent) == 2  # 2 x ~420 characters fit in 1000
    assert sent.sent("r4") is store_memories[4] and sent.sent("r2") is None
    huge = _memory("y" * 5000)
    sent.remember("huge", huge)
    assert len(sent) == 1 and sent.sent("huge") is huge  # the newest is always held


def _memory(text: str) -> Any:
    from store import ChatMemory
    from store.checks.chat import build_chat_memory
    from store.model import ChatEntry

    built: ChatMemory = build_chat_memory([ChatEntry("aaaaaaaa", None, "T", text)])
    return built


def test_the_oldest_revision_held_still_gets_its_note(root: Path) -> None:
    app = MemoryStore(root)
    tea = app.create(GLOBAL, "Tea", "Green tea.")
    session = ChatSession(MemoryStore(root), None, sent=SentRevisions(keep=2))
    oldest = read(session)["revision"]
    app.change(GLOBAL, tea.id, text="Black tea.")
    read(session)  # two held: the oldest and this one
    app.change(GLOBAL, tea.id, text="White tea.")
    # Holding the third forgets the oldest, but only after its note was made.
    assert read(session, oldest)["kind"] == "change"
    assert read(session, oldest)["kind"] == "full"


def test_what_a_writer_holds_is_what_it_held_and_its_own_write() -> None:
    def entry(key: str, text: str) -> ChatEntry:
        return ChatEntry(key * 8, None, key.upper(), text)

    held = build_chat_memory([entry("a", "1"), entry("b", "1"), entry("c", "1"), entry("d", "1")])
    now = build_chat_memory([entry("a", "2"), entry("c", "1"), entry("e", "1"), entry("f", "mine")])
    mine = build_chat_memory(held_with_own_write(held.entries, now.entries, (None, "f" * 8)))
    # Others changed A, removed B and D and added E: the writer holds none of that, only its F.
    assert [(e.title, e.text) for e in mine.entries] == [
        ("A", "1"),
        ("B", "1"),
        ("C", "1"),
        ("D", "1"),
        ("F", "mine"),
    ]
    note = change_note(mine, now)
    assert note is not None and note.startswith('Memory update: added "E"; changed "A"; removed "B", "D".')
    assert same(apply(sections(mine.text), note), now.text)
    same_again = held_with_own_write(held.entries, held.entries, (None, "x" * 8))
    assert change_note(build_chat_memory(same_again), held) is None
