"""The editor's draft without its widgets: what is open, when edits count as unsaved, what is
saved, and what the editor says about it."""

from __future__ import annotations

from oda_tui.text.safe import clean_block, clean_line
from oda_tui.widgets.editor.draft import Draft
from store.model import Memory


def memory(title: str = "Tea", text: str = "Prefers green tea.", enabled: bool = True) -> Memory:
    return Memory("0000000a", "web", title, text, enabled, "ai", None, None, None, "web/0000000a.md")


def test_a_new_draft_is_unsaved_once_something_is_typed_and_names_its_scope() -> None:
    assert not Draft().has_memory and not Draft().differs("anything", False, "typed")
    draft = Draft.new("web")
    assert draft.has_memory and draft.memory_id is None
    assert not draft.differs("  ", True, "\n")
    assert draft.differs("Tea", True, "") and draft.differs("", True, "green")
    assert draft.display_title("") == "New memory" and draft.display_title("Tea") == "Tea"
    assert draft.heading() == "New memory in web"
    assert Draft.new(None).heading() == "New memory in Global"


def test_an_open_memory_differs_by_title_switch_or_text() -> None:
    draft = Draft.of(memory())
    assert draft.memory_id == "0000000a" and draft.scope == "web" and not draft.is_new
    assert not draft.differs("Tea", True, "Prefers green tea.")
    assert draft.differs("Coffee", True, "Prefers green tea.")
    assert draft.differs("Tea", False, "Prefers green tea.")
    assert draft.differs("Tea", True, "Prefers black tea.")
    assert draft.heading() == "web · Tea" and draft.display_title("typed") == "Tea"


def test_what_is_saved_keeps_the_files_control_characters_unless_edited_away() -> None:
    draft = Draft.of(memory(title="Bell\x07", text="Line\x1bend"))
    shown_title, shown_text = clean_line("Bell\x07"), clean_block("Line\x1bend")
    assert shown_title != "Bell\x07" and shown_text != "Line\x1bend"  # shown as pictures
    assert draft.outgoing_title(shown_title) == "Bell\x07"
    assert draft.outgoing_text(shown_text) == "Line\x1bend"
    assert draft.outgoing_text(shown_text + ", more") == "Line\x1bend, more"
    assert draft.outgoing_text("Plain") == "Plain"
    assert not draft.differs(shown_title, True, shown_text)


def test_a_memory_deleted_on_disk_keeps_its_scope_and_is_saved_as_new() -> None:
    draft = Draft.of(memory()).refused("refused").orphaned()
    assert draft.is_new and draft.orphan and draft.memory is None and draft.scope == "web"
    assert draft.heading() == "web · deleted on disk; saving creates it again"
    assert draft.meta() == "new · saved by you"
    closed = Draft()
    assert not closed.has_memory and not closed.orphan and closed.save_error is None
    assert closed.heading() == ""


def test_opening_a_memory_drops_the_last_refusal_and_says_who_saved_it() -> None:
    refused = Draft.new("web").refused("A memory needs a title.")
    assert refused.save_error == "A memory needs a title."
    draft = Draft.of(memory())
    assert draft.save_error is None and not draft.orphan
    assert draft.meta().startswith("saved by the agent · sessionId — · created ")
