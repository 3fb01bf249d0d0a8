"""Playing a game: bots and people at the table, one game to its end, records (replay,
resume)."""
