"""`make mutation` selects each algorithm's tests by their names (tests/test_<algorithm>*.py) and the
conformance tests, so that a new algorithm, the fixture included, edits no shared list."""

import os
import subprocess
import sys
from pathlib import Path

import discovered
from checks import mutation

TESTS = Path(__file__).resolve().parent


def test_each_discovered_algorithm_brings_its_own_tests_and_the_conformance_tests():
    chosen = mutation.selected_tests(TESTS, discovered.names())
    own = {p.name for name in discovered.names() for p in TESTS.glob(f"test_{name}*.py")}
    assert set(chosen) == own | set(mutation.CONFORMANCE)
    assert "test_tokenring_spec.py" in chosen and "test_lbdd_checks.py" in chosen
    assert "test_cli.py" not in chosen and "test_spark.py" not in chosen
    assert mutation.selected_tests(TESTS, ["tokenring"]) == sorted(["test_tokenring_spec.py", *mutation.CONFORMANCE])


def test_the_conftest_collects_only_the_selected_files():
    env = {**os.environ, mutation.SELECTION_VARIABLE: "test_tokenring_spec.py,test_generators.py"}
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", str(TESTS)],
                         capture_output=True, text=True, env=env, cwd=TESTS.parent).stdout
    files = {line.split("::")[0] for line in out.splitlines() if "::" in line}
    assert files == {"tests/test_tokenring_spec.py", "tests/test_generators.py"}
