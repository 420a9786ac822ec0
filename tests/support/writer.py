"""A writer process for the crash test: creates, changes, deletes and restores memories
forever, appending one line to a log after each call the store accepted (flushed and fsynced
before the next call starts). Run as: python -m tests.support.writer ROOT LOG SEED"""

from __future__ import annotations

import json
import os
import random
import sys

from store import MemoryStore, StoreError


def main() -> None:
    root, log_path, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(seed)
    store = MemoryStore(root)
    log = open(log_path, "a", encoding="utf-8")  # noqa: SIM115 - kept open until killed

    def accepted(**entry: object) -> None:
        log.write(json.dumps(entry) + "\n")
        log.flush()
        os.fsync(log.fileno())

    n = 0
    while True:
        n += 1
        scope = rng.choice([None, "ws-a", "ws-b"])
        store.refresh()
        ids = [m.id for m in store.memories(scope)]
        deleted = [d.id for d in store.deleted(scope)]
        action = rng.random()
        try:
            if action < 0.35 or not ids:
                text = f"created {seed}-{n} " + "x" * rng.randint(0, 400)
                m = store.create(scope, f"Title {seed}-{n}", text)
                accepted(op="create", scope=scope, id=m.id, title=m.title, text=m.text)
            elif action < 0.75:
                memory_id = rng.choice(ids)
                text = f"changed {seed}-{n} " + "y" * rng.randint(0, 400)
                c = store.change(scope, memory_id, text=text)
                accepted(op="change", scope=scope, id=memory_id, title=c.memory.title, text=c.memory.text)
            elif action < 0.9:
                memory_id = rng.choice(ids)
                store.delete(scope, memory_id)
                accepted(op="delete", scope=scope, id=memory_id)
            elif deleted:
                memory_id = rng.choice(deleted)
                back = store.restore_deleted(scope, memory_id)
                if back is not None:
                    accepted(op="restore", scope=scope, id=memory_id, title=back.title, text=back.text)
        except StoreError:
            pass


if __name__ == "__main__":
    main()
