"""Page models: what each page of a table shows, in the site's words, a module per page:
``table_page`` (a table in play), ``summary`` (a finished round summed up),
``replay_page`` (the hand history), ``lobby_page`` (a table with friends), and the
``pieces`` they are all made of.

Pure: built from table and seat rows already read and from the engine's views, never
from a state's hidden parts. A seat's page is the table's public part plus that seat's own
``SeatView``, so it cannot show another seat's cards.
"""
