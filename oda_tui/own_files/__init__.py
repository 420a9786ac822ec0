"""What the app keeps beside the store, never in the memory folder: its own files (drafts kept
on an outside exit, the review marks, the crash log, under the state folder) and the duplicate
groups as the app shows them. No Textual here."""
