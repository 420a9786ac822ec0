"""The picture of the disk: what each memory file is, kept up to date with the files.

``scan`` reads the folders (memories, problems, ignored entries); ``first_load`` builds the
``picture`` at start, from the ``parse_index`` where it still holds; ``refresh`` reads single
files again; ``disk_sync`` owns the picture and keeps it current; ``followed`` keeps sets
current from a feed of change events; ``settings`` reads settings.yaml; ``watch_list`` says
which folders a watcher should watch.
"""
