"""The algorithms a test runs over: every declaration the engines discover, with the suite's fixture
(tests/tokenring) plugged in the way a user's plug-in is (PUBSUB_PROOFS_PLUGINS). Tests that hold for
every algorithm are parametrised over these names, so a new algorithm is tested by being declared,
with no test file edited."""

from __future__ import annotations

import os

from checks import plugin

FIXTURES = ("tokenring",)


def algorithms() -> dict[str, plugin.Algorithm]:
    """Every discovered algorithm and the fixture, by name."""
    before = os.environ.get(plugin.PLUGINS_VARIABLE)
    os.environ[plugin.PLUGINS_VARIABLE] = ",".join(filter(None, [before, *FIXTURES]))
    try:
        return plugin.algorithms()
    finally:
        if before is None:
            del os.environ[plugin.PLUGINS_VARIABLE]
        else:
            os.environ[plugin.PLUGINS_VARIABLE] = before


def names() -> list[str]:
    return sorted(algorithms())
