"""Every action of the app in one registry, and what is built from it: bindings, palette, help."""
