"""The one exception the store raises for a refused or failed change."""


class StoreError(Exception):
    """A change the store refused, or could not make; ``str(err)`` is the user-facing message."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""
