"""Live play: each table's owner in this process (``store``), what a change tells the
rest of the site (``events``), the redraw of every seat's page (``redraw``) from the
table's parts (``parts``), the socket (``consumers``, ``routing``), the plain SQL of the
hot path (``sql``), and the bots' timetable (``bot_runner``, ``turns``, ``workers``).
Nothing here is imported by the engine or the bots."""
