"""The store session: owns the store, its call lock, the workers that call the store, the latest
snapshot, the refresh loop that follows the disk, and the garbage-collector policy; it
announces every new picture of the store on ``changed`` (a Textual ``Signal``)."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from textual.signal import Signal

from store import ChatMemory, LooksSecret, MemoryStore, Scope, StoreError

from .first_read import FirstRead
from .marks import HygieneMarks
from .outcomes import SecretHeld
from .outside_edits import keep_outside_edits
from .snapshot import Snapshot, take_snapshot
from .watcher import DiskWatcher

if TYPE_CHECKING:
    from textual.app import App
    from textual.message_pump import MessagePump

    from .outcomes import Operation, Outcome

ResultT = TypeVar("ResultT")


@dataclass(frozen=True)
class StorePicture:
    """A picture of the store, taken in a worker: the snapshot (None when the read failed) and
    what a chat in ``preview_scope`` receives; published on ``StoreSession.changed``."""

    snapshot: Snapshot | None
    preview_scope: Scope
    preview: ChatMemory | None
    initial: bool = False
    """The first read, at start-up."""
    outside: bool = False
    """Read again after changes made outside the app."""
    error: str | None = None
    changed: set[Path] = field(default_factory=set)
    outcome: Outcome | None = None
    """What became of the operation that left the store so (None: no operation)."""
    asker: MessagePump | None = None
    """Who asked for that operation: it settles its own outcome as it follows this state."""


@dataclass(frozen=True)
class PreviewState:
    """What a chat in ``scope`` receives, read after the person moved there."""

    scope: Scope
    preview: ChatMemory


class StoreSession:
    """The one store of the app and everything that touches it off the UI thread."""

    def __init__(
        self,
        app: App[Any],
        root: Path,
        workspace: Scope = None,
        *,
        watch: bool = True,
        first_read: FirstRead | None = None,
        root_named: bool = False,
    ) -> None:
        self.app = app
        self.root = Path(root)
        #: The root was named on purpose (``--root``, ``$ODA_HOME``): one that does not exist
        #: is then said to be missing (a typo), not taken for a new installation.
        self.root_named = root_named
        #: The store's first read: begun by the command line before Textual was imported, or now.
        self.first_read = first_read if first_read is not None else FirstRead(self.root, workspace)
        self.store: MemoryStore = self.first_read.store
        #: Held by each worker around its calls to the store, so the app's workers take turns and
        #: a picture never shows half of another worker's change (see ``oda_tui.session``).
        self.call_lock: threading.RLock = self.first_read.call_lock
        #: The ``--workspace`` asked for: listed even before it holds a memory.
        self.requested_workspace = workspace
        #: The scope whose chat text is read with every new picture (the one shown).
        self.preview_scope: Scope = workspace
        self.watcher: DiskWatcher | None = DiskWatcher(self.root, app) if watch else None
        self.snapshot: Snapshot | None = None
        self.loaded = False
        #: Every new picture of the store (load, outside change, operation), on the UI thread.
        self.changed: Signal[StorePicture] = Signal(app, "store-changed")
        #: A chat text read for a scope the person moved to.
        self.preview_read: Signal[PreviewState] = Signal(app, "preview-read")
        #: The duplicates and reviews flagged in the list, read after each new picture.
        self.marks = HygieneMarks(app, self.store, self.call_lock)
        self._refresh_running = False

    # -- starting and stopping ----------------------------------------------------------------

    def start(self) -> None:
        """Show the store as first read (at once when the read is done, so the first frame
        shows the list), then start following the disk."""
        if self.first_read.done:
            self._first_read_done()
        else:
            self.app.run_worker(self._wait_for_first_read, thread=True, group="load", exit_on_error=False)

    def stop(self) -> None:
        """Stop following the disk; the loaded store may be collected again."""
        if self.watcher is not None:
            self.watcher.stop()
        gc.unfreeze()

    # -- workers ---------------------------------------------------------------------------

    def _wait_for_first_read(self) -> None:
        self.first_read.wait()
        self.app.call_later(self._first_read_done)

    def _first_read_done(self) -> None:
        first = self.first_read
        self._publish(StorePicture(first.snapshot, self.preview_scope, None, initial=True, error=first.error))
        # What a chat receives (the whole text, built) and the watch wait for the list's frame.
        self.app.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        self.read_preview(self.preview_scope)
        self.app.run_worker(self.store.write_index_now, thread=True, group="index", exit_on_error=False)
        if self.watcher is not None:
            # The watch begins after the load: the comparison it starts with (the watcher's
            # first batch) finds whatever changed in between, so nothing is missed.
            self.app.run_worker(self.watcher.run, thread=True, group="watcher", exit_on_error=False)

    def files_changed(self) -> None:
        """The watcher saw changes: refresh, unless a refresh is already collecting them."""
        if not self.loaded or self._refresh_running:
            return
        self._refresh_running = True
        self.app.run_worker(self._refresh, thread=True, group="refresh", exit_on_error=False)

    def _refresh(self) -> None:
        """Apply outside changes: re-read only the changed paths and paint at once; a burst
        waits for quiet so it costs one repaint (changes arriving meanwhile wait for the next
        refresh, which ``_publish`` starts)."""
        watcher = self.watcher
        changed: set[Path] = set()
        scope = self.preview_scope
        snapshot = preview = None
        taken = 0
        try:
            while watcher is not None:
                paths = watcher.take()
                if paths is None:  # the watch was (re)made: compare everything once
                    with self.call_lock:
                        changed |= self.store.refresh()
                elif paths:
                    taken += len(paths)
                    with self.call_lock:
                        changed |= self.store.refresh(paths)
                # A save or two paints at once; a burst (a git checkout) is let finish first,
                # so it costs one repaint, not one per batch.
                wait = watcher.settle_time(taken) - watcher.quiet_for()
                if wait > 0:
                    time.sleep(wait)
                    continue
                if not watcher.has_pending:
                    break
            if changed:
                with self.call_lock:
                    keep_outside_edits(self.store, changed)
                    snapshot = take_snapshot(self.store, self.requested_workspace)
                    preview = self._read_preview(scope)
        except Exception as exc:  # keep watching even if one refresh fails
            self._post(StorePicture(None, scope, None, outside=True, error=str(exc), changed=changed))
            return
        self._post(StorePicture(snapshot, scope, preview, outside=True, changed=changed))

    def run(self, operation: Operation[ResultT], reply_to: MessagePump) -> asyncio.Future[Outcome]:
        """Run one change in a worker. The store is published as it left it, with the outcome
        in it, then the outcome goes to ``reply_to``; the future (to await) resolves with it."""
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self.app.run_worker(
            lambda: self._run(operation, reply_to, future), thread=True, group="ops", exit_on_error=False
        )
        return future

    def _run(
        self, operation: Operation[ResultT], reply_to: MessagePump, future: asyncio.Future[Outcome]
    ) -> None:
        scope = self.preview_scope
        with self.call_lock:
            try:
                outcome = operation.done(operation.change(self.store))
            except LooksSecret as exc:
                anyway = operation.anyway
                outcome = operation.refused(str(exc)) if anyway is None else SecretHeld(exc, anyway)
            except StoreError as exc:
                outcome = operation.refused(str(exc))
            except Exception as exc:  # shown to the person rather than crashing the app
                outcome = operation.refused(f"The change could not be made: {exc}")
            snapshot = take_snapshot(self.store, self.requested_workspace)
            preview = self._read_preview(scope)
        state = StorePicture(snapshot, scope, preview, outcome=outcome, asker=reply_to)
        self.app.call_later(self._deliver, state, reply_to, future)

    def read_preview(self, scope: Scope) -> None:
        """Read what a chat for ``scope`` receives (published on ``preview_read``)."""
        self.preview_scope = scope
        self.app.run_worker(
            lambda: self._read_and_post_preview(scope),
            thread=True,
            group="preview",
            exclusive=True,
            exit_on_error=False,
        )

    def _read_and_post_preview(self, scope: Scope) -> None:
        with self.call_lock:
            preview = self._read_preview(scope)
        if preview is not None:
            self.app.call_later(self.preview_read.publish, PreviewState(scope, preview))

    def _read_preview(self, scope: Scope) -> ChatMemory | None:
        try:
            return self.store.chat_memory(scope)
        except StoreError:
            return None

    # -- on the UI thread ----------------------------------------------------------------------

    def _post(self, state: StorePicture) -> None:
        self.app.call_later(self._publish, state)

    def _publish(self, state: StorePicture) -> None:
        if state.initial:
            self.loaded = True
            # What is loaded now lives as long as the app: keep it out of the collector's full
            # passes, which otherwise stall the UI for ~80 ms at 10,000 memories. The command
            # line pauses the collector until this frame (see cli.main): it resumes here.
            self.app.call_after_refresh(_loaded_for_good)
        if state.outside:
            self._refresh_running = False
        if state.snapshot is not None:
            self.snapshot = state.snapshot
        self.changed.publish(state)
        if state.snapshot is not None:
            self.marks.schedule()
        if self.watcher is not None and self.watcher.has_pending:
            self.files_changed()

    def _deliver(self, state: StorePicture, reply_to: MessagePump, future: asyncio.Future[Outcome]) -> None:
        outcome = state.outcome
        assert outcome is not None
        if not future.done():
            future.set_result(outcome)
        self._publish(state)
        if not reply_to.is_attached and self.app.screen_stack:
            # Closed meanwhile (a sub-screen left at once): the base screen says what happened.
            reply_to = self.app.screen_stack[0]
        reply_to.post_message(outcome)


def _loaded_for_good() -> None:
    """What the app made to show its first frame lives as long as the app: out of the
    collector's sight, and the collector (paused for the start-up) on again."""
    gc.freeze()
    gc.enable()
