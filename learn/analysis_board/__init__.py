"""The analysis board's pages (issue 51): any position set up by hand, the expert's
answer from the seat's view and the exact table with every card known
(docs/analysis-board.md). ``answers`` is pure; the rest is Django's."""
