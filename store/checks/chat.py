"""How memories reach the model: the text a chat receives, its estimate, and change notes."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable

from store.model import ChatEntry, ChatMemory

_SPACE = re.compile(r"\s+")

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


def _quoted(value: str) -> str:
    """``value`` in double quotes, a quote or a backslash in it escaped as JSON escapes them:
    a title such as ``a", "b`` reads as one title, never as two."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _told_apart(entry: ChatEntry, same_title: list[ChatEntry]) -> str:
    """How a note tells ``entry`` from the others sent with its title: the shortest start of
    its text (whole words) no other of them begins with, or its whole text; nothing when the
    others are exact copies (either one is the same to the model)."""
    rivals = [other.text for other in same_title if other.text != entry.text]
    if not rivals:
        return ""
    text = entry.text
    for found in _SPACE.finditer(text):
        start = text[: found.start()]
        if start and not any(rival.startswith(start) for rival in rivals):
            return f"the one beginning {_quoted(start + '…')}"
    return f"the one reading {_quoted(text)}"


def _named(title: str, *notes: str) -> str:
    said = [note for note in notes if note]
    return title if not said else f"{title} ({', '.join(said)})"


def _names(entries: tuple[ChatEntry, ...]) -> list[tuple[str, str]]:
    """How a note names each entry sent: its title, and when several were sent with that
    title, which one (by the start of its text: the model holds no ids and no order)."""
    by_title: dict[str, list[ChatEntry]] = {}
    for entry in entries:
        by_title.setdefault(entry.title, []).append(entry)
    return [(_quoted(e.title), _told_apart(e, by_title[e.title])) for e in entries]


def _matched(before: tuple[ChatEntry, ...], after: tuple[ChatEntry, ...]) -> dict[int, int]:
    """Which entry sent before each entry now is (index now -> index before).

    The same memory (scope and id) first; then one moved between sets (its id once on each
    side); then an entry now whose title and text were sent as another (nothing changed for
    the model: a memory deleted and saved again, or a copy turned on as its twin is off).
    """
    where = {(e.scope, e.id): i for i, e in enumerate(before)}
    matched = {j: where[(e.scope, e.id)] for j, e in enumerate(after) if (e.scope, e.id) in where}
    _pair_left(before, after, matched, lambda e: e.id, unique=True)
    _pair_left(before, after, matched, lambda e: (e.title, e.text), unique=False)
    return matched


def _pair_left(
    before: tuple[ChatEntry, ...],
    after: tuple[ChatEntry, ...],
    matched: dict[int, int],
    key: Callable[[ChatEntry], Hashable],
    *,
    unique: bool,
) -> None:
    """Pair entries not matched yet that share ``key`` (with ``unique``: only one each side)."""
    taken = set(matched.values())
    waiting: dict[Hashable, list[int]] = {}
    for i, entry in enumerate(before):
        if i not in taken:
            waiting.setdefault(key(entry), []).append(i)
    left = [j for j in range(len(after)) if j not in matched]
    counts = Counter(key(after[j]) for j in left)
    for j in left:
        found = waiting.get(key(after[j]))
        if found and not (unique and (len(found) > 1 or counts[key(after[j])] > 1)):
            matched[j] = found.pop(0)


def change_note(before: ChatMemory, after: ChatMemory) -> str | None:
    """The note a chat gets when its memory differs from what it was sent (None: it does not).

    It lists what was added, changed (a new title names the old one) and removed (a memory
    turned off or deleted), each by its title as it was sent, told apart by the start of its
    text when several were sent with that title, then
    gives every added and changed memory as the chat receives it, in the order named. Only the
    order differing is said in so many words.
    """
    matched = _matched(before.entries, after.entries)
    names = _names(before.entries)
    added = [j for j in range(len(after.entries)) if j not in matched]
    changed = [
        j
        for j, i in sorted(matched.items())
        if (before.entries[i].title, before.entries[i].text)
        != (after.entries[j].title, after.entries[j].text)
    ]
    kept = set(matched.values())
    removed = [i for i in range(len(before.entries)) if i not in kept]
    if not (added or removed or changed):
        return (
            None if before.text == after.text else f"Memory update: the order of memories changed. {APPLIES}"
        )
    parts = []
    if added:
        parts.append("added " + ", ".join(_quoted(after.entries[j].title) for j in added))
    if changed:
        said = []
        for j in changed:
            old, new = before.entries[matched[j]], after.entries[j]
            renamed = "" if old.title == new.title else f"now titled {_quoted(new.title)}"
            said.append(_named(*names[matched[j]], renamed))
        parts.append("changed " + ", ".join(said))
    if removed:
        parts.append("removed " + ", ".join(_named(*names[i]) for i in removed))
    lines = [f"Memory update: {'; '.join(parts)}."]
    for j in added + changed:
        entry = after.entries[j]
        lines.append(f"\n## {entry.title}\n\n{entry.text}\n")
    lines.append(APPLIES)
    return "\n".join(lines)
