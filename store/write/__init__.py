"""A change, from the request to the commit.

``changes`` holds every change the store offers (create, edit, delete, move, undo…), each run
in one ``transaction``: take the lock, see the file as it is now, check it against the
``rules`` and the chat ``budget``, then hand it to ``store.durable.commit``.
``frontmatter_edit`` changes the frontmatter block as written.
"""
