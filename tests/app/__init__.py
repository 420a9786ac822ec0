"""The app: Pilot tests, snapshots, and the real app in a pseudo-terminal."""
