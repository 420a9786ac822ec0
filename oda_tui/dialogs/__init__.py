"""Modal dialogs: confirmations and the on-disk conflict prompt."""

from .confirm import ConfirmDialog
from .conflict import ConflictDialog

__all__ = ["ConfirmDialog", "ConflictDialog"]
