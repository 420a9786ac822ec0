"""The main screen's widgets; each declares the messages it posts."""
