"""Ask before saving text that looks like it holds a secret; dismisses with True to save."""

from __future__ import annotations

from .confirm import ConfirmDialog


class SecretDialog(ConfirmDialog):
    """Names the kinds of secret found and quotes the store's warning; "No" is focused."""

    def __init__(self, what: str, message: str) -> None:
        super().__init__(
            f"This text looks like it contains {what}. Save it anyway?",
            yes="Save anyway",
            no="Keep editing",
            detail=message,
        )
        #: The kinds found, in words ("a password and an API key or token").
        self.what = what
