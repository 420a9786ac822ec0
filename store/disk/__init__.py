"""Going to the disk under the store root: no link followed, only regular files, every read bounded.

``safe_io`` opens folders and files relative to a descriptor of the root; ``atomic`` writes a
file a crash cannot tear; ``swap`` renames without losing what is replaced; ``layout`` says
where each thing lives and which names are ids and keys; ``config_files`` reads the app's own
settings, keymap and state files by the same rules.
"""
