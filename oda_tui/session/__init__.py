"""The app's store session: the store, its lock and workers, the latest snapshot, and the signal
that tells whoever cares that the store changed. No screen in here."""
