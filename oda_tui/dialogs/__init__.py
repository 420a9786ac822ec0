"""Modal dialogs: confirmations, the on-disk conflict prompt and the secret-text prompt."""

from .confirm import ConfirmDialog
from .conflict import ConflictDialog
from .secret import SecretDialog

__all__ = ["ConfirmDialog", "ConflictDialog", "SecretDialog"]
