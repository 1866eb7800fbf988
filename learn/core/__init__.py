"""The trainer's pure core: positions and their analysis as data, themes, explanations,
grades and sampled lines. No Django, no view, no I/O: every page, the bank and the review
of a player's own rounds stand on it (pyproject.toml's import contracts keep it so).
"""
