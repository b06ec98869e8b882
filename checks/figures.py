"""The figures' common ending: every picture this project draws (a counterexample's drawing, a
reproduced figure of a paper) is laid out, written and closed here, so that none is left open
(pyplot keeps every open figure) and a drawing carries nothing that varies between runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

# PNG text fields matplotlib would stamp: "Software" names its version, which would make the same
# drawing differ between machines
NO_STAMP = {"Software": None}


def pyplot():
    """matplotlib's pyplot on the Agg backend (files only: no display is needed or used)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig: Any, path: str | Path, dpi: int, tight: bool = False, metadata: dict | None = None) -> None:
    """Write `fig` to `path` as PNG at `dpi` (laid out tightly first if `tight`) and close it."""
    if tight:
        fig.tight_layout()
    fig.savefig(path, dpi=dpi, **({} if metadata is None else {"metadata": metadata}))
    pyplot().close(fig)
