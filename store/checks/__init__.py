"""Pure functions over memories and their text, no disk.

``secrets`` (with ``secret_patterns``) finds secret-looking text; ``duplicates`` (with
``containment``) finds duplicate and similar memories; ``search`` matches words; ``chat``
builds the text a chat receives, its token estimate and the notes that say what changed;
``fingerprint`` names a memory's content, so a change to content a caller never saw is refused.
"""
