"""How memories reach the model: the text a chat receives, its estimate, and change notes."""

from __future__ import annotations

from collections.abc import Iterable

from .model import ChatEntry, ChatMemory

HEADER = "# Memory\n\n"
APPLIES = "This applies from now on; the rest of the memory is unchanged."


def estimate_tokens(text: str) -> int:
    """About four characters per token, rounded up."""
    return tokens_for_chars(len(text))


def tokens_for_chars(chars: int) -> int:
    """The estimate of a text of ``chars`` characters (no need to build the text)."""
    return -(-chars // 4)


def entry_chars(title: str, text: str) -> int:
    """The characters one memory adds to a chat's text (without the joining newline)."""
    return len(title) + len(text) + 6  # "## " + title + "\n\n" + text + "\n"


def entry_tokens(title: str, text: str) -> int:
    """What one memory adds to the estimate of what a chat receives (its entry and joining newline).

    The one token figure shown for a memory everywhere: the list, the editor, the command line,
    JSON and the MCP tools.
    """
    return tokens_for_chars(entry_chars(title, text) + 1)


def chat_chars(total_entry_chars: int, count: int) -> int:
    """The length of a chat's whole text from its entries' sizes."""
    return 0 if count == 0 else len(HEADER) + total_entry_chars + count - 1


def build_chat_memory(entries: Iterable[ChatEntry]) -> ChatMemory:
    """Exactly what a chat receives for these entries, in order."""
    items = tuple(entries)
    if not items:
        return ChatMemory(text="", tokens=0, entries=())
    text = HEADER + "\n".join(f"## {e.title}\n\n{e.text}\n" for e in items)
    return ChatMemory(text=text, tokens=estimate_tokens(text), entries=items)


def _quoted(titles: list[str]) -> str:
    return ", ".join(f'"{t}"' for t in titles)


def change_note(before: ChatMemory, after: ChatMemory) -> str | None:
    """A short note of what was added, changed and removed; None when nothing differs."""
    old = {(e.scope, e.id): e for e in before.entries}
    new = {(e.scope, e.id): e for e in after.entries}
    added = [e.title for k, e in new.items() if k not in old]
    removed = [e.title for k, e in old.items() if k not in new]
    changed = [
        e.title for k, e in new.items() if k in old and (old[k].title, old[k].text) != (e.title, e.text)
    ]
    if not (added or removed or changed):
        return (
            None if before.text == after.text else f"Memory update: the order of memories changed. {APPLIES}"
        )
    parts = []
    if added:
        parts.append(f"added {_quoted(added)}")
    if changed:
        parts.append(f"changed {_quoted(changed)}")
    if removed:
        parts.append(f"removed {_quoted(removed)}")
    lines = [f"Memory update: {'; '.join(parts)}."]
    for key, entry in new.items():
        if key not in old or (old[key].title, old[key].text) != (entry.title, entry.text):
            lines.append(f"\n## {entry.title}\n\n{entry.text}\n")
    lines.append(APPLIES)
    return "\n".join(lines)
