"""Counterexample files: JSON written once, replayed step by step, drawn where the algorithm can.

Every file names its algorithm; `replay` hands it to that algorithm's declaration
(checks.plugin.Algorithm.replay), which rebuilds the scenario from the spec, prints each step and
says whether the recorded violation reproduces, and may offer a drawing of it.
"""

from __future__ import annotations

from checks.files import read_json_file, write_atomically

import hashlib
import json
import os
from pathlib import Path
from typing import Any


def store(doc: dict[str, Any], folder: Path, staged: Path | None = None) -> str:
    """Write `doc` under folder/<algorithm>/ with a stable name (its content's digest); returns
    the path. With `staged`, the file is written under that folder instead, named and returned as
    it will be once the run commits (checks.runner.Staging)."""
    name = "-".join(str(doc[k]) for k in ("method", "reading", "property")).replace("/", "+")  # one file, no folders
    digest = hashlib.sha1(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:8]
    path = folder / doc["algorithm"] / f"{name}-{digest}.json"
    target = path if staged is None else staged / doc["algorithm"] / path.name
    target.parent.mkdir(parents=True, exist_ok=True)
    doc = {**doc, "replay": f"pubsub-proofs replay {path}"}
    write_atomically(target, json.dumps(doc, indent=2) + "\n")
    return str(path)

def load(path: str | Path) -> dict[str, Any]:
    try:
        doc = read_json_file(path, "counterexample")
    except FileNotFoundError:
        raise ValueError(f"no counterexample file {path}") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not JSON: {e}") from None
    if not isinstance(doc, dict) or "algorithm" not in doc or "property" not in doc:
        raise ValueError(f"{path} is not a counterexample (needs 'algorithm' and 'property')")
    return doc


def check_output_path(path: str | Path, option: str) -> Path:
    """Refuse, before any work, an output path that is a folder or cannot be written: its folder
    is made (it will be needed) and a scratch file is created there and removed."""
    import tempfile

    path = Path(path)
    if str(path) in ("", "."):
        raise ValueError(f"{option} needs a file path, not {str(path)!r}")
    if path.is_dir():
        raise ValueError(f"{option} {str(path)!r} is a folder; give a file path")
    if path.exists() and not path.is_file():   # a device or a pipe: the output would replace it
        raise ValueError(f"{option} {str(path)!r} is not a regular file; give a file path")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".probe-"):
            pass
        if path.exists() and not os.access(path, os.W_OK):
            raise PermissionError(f"{path} is read-only")
    except OSError as e:
        raise ValueError(f"{option} {str(path)!r} cannot be written ({e.strerror or e})") from None
    return path


def replay(path: str | Path, say=print, png: str | None = None) -> bool:
    """Replay a counterexample; True when the recorded violation reproduces. With `png`, draw it
    there, or say (an error, exit 2) that its algorithm cannot draw this kind of counterexample."""
    from checks import plugin

    doc = load(path)
    for field in ("algorithm", "property", "reading", "method"):
        if not isinstance(doc.get(field), str):
            raise ValueError(f"{path}: {field!r} must be text, not {doc.get(field)!r}")
    if png:
        check_output_path(png, "--png")
    declaration = plugin.algorithm(doc["algorithm"])

    def replayed_with(say_line):
        try:
            return declaration.replay(doc, say_line)
        except (KeyError, IndexError, TypeError, AttributeError) as e:  # a field missing or of the wrong kind
            raise ValueError(f"{path}: not a well-formed {doc['algorithm']} counterexample "
                             f"({type(e).__name__}: {e})") from None

    if png and replayed_with(lambda line: None).draw is None:   # refuse before printing anything
        raise ValueError(f"{path}: {doc['algorithm']} cannot draw this counterexample "
                         f"({doc.get('kind', doc.get('method'))}); replay it without --png")
    replayed = replayed_with(say)
    if png:
        replayed.draw(png, f"{doc['algorithm']} {doc['reading']}: {doc['property']}")
        say(f"drawn to {png}")
    return replayed.reproduced
