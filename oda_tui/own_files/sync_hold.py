"""What ``sync`` holds back from other assistants' files: the memories an agent saved or changed
that the person has not reviewed yet (the one place sync asks the review state)."""

from __future__ import annotations

from store import MemoryStore, Scope

from .review_marks import pending_review


def unreviewed(store: MemoryStore) -> frozenset[tuple[Scope, str]]:
    """The memories (scope, id) waiting for review: an agent created or changed them since the
    person last reviewed them."""
    return frozenset(
        (item.memory.scope, item.memory.id) for item in pending_review(store) if not item.deleted_by_agent
    )


def held_back_line(count: int, *, in_app: bool = False) -> str:
    """The one line saying how many memories were held back for review, and how to go on."""
    one = count == 1
    them = "it" if one else "them"
    how = f"press r to review {them}" if in_app else f"review {them} in the app (r)"
    return (
        f"{count} {'memory' if one else 'memories'} an agent saved or changed {'is' if one else 'are'} "
        f"waiting for your review and {'was' if one else 'were'} left out of the files: {how}, or sync "
        "with oda-tui sync --include-unreviewed."
    )
