"""Services: the only code that writes game data. Keyword-only, named <thing>_<verb>.

``play`` (tables in play: dealing, moves, bots' moves, rematches), ``lobby`` (tables with
friends before the start) and ``profiles``. Every stored change is announced through
``game.events`` once it commits.
"""
