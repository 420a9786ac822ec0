"""The memory file format: a ``---`` frontmatter block and the text below it.

``parse`` turns a file's bytes into fields or a problem (the spec's messages), trying
``fast_parser`` first and the YAML parser (``yaml_block`` over ``yaml_load``) when the block is
not plain; ``fields`` names what a file holds, ``render`` writes fields back (a new file, or
only the lines that changed), ``timestamps`` reads and writes the ``created``/``updated`` times.
Pure: no disk.
"""
