"""What ``python -m starling`` reads, writes and says: inputs files, the
output file (written whole or not at all, as ``starling prove`` writes it),
the lines and the shards' bar on stderr, and the failures it ends with."""

from __future__ import annotations

import logging
import os
import secrets
import signal
import stat
import sys
from pathlib import Path
from types import FrameType, TracebackType


class Failure(Exception):
    """The command fails with ``message`` and exit code ``code``."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class Interrupted(BaseException):
    """SIGINT or SIGTERM, raised where the main thread is: the command stops,
    and ``Output`` removes its temporary file on the way out. A
    ``BaseException``, as ``KeyboardInterrupt`` is, so that no ``except
    Exception`` takes it for a failure to handle."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.name = signal.Signals(signum).name
        self.code = 128 + signum

    @classmethod
    def raise_for(cls, signum: int, _frame: FrameType | None) -> None:
        """The signal handler."""
        raise cls(signum)


def read_text(path: str) -> tuple[str, str]:
    """The text of the inputs file ``path`` (``-``: stdin) and how messages
    name it. Not UTF-8: the line and byte, as the command line says."""
    name = "stdin" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise Failure(2, f"cannot read {name}: {e.strerror}") from None
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        byte = e.start - line_start + 1
        raise Failure(2, f"{name}: line {line}: byte {byte} is not UTF-8 text (0x{data[e.start]:02x})") from None


class Output:
    """``--out``, written whole or not at all: a temporary file beside it,
    made before proving (so an ``--out`` that cannot be written fails at
    once, not after a proof of minutes), renamed over it once all is
    written, removed if the command stops first. ``--out`` must be a
    regular file or missing, and none of the inputs."""

    def __init__(self, path: str, inputs: list[str]) -> None:
        self.path = Path(path)
        for given in inputs:
            if self.path.exists() and os.path.samefile(self.path, given):
                raise Failure(2, f"--out {path} is the same file as the input {given}; choose another output path")
        self._check_replaceable()
        # A name no one can guess, created only if nothing is there (so a
        # link planted at it is never written through), with the mode a new
        # file gets.
        self.tmp = self.path.with_name(f".{self.path.name}.{secrets.token_hex(8)}.tmp")
        try:
            fd = os.open(self.tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except OSError as e:
            raise Failure(2, f"cannot write {path}: {e.strerror}") from None
        self.file = os.fdopen(fd, "wb")

    def __enter__(self) -> Output:
        return self

    def commit(self, data: bytes) -> None:
        """Writes ``data`` and renames the file over ``--out``."""
        try:
            self.file.write(data)
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            # Checked again: the path may have been replaced while proving.
            self._check_replaceable()
            os.replace(self.tmp, self.path)
        except OSError as e:
            raise Failure(2, f"cannot write {self.path}: {e.strerror}") from None

    def __exit__(self, kind: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.file.close()
        self.tmp.unlink(missing_ok=True)

    def _check_replaceable(self) -> None:
        try:
            mode = os.lstat(self.path).st_mode
        except FileNotFoundError:
            return
        except OSError as e:
            raise Failure(2, f"cannot write {self.path}: {e.strerror}") from None
        if not stat.S_ISREG(mode):
            raise Failure(
                2,
                f"--out {self.path} is not a regular file (a device, FIFO, link or folder); write the proof to a file",
            )


class Status(logging.Handler):
    """What the command says on stderr as it goes (nothing with
    ``--quiet`` but its error): lines, the prover's phases, the shards' bar
    (``[####    ] 3/8 shards``, redrawn in place), and ``starling.dask``'s
    log (the dashboard's link, a shard proved again)."""

    WIDTH = 20

    def __init__(self, quiet: bool) -> None:
        super().__init__(logging.INFO)
        self.quiet = quiet
        self.bar = ""
        if not quiet:
            log = logging.getLogger("starling.dask")
            log.setLevel(logging.INFO)
            log.addHandler(self)

    def say(self, line: str) -> None:
        """Prints ``line`` above the bar."""
        if self.quiet:
            return
        clear = f"\r{' ' * len(self.bar)}\r" if self.bar else ""
        sys.stderr.write(f"{clear}{line}\n{self.bar}")
        sys.stderr.flush()

    def error(self, message: str) -> None:
        """The failure's one line, ``--quiet`` or not."""
        if self.bar:
            sys.stderr.write("\n")
        sys.stderr.write(f"error: {message}\n")

    def phase(self, name: str, done: int, total: int) -> None:
        """A prover phase done (``prove``'s ``progress``)."""
        self.say(f"{name} ({done}/{total})")

    def shards(self, done: int, total: int) -> None:
        """A shard proved and checked (``starling.dask.prove``'s ``progress``)."""
        if self.quiet:
            return
        filled = self.WIDTH * done // total
        self.bar = f"[{'#' * filled}{' ' * (self.WIDTH - filled)}] {done}/{total} shards"
        end = "\n" if done == total else ""
        sys.stderr.write(f"\r{self.bar}{end}")
        sys.stderr.flush()
        if done == total:
            self.bar = ""

    def emit(self, record: logging.LogRecord) -> None:
        self.say(record.getMessage())
