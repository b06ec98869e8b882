import os
import sys

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

# the suite's processes collect cycles as the CLI's do (spark_validation.collector)
from spark_validation.collector import collect_less  # noqa: E402

collect_less()


@pytest.fixture(scope="session")
def spark():
    """One local[2] session for every Spark test (starting one costs seconds)."""
    from spark_validation.runner import spark_session

    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = spark_session("local[2]", app="pubsub-proofs-tests")
    yield session
    session.stop()


@pytest.fixture
def fresh_z3():
    """The test's Z3 work in a fresh main context, as the engine runs every Z3 check: which model
    Z3 gives, and whether a quantified query is answered within its timeout, depend on every term
    the process made before, and under pytest-xdist that is whichever tests the worker ran first
    (a CTI hunt once came back empty in CI, 1 run of 4, passing alone)."""
    from checks.smt import fresh_context

    with fresh_context():
        yield


# The fixture algorithm (tests/tokenring) is imported as `tokenring`: Spark's Python workers and
# the CLI in a subprocess find it through PYTHONPATH, as a user's plug-in would be found.
TESTS = os.path.dirname(os.path.abspath(__file__))
if TESTS not in os.environ.get("PYTHONPATH", "").split(os.pathsep):
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (TESTS, os.environ.get("PYTHONPATH")) if p)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


def pytest_ignore_collect(collection_path, config):
    """Under `make mutation`, only the test files checks.mutation selected (its variable, a
    comma-separated list of file names) are collected."""
    from checks.mutation import SELECTION_VARIABLE

    chosen = os.environ.get(SELECTION_VARIABLE)
    if chosen and collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        return collection_path.name not in chosen.split(",")
    return None


def pytest_collection_modifyitems(session, config, items):
    """The tests marked `long(seconds)` first, longest first (the rest after them, in collected
    order): on several workers (make test) the long ones then run side by side from the start
    instead of leaving one worker busy at the end. The seconds are rough, for this order only."""
    def seconds(item) -> float:
        mark = item.get_closest_marker("long")
        if mark is None:
            return 0.0
        if len(mark.args) != 1 or not isinstance(mark.args[0], (int, float)) or mark.kwargs:
            raise pytest.UsageError(f"{item.nodeid}: write @pytest.mark.long(seconds), not {mark}")
        return mark.args[0]
    items.sort(key=lambda item: -seconds(item))
