"""The review of a player's own rounds: each decision of theirs in a finished round, analysed
from their seat's view alone and graded (``decisions``, pure), worked on the task queue
(``tasks``, with the worker's heartbeat and periodic work in ``worker``), asked for and
practised (``services``), read (``selectors``) and shown (``presenters``, ``views``). Its models
(``RoundReview``, ``WorkerBeat``) are in ``learn.models``, where Django finds them.
"""
