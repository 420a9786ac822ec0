"""How memories reach the model: the text a chat receives, its estimate, and change notes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable

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


def _quoted(title: str) -> str:
    return f'"{title}"'


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _names(entries: tuple[ChatEntry, ...]) -> list[str]:
    """How a note names each entry: its title, told apart by place ("the 2nd") when the
    text that was sent holds that title more than once."""
    totals = Counter(e.title for e in entries)
    seen: Counter[str] = Counter()
    names = []
    for entry in entries:
        seen[entry.title] += 1
        quoted = _quoted(entry.title)
        names.append(quoted if totals[entry.title] == 1 else f"the {_ordinal(seen[entry.title])} {quoted}")
    return names


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
    turned off or deleted), each as it was sent, told apart by place when titles repeat, then
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
            renamed = "" if old.title == new.title else f" (now titled {_quoted(new.title)})"
            said.append(names[matched[j]] + renamed)
        parts.append("changed " + ", ".join(said))
    if removed:
        parts.append("removed " + ", ".join(names[i] for i in removed))
    lines = [f"Memory update: {'; '.join(parts)}."]
    for j in added + changed:
        entry = after.entries[j]
        lines.append(f"\n## {entry.title}\n\n{entry.text}\n")
    lines.append(APPLIES)
    return "\n".join(lines)
