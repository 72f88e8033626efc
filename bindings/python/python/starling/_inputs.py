"""Records given in Python, as the inputs text the command line reads.

One record is one line of that text, so Starling's one parser reads both
and its errors name the line (1-based, as in a file). A record is a ``str``
(the line itself), a bytes-like value (a line of one hex field: a message,
a leaf, a Keccak-f state) or a tuple of fields in the line's order, each a
bytes-like value (hex), an ``int`` (decimal) or a ``str`` (as given). An
empty bytes-like field is written ``-``, as the text writes an empty
message.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import Unreadable

Field = bytes | bytearray | memoryview | int | str
Record = str | bytes | bytearray | memoryview | tuple[Field, ...]
Inputs = str | Iterable[Record]


def inputs_text(inputs: Inputs) -> str:
    """The inputs text of ``inputs``: a ``str`` as it is, records a line each."""
    if isinstance(inputs, str):
        return inputs
    if isinstance(inputs, (bytes, bytearray, memoryview)):
        raise TypeError("inputs: give the inputs text as a str, or an iterable of records")
    return "".join(_line(number, record) + "\n" for number, record in enumerate(inputs, 1))


def _line(number: int, record: Record) -> str:
    if isinstance(record, str):
        line = record
    elif isinstance(record, tuple):
        line = " ".join(_field(number, f) for f in record)
    else:
        line = _field(number, record)
    if "\n" in line or "\r" in line:
        raise Unreadable(f"line {number}: a record is one line")
    return line


def _field(number: int, field: Field) -> str:
    if isinstance(field, (bytes, bytearray, memoryview)):
        return bytes(field).hex() or "-"
    if isinstance(field, bool) or not isinstance(field, (int, str)):
        raise TypeError(f"line {number}: a field is bytes, an int or a str, not {type(field).__name__}")
    return str(field)
