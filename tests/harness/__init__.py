"""The reliability harness: kills, races, faults, fuzzing, hostile trees."""
