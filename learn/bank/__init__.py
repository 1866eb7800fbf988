"""The trainer's bank: the generation loop that deals, plays and keeps positions, and the
JSON Lines file it appends to (``manage.py generate_positions``, ``load_positions``).
"""
