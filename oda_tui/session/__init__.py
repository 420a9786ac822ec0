"""The app's store session: the store, its call lock and workers, the latest snapshot, and the
signal that tells whoever cares that the store changed. No screen in here.

Three locks, taken in this order (never the other way round), each guarding one thing:

- ``StoreSession.call_lock`` (a ``threading.RLock``, the app's): the app's calls to the store.
  Each worker holds it around what it does with the store (a change and the snapshot after it,
  a refresh, a preview, a sub-screen's read), so the app's workers take turns and a picture
  never shows half of another worker's change. The store knows nothing of it.
- ``DiskSync.picture_lock`` (a ``threading.RLock``, the store's, ``store.read.disk_sync``): the
  store's picture of the disk in memory (what was read, the limits, the caches). Every read and
  every change of one ``MemoryStore`` holds it, whichever thread calls.
- ``DiskSync.disk_lock`` (a ``StoreLock``: ``flock`` on ``<root>/.lock``,
  ``store.durable.lock``): the files under the root, against every other writer, in this
  process or another (another app, ``oda-tui`` commands, the MCP server). Every change holds it
  from looking at the file as it is now to the swap; reads never take it.
"""
