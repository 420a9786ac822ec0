"""The main screen (``screen``) and what only it uses: its browse and detail panes, the detail
pane's mount after the first frame, the key policy, the draft keeper, and what its keys do to a
memory outside the editor (``memory_actions``, ``moving``)."""

from .screen import MainScreen

__all__ = ["MainScreen"]
