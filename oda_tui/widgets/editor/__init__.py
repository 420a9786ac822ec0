"""The memory editor (``memory_editor.MemoryEditor``) and its parts: the counts under its fields,
the draft it measures edits against, and the messages it posts. Nothing is imported here, so the
messages come without the widget (which is imported after the first frame)."""
