"""The manifests are a regression test of the models: every algorithm's fast checks run here and
must give the pinned verdicts and exact state and case counts, and every scope's declared checks
are exactly the pinned ones (a model change is caught by `make test`, not only by `make check`)."""

import pytest

import tokenring
from checks import plugin, runner

ALGORITHMS = {**plugin.algorithms(), tokenring.ALGORITHM.name: tokenring.ALGORITHM}


def declared_keys(algorithm: plugin.Algorithm, scope: str) -> set[tuple[str, str, str]]:
    keys = {k for check in algorithm.checks(algorithm.scope(scope)) for k in check.keys()}
    if algorithm.spark is not None:
        keys |= {(*reversed(column.split(":")), "spark") for column in algorithm.spark.job().check_columns()}
    return keys


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_every_declared_check_is_pinned_and_every_pinned_check_is_declared(name):
    algorithm = ALGORITHMS[name]
    manifest = runner.load_manifest(algorithm)
    assert "default" in manifest
    for scope in manifest:
        assert declared_keys(algorithm, scope) == runner.manifest_keys(algorithm, scope), scope
        for entry in manifest[scope].values():
            assert entry["runtime"] in runner.RUNTIME_CLASSES and entry["method"] in ("z3", "exhaustive",
                                                                                       "hypothesis", "spark")


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_the_fast_checks_give_the_pinned_verdicts_and_counts(name, tmp_path):
    algorithm = ALGORITHMS[name]
    fast = runner.manifest_keys(algorithm, "default", runtime="fast")
    results, problems = runner.run([algorithm], report=tmp_path / "check.json", runtime="fast")
    assert problems == []
    assert {(r.property, r.reading, r.method) for r in results} >= fast
