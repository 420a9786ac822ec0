"""What the main screen's helpers need of it (``MainView``): the key policy, the draft keeper and
what its keys do to a memory take the screen through this, so none of them imports the screen
(which imports them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel
    from textual.widget import Widget

    from store import Memory

    from ...session.outcomes import Operation
    from ...session.session import StoreSession
    from ...session.snapshot import Snapshot
    from ...widgets.editor.memory_editor import MemoryEditor
    from .browse import BrowsePane
    from .detail import DetailPane


class MainView(Protocol):
    """The main screen (``MainScreen``) as its helpers see it."""

    @property
    def app(self) -> App[object]: ...

    @property
    def session(self) -> StoreSession: ...

    @property
    def browse(self) -> BrowsePane: ...

    @property
    def detail(self) -> DetailPane: ...

    @property
    def editor(self) -> MemoryEditor: ...

    @property
    def snapshot(self) -> Snapshot | None: ...

    @property
    def focused(self) -> Widget | None: ...

    @property
    def detail_ready(self) -> bool: ...

    def target(self) -> Memory | None: ...

    def keep_for_pane(self, run: Callable[[], None]) -> None: ...

    def run_operation(self, operation: Operation[Any]) -> None: ...

    def show_detail(self, tab: str) -> None: ...

    def call_after_refresh(self, callback: Callable[[], object], *args: Any, **kwargs: Any) -> bool: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...
