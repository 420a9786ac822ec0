"""Memories to and from other tools' files.

``importers`` find memories in what other tools keep (pure parsers), ``import_sources`` reads
those files safely, ``create_check`` says whether each would be saved and ``importing`` saves
them; ``export`` writes every memory as one Markdown document; ``sync_targets`` keeps the
files other assistants read in step, between the marker lines of the ``managed_block``.
"""
