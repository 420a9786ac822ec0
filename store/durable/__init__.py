"""What survives a crash: the steps that make a change durable, and putting right what a
killed writer left.

``commit`` stages a memory file, writes the version it replaces into ``history``, swaps it in
and keeps what was swapped out; ``trash`` deletes and restores, ``moves`` moves a memory to
another set; ``leftovers`` and ``move_recovery`` finish or set aside what a killed writer left;
``lock`` is the store-wide lock every write holds.
"""
