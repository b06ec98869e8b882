"""Files written whole or not at all (a temporary file in the same folder, then one rename), with
the permissions every other tool gives a new file (0666 less the umask, usually 0644), and one
writer at a time per report (`Lock`)."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(path: Path | str, text: str | bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())   # mkstemp makes 0600; a report is an ordinary file
        with os.fdopen(fd, "wb" if isinstance(text, bytes) else "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def alive(pid: int) -> bool:
    """Whether a process of this id runs (a folder or lock named by a dead one is stale)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Busy(ValueError):
    """Another run holds the lock of the file this run would write."""


class Lock:
    """One writer at a time for `path` (a report, a validation's folder): an exclusive fcntl lock
    on `<path>.lock` beside it, holding the holder's pid. The kernel drops the lock when its
    process ends, however it ends, so a lock left by a dead run is simply taken over; a live
    holder makes the second run refuse at once, naming the holder."""

    def __init__(self, path: Path | str, what: str = "run"):
        self.path = Path(path)
        self.file = self.path.with_name(self.path.name + ".lock")
        self.what = what
        self.fd: int | None = None

    def __enter__(self) -> "Lock":
        self.file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.file, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            if e.errno in (errno.EAGAIN, errno.EACCES):
                raise Busy(f"another {self.what} (pid {holder}) is writing {self.path}; wait for it to end, "
                           f"or give this run another path") from None
            raise
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self.fd = fd
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            self.file.unlink(missing_ok=True)
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


def read_json_file(path: str | Path, what: str) -> Any:
    """A JSON file's value. A path that is no regular file (a FIFO would block for ever, a device
    never end) and a value nested too deeply to read are errors naming the file."""
    path = Path(path)
    if path.exists() and not path.is_file():
        raise ValueError(f"{path} is not a regular file, so it is no {what}")
    try:
        return json.loads(path.read_text())
    except RecursionError:
        raise ValueError(f"{path} is nested too deeply to be a {what}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not JSON (not UTF-8 text)") from None
