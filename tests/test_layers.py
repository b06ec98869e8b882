"""Imports run one way: spec, then reference, then spark_validation, then checks; and no engine
imports an algorithm's declaration (the contracts in .importlinter, checked by import-linter)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_layer_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--config", str(ROOT / ".importlinter")], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "2 kept, 0 broken" in done.stdout


def test_the_engines_contract_names_every_engine_module():
    """Every module of checks/ but the declarations is an engine, and the contract lists each (a new
    engine module left off the list would be free to import an algorithm)."""
    config = (ROOT / ".importlinter").read_text()
    listed = config.split("[importlinter:contract:engines]")[1].split("source_modules =")[1].split("forbidden_modules")[0]
    modules = {f"checks.{p.stem}" for p in (ROOT / "checks").glob("*.py") if p.stem != "__init__"}
    assert set(listed.split()) == modules
