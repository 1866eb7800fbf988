"""Services: the only code that writes game data. Keyword-only, named <thing>_<verb>.

``play`` (tables in play: dealing, moves, bots' moves, rematches) and ``lobby`` (tables
with friends before the start); a player's profile is written by ``game.players.profiles``.
Every stored change is announced through ``game.events`` once it commits.
"""
