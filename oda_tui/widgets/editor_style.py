"""How the memory editor draws its insides (its DEFAULT_CSS), kept beside it to keep it short."""

EDITOR_CSS = """
    MemoryEditor { height: 1fr; padding: 0 1; }
    /* Empty until a memory opens: the editor shows one or the other (_show_form). */
    MemoryEditor #editor-form { height: 1fr; display: none; }
    MemoryEditor #editor-empty { padding: 1; color: $text-muted; }
    MemoryEditor #editor-heading { height: 1; text-style: bold; text-wrap: nowrap; text-overflow: ellipsis; }
    MemoryEditor.-dirty #editor-heading { color: $warning; }
    MemoryEditor .field-head { height: 1; }
    MemoryEditor .field-label { width: 1fr; color: $text-muted; }
    MemoryEditor .counter { width: auto; color: $text-muted; }
    MemoryEditor .counter.-over { color: $error; text-style: bold; }
    MemoryEditor #meta-row { height: auto; }
    MemoryEditor #enabled, MemoryEditor #enabled:focus { border: none; height: 1; padding: 0; width: auto; }
    MemoryEditor #enabled:focus { background-tint: $foreground 15%; }
    MemoryEditor #enabled-label { width: 4; margin: 0 1; }
    MemoryEditor #meta { width: 1fr; height: auto; color: $text-muted; }
    MemoryEditor #text { height: 1fr; min-height: 3; }
    MemoryEditor #validation { display: none; height: auto; color: $error; text-style: bold; }
    MemoryEditor #validation.-shown { display: block; }
    MemoryEditor #frontmatter { display: none; }
    MemoryEditor.-raw #frontmatter { display: block; }
    MemoryEditor.-raw #title-head, MemoryEditor.-raw #title, MemoryEditor.-raw #meta-row { display: none; }
    MemoryEditor #enabled-note { color: $text-muted; width: 1fr; }
    MemoryEditor.-new #enabled-note { display: none; }
    MemoryEditor #tokens { color: $text-muted; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
"""
