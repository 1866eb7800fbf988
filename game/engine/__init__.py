"""The rules of house Smear in pure Python: no Django, no I/O, randomness only from an
injected ``random.Random``."""
