"""The chordal ring's own section of docs/chordal_ring.md (checks.docs fills the generic ones,
comparing the key readings `corrected` and `literal`):

    choices   what reading the printed pseudocode took (spelling and parentheses only) and every
              choice the text leaves open that this project made alike in every reading, both
              from spec.chordal_ring, so that the page cannot drift from the model
"""

from __future__ import annotations

from checks.docs import DocsContext
from spec import chordal_ring as C


def sections(ctx: DocsContext) -> dict[str, str]:
    repairs = "\n".join(f"- {text}" for text in C.PARSE_REPAIRS)
    choices = "\n".join(f"- {text}" for text in C.CHOICES)
    return {"choices": "### Repairs needed to read the printed pseudocode (the literal reading's only ones)\n\n"
                       f"{repairs}\n\n### Choices the text leaves open, made alike in every reading\n\n{choices}"}
