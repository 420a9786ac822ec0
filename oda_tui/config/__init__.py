"""The person's configuration: where things live, themes and keys."""
