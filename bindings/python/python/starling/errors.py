"""The exceptions Starling raises, split as the command line's exit codes are.

``Rejected`` (exit 1): the proof does not prove the expected statement, or
there is nothing to prove (a signature that does not verify).
``Unreadable`` (exit 2): a malformed proof file, inputs text or parameter;
it is also a ``ValueError``.
A bare ``Error`` (exit 3) is a bug in Starling; its message says so.
"""


class Error(Exception):
    """Anything Starling refuses or fails at."""


class Rejected(Error):
    """The proof does not prove the expected statement (the message names
    the first difference or the failed check), or the statement to prove is
    false."""


class Unreadable(Error, ValueError):
    """A proof file, inputs text or parameter that cannot be read."""
