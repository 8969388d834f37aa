"""Errors that reach the user as one clear line (exit status 2)."""


class SimcardsError(Exception):
    """A user mistake: bad input, an unknown name, an unusable folder.

    The CLI prints ``error: <message>`` and exits with status 2, never a traceback.
    """
