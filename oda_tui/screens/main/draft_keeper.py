"""The editor's unsaved draft, kept when the app is ended from outside and offered back at the
next start (the file format is ``oda_tui.own_files.drafts``).

Kept: when the terminal is lost or the app gets SIGTERM, a dirty editor's title, text and
switch go to the drafts folder. A quit the person chose (``q``) keeps nothing: they decided.

Offered back: once the store is first shown, the newest draft kept for this store comes back
into the editor as unsaved edits on its memory (or as a new memory in its scope); Ctrl+S saves
it, Ctrl+R drops it, and either removes its file. A memory changed on disk since the draft
began brings up the usual conflict dialog; a memory deleted since is offered as the usual
"deleted on disk" edits, which saving creates again. Several drafts (one per memory, e.g. from
two windows on the same store) come back one per start, newest first; the notice says how many
wait.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from textual.binding import Binding

from store import GLOBAL_DIR, WORKSPACES_DIR, Memory, is_valid_id, is_valid_key, scope_label

from ...keys.actions import ACTIONS
from ...keys.bindings import current_keys, person_keymap, spoken_key
from ...own_files.drafts import KeptDraft, forget, keep, kept_drafts, new_draft
from ...own_files.file_drafts import file_draft_path, kept_file_drafts
from ...text.safe import clean_line
from ...text.words import CREATES_AGAIN

if TYPE_CHECKING:
    from ...session.session import StorePicture
    from ...session.snapshot import Snapshot
    from .view import MainView


class DraftKeeper:
    """Keeps the main screen's editor draft on an outside exit, and offers kept drafts back."""

    def __init__(self, screen: MainView, folder: Path | None = None) -> None:
        self._screen = screen
        #: The drafts folder (None: the app's state folder's, read when used).
        self.folder = folder
        #: The file of the draft offered back, while its edits are neither saved nor dropped.
        self.offered: Path | None = None
        self._offered_once = False

    # -- keeping --------------------------------------------------------------------------

    def keep_now(self) -> Path | None:
        """Write the editor's draft if it has unsaved edits (the app is ended from outside);
        the file written, else None."""
        screen = self._screen
        if not screen.detail_ready:
            return None
        editor = screen.editor
        typed = (editor.title_input.value, editor.switch.value, editor.text_area.text)
        # The form's edits only: the raw frontmatter block (F2) is not kept.
        if not editor.is_dirty or not editor.draft.differs(*typed):
            return None
        draft = new_draft(
            screen.session.root,
            editor.scope,
            None if editor.is_new else editor.memory,
            editor.outgoing_title,
            editor.outgoing_text,
            editor.switch.value,
        )
        path = keep(draft, self.folder)
        if path is not None and self.offered is not None and self.offered != path:
            forget(self.offered)  # the draft offered back is in the one just kept
        return path

    def keep_discarded(self) -> Path | None:
        """Keep the editor's edits as a draft before a choice drops them (Reload theirs in the
        prompt that opened by itself): offered back at the next start. The file written, None
        when there was nothing to keep; ``OSError`` when it could not be written."""
        path = self.keep_now()
        if path is not None and self.offered == path:
            self.offered = None  # a new draft now: dropping the edits must not remove it
        return path

    # -- settling -------------------------------------------------------------------------

    def settled(self, dirty: bool) -> None:
        """The editor's edits changed state: once clean, the draft offered back was saved or
        dropped, and its file goes."""
        if not dirty and self.offered is not None:
            forget(self.offered)
            self.offered = None

    def person_quit(self) -> None:
        """The person quit (saved, or chose to quit without saving): nothing is kept."""
        if self.offered is not None:
            forget(self.offered)
            self.offered = None

    # -- offering back --------------------------------------------------------------------

    def followed(self, state: StorePicture) -> None:
        """The editor follows a new picture of the store: the first one brings a kept draft back."""
        if state.initial and state.snapshot is not None:
            self.offer(state.snapshot)

    def offer(self, snapshot: Snapshot) -> None:
        """Once, at start: bring the newest kept draft back into the editor, with a notice."""
        if self._offered_once:
            return
        self._offered_once = True
        screen = self._screen
        self._point_to_file_drafts()
        found = kept_drafts(screen.session.root, self.folder)
        for path, why in found.set_aside:
            screen.notify(
                f"A kept draft could not be read ({clean_line(why)}); it was set aside as {clean_line(str(path))}.",
                severity="warning",
                markup=False,
                timeout=10,
            )
        if not found.drafts:
            return
        draft = found.drafts[0]
        message = self._restore(draft, snapshot)
        if message is None:
            assert draft.path is not None
            forget(draft.path)  # nothing in it differs from what is on disk
            return
        others = len(found.drafts) - 1
        if others:
            more = "1 more draft waits" if others == 1 else f"{others} more drafts wait"
            message += f" {more}: one comes back each time the app starts."
        screen.notify(message, severity="warning", markup=False, timeout=15)

    def _point_to_file_drafts(self) -> None:
        """Say where the Problems screen's kept edits wait: they come back when their file is
        shown; a file gone since is named with the draft that holds the text."""
        screen = self._screen
        root = screen.session.root
        kept = kept_file_drafts(root)
        there = [d for d in kept if os.path.lexists(root / d.file) and not self._is_memory(d.file)]
        if there:
            names = ", ".join(clean_line(d.file) for d in there[:3]) + (", …" if len(there) > 3 else "")
            screen.notify(
                f"Your unsaved edits to {names} in Problems were kept when the app was closed. "
                f"Press {self._shown_key('view.problems')} and choose the file to get them back.",
                severity="warning",
                markup=False,
                timeout=15,
            )
        for draft in (d for d in kept if d not in there):
            screen.notify(
                f"Your unsaved edits to {clean_line(draft.file)} in Problems were kept when the app was "
                f"closed, but it is no longer a problem file. Your text is in "
                f"{clean_line(str(file_draft_path(root, draft.file)))}.",
                severity="warning",
                markup=False,
                timeout=15,
            )

    def _is_memory(self, relative: str) -> bool:
        """True when the store's file at ``relative`` reads as a memory now (so Problems does
        not list it)."""
        parts = relative.split("/")
        if len(parts) == 2 and parts[0] == GLOBAL_DIR:
            scope: str | None = None
        elif len(parts) == 3 and parts[0] == WORKSPACES_DIR:
            scope = parts[1]
        else:
            return False
        memory_id = parts[-1].removesuffix(".md")
        if not is_valid_id(memory_id) or (scope is not None and not is_valid_key(scope)):
            return False
        return isinstance(self._screen.session.store.find(scope, memory_id), Memory)

    def _shown_key(self, action_id: str) -> str:
        """The key that runs ``action_id`` now, as the footer shows it (``!``)."""
        [action] = [a for a in ACTIONS if a.id == action_id]
        first = current_keys(action, person_keymap(self._screen.app))[0]
        return self._screen.app.get_key_display(Binding(first, ""))

    def _restore(self, draft: KeptDraft, snapshot: Snapshot) -> str | None:
        """Open the draft in the editor; what to tell the person (None: nothing to restore)."""
        screen = self._screen
        editor = screen.editor
        title = clean_line(draft.title) or "New memory"
        save, revert = spoken_key(screen.app, "editor.save"), spoken_key(screen.app, "editor.revert")
        keys = f"{save} saves them, {revert} drops them."
        current = snapshot.find(draft.scope, draft.memory_id) if draft.memory_id else None
        if current is not None:
            screen.browse.reveal(draft.scope, current.id)
            editor.load(current)
        else:
            screen.browse.select_scope(draft.scope)
            editor.start_new(draft.scope)
        screen.session.read_preview(draft.scope)
        editor.restore_typed(draft.title, draft.text, draft.enabled)
        if draft.memory_id is not None and current is None:
            editor.mark_orphan()
        if not editor.is_dirty:
            return None
        self.offered = draft.path
        screen.show_detail("tab-editor")
        screen.call_after_refresh(editor.text_area.focus)
        if draft.memory_id is None:
            return (
                f"Your new memory “{title}” in {scope_label(draft.scope)} was not saved when the app "
                f"was closed. It is back in the editor: {save} saves it, {revert} drops it."
            )
        if current is None:
            return (
                f"Your unsaved edits to “{title}” were kept when the app was closed, but the memory "
                f"was deleted on disk since. They are back in the editor; saving them {CREATES_AGAIN}"
            )
        if draft.changed_since(current):
            if (current.title, current.text) != (editor.outgoing_title, editor.outgoing_text):
                screen.detail.ask_conflict(current)
            return (
                f"Your unsaved edits to “{title}” were kept when the app was closed, and the memory "
                f"changed on disk since. They are back in the editor: {keys}"
            )
        return f"Your unsaved edits to “{title}” were kept when the app was closed. They are back in the editor: {keys}"
