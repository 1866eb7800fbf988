"""The bots' offline tools, run from the command line and never by the site: arena matches
between bots, the hand model's calibration against exact solves, and the record replay
command."""
