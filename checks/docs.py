"""`pubsub-proofs docs`: regenerate the generated sections of docs/ from the check report.

Every declared algorithm (checks.plugin) has a page, docs/<docs_page or name>.md: prose written
by hand with generated sections between markers

    <!-- generated:NAME -->  ...  <!-- /generated:NAME -->

Only the text between a pair of markers is replaced; everything else is kept as written, so the
prose stays editable and the numbers cannot drift from reports/check.json. A marker pair missing
from a page is appended at its end; a page that does not exist starts from its title.

Every algorithm gets these sections, made here from its declaration and its records:
    readings   its named readings (`Algorithm.readings`), what each does and its field values
    claims     every claim with its combined verdict per reading (checks/claims.py), and the
               counterexample of each failing reading with its replay command and file
    verdicts   every check record: method, scope, cases, states, the runtime class the manifest pins
    errata     every claim that fails under a key reading, with its counterexample
and its own sections, `Algorithm.docs(ctx)` (a `DocsContext` -> {marker: markdown}), which may
replace a generic one (a section given as None is not written) and, being made first, may name
the key readings the generic sections compare (the catalogue's `key`). docs/README.md indexes the
pages. Paths are those of the project the command runs in (the current directory): the report,
its counterexamples and reproductions, and docs/ unless another folder is given.

Reproductions cache their numbers beside the report against `source_fingerprint` of the code
that makes them, so regenerating the docs recomputes nothing while that code is unchanged.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import os
import re
import tokenize
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable

import attrs

from checks.files import write_atomically
from checks import counterexample, plugin
from checks.claims import FAILS, NOT_CHECKABLE, load_report, properties_table, sentences_table, shown
from checks.verdict import METHODS

PACKAGE_ROOT = Path(__file__).resolve().parents[1]   # the folder holding the `checks` package


# --------------------------------------------------------------------------------------------
# Markers: replace generated blocks, keep the prose
# --------------------------------------------------------------------------------------------

def markers(name: str) -> tuple[str, str]:
    return f"<!-- generated:{name} -->", f"<!-- /generated:{name} -->"


def fill_sections(text: str, sections: dict[str, str]) -> str:
    """`text` with the body of every generated block replaced; missing blocks are appended."""
    for name, body in sections.items():
        start, end = markers(name)
        if text.count(start) > 1 or text.count(end) > 1 or text.count(start) != text.count(end):
            raise ValueError(f"the generated section {name!r} must appear once, between {start} and {end}")
        block = f"{start}\n{body.strip()}\n{end}"
        if start in text:
            if text.index(end) < text.index(start):
                raise ValueError(f"{end} comes before {start}")
            text = re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _: block, text, flags=re.S)
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
    return text


def write_sections(path: Path, title: str, sections: dict[str, str]) -> str:
    text = path.read_text() if path.exists() else f"# {title}\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, fill_sections(text, sections))
    return str(path)


# --------------------------------------------------------------------------------------------
# Small formatting helpers
# --------------------------------------------------------------------------------------------

def pct(fraction: float) -> str:
    return f"{100 * fraction:.1f}%".replace(".0%", "%")


def cell(text: Any) -> str:
    """Markdown table cells cannot hold pipes or newlines."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def shortened(items: list[str], keep: int = 6) -> str:
    """A list for a sentence: statistical counterexamples keep 100+ subscribers after shrinking."""
    if not items:
        return "none"
    more = f" and {len(items) - keep} more" if len(items) > keep else ""
    return ", ".join(items[:keep]) + more


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


# --------------------------------------------------------------------------------------------
# Reproduction caches
# --------------------------------------------------------------------------------------------

def _source(module: str | Path) -> str:
    if isinstance(module, Path):
        return module.read_text()
    found = importlib.util.find_spec(module)
    if found is None or not found.origin or not found.origin.endswith(".py"):
        raise ValueError(f"no Python source for module {module!r}")
    if found.submodule_search_locations:   # a package: every module of it, by name
        folder = Path(found.origin).parent
        return "".join(p.read_text() for p in sorted(folder.rglob("*.py")))
    return Path(found.origin).read_text()


def code_only(source: str) -> str:
    """The source without what cannot change a result: comments, docstrings, blank lines and
    trailing spaces. Computed from the text (not from the syntax tree's dump, which changes
    between Python versions), so a fingerprint is the same on every machine."""
    import ast

    lines = source.splitlines()
    drop: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str) and first.end_lineno is not None:
                drop.update(range(first.lineno, first.end_lineno + 1))
    comments: dict[int, int] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.start[1]
    kept = []
    for number, line in enumerate(lines, start=1):
        if number in drop:
            continue
        line = line[:comments[number]] if number in comments else line
        if line.strip():
            kept.append(line.rstrip())
    return "\n".join(kept) + "\n"


def source_fingerprint(*modules: str | Path) -> str:
    """A digest of the code of `modules` (module names, or source files), comments and docstrings
    left out: what a reproduction's cache is keyed on. Name every module whose code can change
    the numbers (the algorithm's spec and reference, the seeded generators, the reproduction
    itself) and no other, so that an edit elsewhere does not make a fresh clone recompute."""
    h = hashlib.sha256()
    for module in modules:
        h.update(code_only(_source(module)).encode())
    return h.hexdigest()[:16]


# --------------------------------------------------------------------------------------------
# What an algorithm's sections are made from
# --------------------------------------------------------------------------------------------

@attrs.define
class DocsContext:
    """One algorithm's page: its declaration, its records of the report (and its manifest
    differences), its entries of the claims table, where the docs and the report are, and the
    options `generate` was given (e.g. a reproduction's size). Sections report the files they
    write with `wrote(...)` and the data files they read with `source(...)`."""

    algorithm: plugin.Algorithm
    report: dict[str, Any]
    report_path: Path
    entries: list[dict[str, Any]]
    docs_dir: Path
    root: Path
    options: dict[str, Any] = attrs.Factory(dict)
    written: list[str] = attrs.Factory(list)
    sources: list[str] = attrs.Factory(list)
    drawn: list[Path] = attrs.Factory(list)     # the counterexample pictures this run drew

    # the helpers every section uses
    table = staticmethod(table)
    pct = staticmethod(pct)
    cell = staticmethod(cell)
    plural = staticmethod(plural)
    shortened = staticmethod(shortened)

    @property
    def name(self) -> str:
        return self.algorithm.name

    def claim(self, name: str):
        """The spec's property of this algorithm (its claim, its `explain` of a failure)."""
        return next(p for p in self.algorithm.properties() if p.name == name)

    @property
    def records(self) -> list[dict[str, Any]]:
        return self.report["results"]

    @property
    def figures_dir(self) -> Path:
        return self.docs_dir / "figures"

    def reproduction_path(self, stem: str | None = None) -> Path:
        """Where a reproduction's numbers are cached: beside the report."""
        return self.report_path.parent / f"{stem or self.name}-reproduction.json"

    def wrote(self, *paths: str | Path) -> None:
        self.written += [str(p) for p in paths]

    def source(self, path: str | Path) -> str:
        """Record a data file the page is generated from; returns how the page names it."""
        shown = self.shown(path)
        if shown not in self.sources:
            self.sources.append(shown)
        return shown

    def resolve(self, path: str | Path) -> Path:
        """Report paths are relative to the directory `make check` ran in: the project's root."""
        p = Path(path)
        return p if p.is_absolute() else self.root / p

    def shown(self, path: str | Path) -> str:
        """A path as the page names it: relative to the project, or to the folder that holds the
        installed packages (a module or manifest), else as given."""
        p = Path(path)
        for base in (self.root, PACKAGE_ROOT):
            if p.is_absolute() and _inside(p, base):
                return p.resolve().relative_to(base.resolve()).as_posix()
        return str(path)

    def module_path(self, module: str) -> str:
        """A module as the page names its file: `spec.x` as `spec/x.py`, a package as its folder
        (`spec/x/`)."""
        found = importlib.util.find_spec(module)
        if found is None or not found.origin:
            return module
        if found.submodule_search_locations:
            return self.shown(str(Path(found.origin).parent)).rstrip("/") + "/"
        return self.shown(found.origin)

    def link_suffix(self, path: str | None) -> str:
        """", [file](RELATIVE)" for a file inside the project, linked from the docs folder, else ""."""
        if not path:
            return ""
        file = self.resolve(path)
        if not (_inside(file, self.root) and _inside(self.docs_dir, self.root)):
            return ""
        return f", [file]({Path(os.path.relpath(file.resolve(), self.docs_dir.resolve())).as_posix()})"

    def load_counterexample(self, path: str) -> dict[str, Any]:
        return counterexample.load(self.resolve(path))

    @property
    def pictures_dir(self) -> Path:
        return self.figures_dir / "counterexamples" / self.name

    def picture(self, path: str) -> str:
        """A counterexample drawn (its algorithm's replay) to figures/counterexamples/<algo>/, and
        " Picture: [name](link)." for the page; one sentence saying why where it cannot be drawn."""
        file = self.resolve(path)
        png = self.pictures_dir / f"{file.stem}.png"
        png.parent.mkdir(parents=True, exist_ok=True)
        try:
            counterexample.replay(file, say=lambda line: None, png=str(png))
        except ValueError as e:
            return f" No picture ({e})."
        self.drawn.append(png)
        self.wrote(png)
        return f" Picture: [{png.name}]({Path(os.path.relpath(png.resolve(), self.docs_dir.resolve())).as_posix()})."

    def remove_undrawn(self) -> None:
        """Pictures of counterexamples no erratum shows any more are removed."""
        if self.pictures_dir.is_dir():
            for png in self.pictures_dir.glob("*.png"):
                if png not in self.drawn:
                    png.unlink()

    @property
    def key_readings(self) -> list[str]:
        """The readings the claims table and the errata compare side by side: the catalogue's key
        readings (e.g. a corrected and a literal reading), else those under which every claim with
        a record was checked, in the catalogue's order."""
        if self.algorithm.readings.key:
            return list(self.algorithm.readings.key)
        checked = [set(e["readings"]) for e in self.entries if e["readings"]]
        if not checked:
            return []
        common = set.intersection(*checked)
        order = self.algorithm.readings.names()
        return sorted(common, key=lambda r: (order.index(r) if r in order else len(order), r))

    # the generic sections, for an algorithm's own docs to reuse or vary
    def readings_section(self) -> str:
        return readings_section(self)

    def claims_section(self) -> str:
        return claims_section(self)

    def verdicts_section(self) -> str:
        return verdicts_section(self)

    def errata_section(self, summarise: Callable[[str, dict[str, Any]], str] | None = None,
                       unchecked_note: str = "") -> str:
        return errata_section(self, summarise, unchecked_note)


# --------------------------------------------------------------------------------------------
# The sections every algorithm gets
# --------------------------------------------------------------------------------------------

SCALARS = (str, int, float, bool, Fraction, type(None))


def _plain(value: Any) -> bool:
    return isinstance(value, SCALARS) or (isinstance(value, tuple) and all(isinstance(v, SCALARS) for v in value))


def _shown_value(value: Any) -> str:
    if value is None:
        return "-"
    return ", ".join(map(str, value)) if isinstance(value, tuple) else str(value)


def reading_fields(readings: list[Any], described: list[str]) -> list[str]:
    """The fields of the readings for the table: those (other than the name) that every reading
    has as a plain value, less one that only repeats what `describe` says and those left out of a
    reading's equality (where the catalogue checks it, not what it is)."""
    if not readings or not all(attrs.has(type(r)) for r in readings) or len({type(r) for r in readings}) > 1:
        return []
    return [f.name for f in attrs.fields(type(readings[0]))
            if f.name != "name" and f.eq and all(_plain(getattr(r, f.name)) for r in readings)
            and [getattr(r, f.name) for r in readings] != described]


def readings_section(ctx: DocsContext) -> str:
    catalogue = ctx.algorithm.readings
    readings = [catalogue[n] for n in catalogue.names()]
    if not readings:
        return "No named readings."
    described = [catalogue.describe(r) for r in readings]
    fields = reading_fields(readings, described)
    base = readings[0]
    header = ["reading"] + (["what it does"] if any(described) else []) + fields
    rows = []
    for name, reading, text in zip(catalogue.names(), readings, described):
        values = [f"**{_shown_value(getattr(reading, f))}**" if getattr(reading, f) != getattr(base, f)
                  else _shown_value(getattr(reading, f)) for f in fields]
        rows.append([f"`{name}`"] + ([text] if any(described) else []) + values)
    what = ("what each does and its field values" if any(described) and fields
            else "what each does" if any(described) else "field values" if fields else "names")
    intro = f"Every named reading of `{ctx.module_path(ctx.algorithm.spec)}`: {what}"
    if fields:
        intro += f"; bold marks a departure from `{catalogue.names()[0]}`"
    return intro + ".\n\n" + table(header, rows)


def verdict_cell(combined: dict[str, Any] | None) -> str:
    if combined is None:
        return "not checked"
    if combined["verdict"] == FAILS:
        return f"**violated** ({combined['counterexample_method']})"
    return shown(combined)


def claims_section(ctx: DocsContext) -> str:
    report, key = ctx.report, ctx.key_readings
    mismatches = report.get("mismatches") or []
    lines = [f"From `{ctx.shown(ctx.report_path)}` (scope `{report.get('scope')}`, {len(report['results'])} check "
             f"records, {len(mismatches)} difference(s) from `{ctx.shown(ctx.algorithm.manifest)}`). Per reading: "
             "**violated** (some method found a counterexample), **proved** (Z3, the property itself for all sizes, with who confirmed Z3's answers: *Z3 and cvc5* where cvc5 gave the same answer to every query, checks.smt, *certified* where cvc5's own proof checker (unsat) and model checker (sat) accepted every answer too, `pubsub-proofs queries --certify`; lemmas proved with the step to the property checked only within a bound read **holds**), **holds** (up to "
             "the stated bounds, never more), **unknown** (undecided; *vacuous* where no run reached the "
             "property's witness). A claim is *ambiguous* when its verdict depends on the reading.", ""]
    rows = []
    for e in ctx.entries:
        readings = e["readings"]
        grouped: dict[str, list[str]] = {}
        for name, combined in readings.items():
            if name not in key:
                grouped.setdefault(shown(combined), []).append(name)
        rest = "; ".join(f"{verdict}: {', '.join(names)}" for verdict, names in grouped.items()) or "-"
        if not readings and e.get("why"):
            rest = f"not checked: {e['why']}"
        claim = e["claim"] + (f" (*this project's question, not a paper claim*: {e['question']})"
                              if e.get("question") else "")
        rows.append([f"`{e['property']}`", claim, *(verdict_cell(readings.get(r)) for r in key), rest,
                     f"**{e['overall']}**"])
    lines.append(table(["property", "paper claim", *key, "other readings" if key else "readings", "overall"], rows))
    lines += ["", "Counterexamples (the most convincing per reading: z3, then exhaustive, then hypothesis, "
                  "then spark); each replays step by step with the command shown.", ""]
    for e in ctx.entries:
        failing = [(name, c) for name, c in e["readings"].items() if c["verdict"] == FAILS]
        if not failing:
            continue
        lines.append(f"<details><summary><code>{e['property']}</code>: fails under {len(failing)} "
                     f"reading(s)</summary>\n")
        for name, c in failing:
            where = f"`{c['replay']}`" if c["replay"] else "no counterexample file"
            if c.get("evaluated_replay"):
                where += f"; the smallest at a size the paper evaluates: `{c['evaluated_replay']}`"
            lines.append(f"- `{name}` ({c['counterexample_method']}{ctx.link_suffix(c['counterexample'])}): {where}")
        lines.append("\n</details>\n")
    return "\n".join(lines)


def sentences_section(ctx: DocsContext) -> str | None:
    """Every claim sentence of the paper with one verdict (`pubsub-proofs claims --sentences`)."""
    rows = sentences_table(ctx.report_path, [ctx.algorithm])
    if not rows:
        return None
    counts = {v: sum(r["verdict"] == v for r in rows) for v in dict.fromkeys(r["verdict"] for r in rows)}
    lines = [f"Every sentence of the paper that states a fact, a number, a theorem, a figure or a property of "
             f"the algorithm ({len(rows)}: " + ", ".join(f"{n} {v}" for v, n in counts.items()) + "). A checked "
             "sentence is judged under each reading by the properties that judge it (violated if one of them is), "
             "and the readings that do what the printed text does decide: **violated** when they fail, with any "
             "repair that holds named beside them; **ambiguous** only where the text leaves a choice open (or "
             "was lost) and the readings it allows disagree. The table above gives every property per reading.", ""]
    body = []
    for r in rows:
        judged = (", ".join(f"`{name}` ({verdict})" for name, verdict in r["checked_by"].items())
                  if r["verdict"] != NOT_CHECKABLE else r["why"])
        judged = "; ".join(part for part in (judged, r["note"], r["reading"] and f"read as: {r['reading']}") if part)
        body.append([r["section"], r["text"], f"**{r['verdict']}**", judged])
    lines.append(table(["where", "the paper says", "verdict", "judged by"], body))
    return "\n".join(lines)


def verdicts_section(ctx: DocsContext) -> str:
    """Per property: a row per reading, a column per method, and each method's scope below."""
    from checks.runner import FAST_SECONDS, MEDIUM_SECONDS

    report = ctx.report
    by_property: dict[str, list[dict[str, Any]]] = {}
    for r in report["results"]:
        by_property.setdefault(f"{r['algorithm']}.{r['property']}", []).append(r)
    mismatches = report.get("mismatches") or []
    manifest = ctx.shown(ctx.algorithm.manifest)
    lines = ["Every record of the report. Each cell: verdict, cases (initial views, random examples, solver "
             f"queries or topologies), states explored, the runtime class the manifest pins (fast under "
             f"{FAST_SECONDS:g} s, medium under {MEDIUM_SECONDS:g} s, slow). "
             + ("Differences from the manifest: " + "; ".join(f"`{m}`" for m in mismatches)
                if mismatches else f"Every verdict and state count matches `{manifest}`."), ""]
    for prop, records in by_property.items():
        methods = sorted({r["method"] for r in records}, key=lambda m: METHODS.index(m) if m in METHODS else 9)
        cells: dict[str, dict[str, str]] = {}
        for r in records:
            verdict = f"**{r['verdict']}**" if r["verdict"] == "violated" else r["verdict"]
            sizes = [f"probability {r['probability']}" if r.get("probability") else "",
                     f"{r['cases']} cases" if r["cases"] else "",
                     f"{r['states']} states" if r["states"] is not None else "", r.get("runtime") or ""]
            cells.setdefault(r["reading"], {})[r["method"]] = f"{verdict} ({', '.join(x for x in sizes if x)})"
        rows = [[f"`{reading}`", *(by_method.get(m, "") for m in methods)] for reading, by_method in cells.items()]
        scopes = {m: list(dict.fromkeys(r["scope"] for r in records if r["method"] == m)) for m in methods}
        lines += [f"#### `{prop}`", "", f"> {records[0]['claim']}", "",
                  table(["reading", *methods], rows), "",
                  *[f"- {m} scope: {' / '.join(scopes[m])}" for m in methods], ""]
    return "\n".join(lines)


def record_detail(reading: str, combined: dict[str, Any]) -> str:
    """The generic summary of a counterexample: the detail line of the record that found it."""
    chosen = next((m for m in combined["methods"] if m["method"] == combined["counterexample_method"]
                   and m["verdict"] == "violated"), None)
    detail = (chosen or {}).get("detail") or "a violation"
    return detail[0].upper() + detail[1:] + ("" if detail.endswith(".") else ".")


def errata_section(ctx: DocsContext, summarise: Callable[[str, dict[str, Any]], str] | None = None,
                   unchecked_note: str = "") -> str:
    """Every claim that fails under a key reading (under any reading where no reading is key),
    with the most convincing counterexample of each. `summarise(reading, combined)` says what
    the counterexample shows; by default, the detail of the record that found it."""
    summarise = summarise or record_detail
    key = ctx.key_readings
    named = " and/or the ".join(f"`{r}`" for r in key)
    lines = [(f"Every claim that fails under the {named} reading" if key
              else "Every claim that fails under some reading")
             + ", with the most convincing counterexample of each (replay it to see every step).", ""]
    listed = 0
    for e in ctx.entries:
        if e.get("question"):  # not the paper's claim: never its erratum (listed after the errata)
            continue
        considered = key or list(e["readings"])
        failing = [r for r in considered if e["readings"].get(r, {}).get("verdict") == FAILS]
        if not failing:
            continue
        listed += 1
        others_fail = [n for n, c in e["readings"].items() if n not in considered and c["verdict"] == FAILS]
        others_hold = [n for n, c in e["readings"].items() if n not in considered and c["verdict"] != FAILS]
        under = (f"the {' and the '.join(failing)} reading{'s' if len(failing) > 1 else ''}" if len(failing) <= 2
                 else f"{len(failing)} readings")
        lines += [f"#### `{e['property']}`: fails under {under}", "", f"> {e['claim']}", ""]
        for name in failing:
            c = e["readings"][name]
            shown = (f"by counting: {c['counting']}, wherever its premise holds, as it does under this reading. "
                     "Found" if c.get("counting") else "found")
            lines.append(f"- `{name}`, {shown} by {c['counterexample_method']}: {summarise(name, c)}"
                         + (f" Replay: `{c['replay']}`." if c["replay"] else "")
                         + (ctx.picture(c["counterexample"]) if c.get("counterexample") else "")
                         + (f" The smallest at a size the paper evaluates: `{c['evaluated_replay']}`."
                            if c.get("evaluated_replay") else ""))
        if others_fail or others_hold:
            lines.append("- Other readings: " + "; ".join(
                f"{label} {', '.join(names)}" for label, names in
                (("also fails under", others_fail), ("does not fail under", others_hold)) if names) + ".")
        lines.append("")
    if not listed:
        lines.append(f"No claim fails under the {named} reading." if key
                     else "No claim fails under any reading.")
    questions = [e for e in ctx.entries if e.get("question") and e["readings"]]
    if questions:
        lines += ["", "This project's questions, not the paper's claims (a violation here is no erratum): "
                  + "; ".join(f"`{e['property']}` is {e['overall']} ({e['question']})" for e in questions) + ".", ""]
    unchecked = [e for e in ctx.entries if not e["readings"]]
    if unchecked:
        names = ", ".join(f"`{e['property']}`" for e in unchecked)
        lines.append(f"Not checked by this report: {names} (no method wrote a record for them{unchecked_note})."
                     + "".join(f" `{e['property']}`: {e['why']}." for e in unchecked if e.get("why")))
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# The index, and the entry point
# --------------------------------------------------------------------------------------------

def _heading(page: Path, default: str) -> str:
    return next((line.lstrip("# ").strip() for line in page.read_text().splitlines() if line.startswith("# ")),
                default)


def index_section(docs_dir: Path, pages: list[tuple[Path, str]], sources: list[str]) -> str:
    listed = [f"- [{page.name}]({page.name}): {_heading(page, title)}" for page, title in
              sorted(pages, key=lambda p: p[0].name) if page.exists()]
    figures = [f"- [figures/{f.name}](figures/{f.name})" for f in sorted((docs_dir / "figures").glob("*.png"))]
    used = [f"`{s}`" for s in sources]
    named = used[0] if len(used) == 1 else ", ".join(used[:-1]) + " and " + used[-1]
    return "\n".join(["Pages:", "", *(listed or ["- none"]), "", "Figures:", "", *(figures or ["- none"]), "",
                      f"Generated from {named} by `pubsub-proofs docs`."])


def only_algorithm(report: dict[str, Any], algorithm: str) -> dict[str, Any]:
    """The report restricted to one algorithm's records (and its manifest differences)."""
    return {**report, "results": [r for r in report["results"] if r["algorithm"] == algorithm],
            "mismatches": [m for m in report.get("mismatches") or [] if m.startswith(algorithm + "/")]}


def page_path(docs_dir: Path, algorithm: plugin.Algorithm) -> Path:
    return docs_dir / f"{algorithm.docs_page or algorithm.name}.md"


def generate(report_path: str | Path = "reports/check.json", docs_dir: Path | str | None = None,
             algorithms: Iterable[plugin.Algorithm] | None = None, **options: Any) -> list[str]:
    """Regenerate the generated sections of every algorithm's page, its figures and docs/README.md.

    Paths are the current directory's project: the report (relative to it unless absolute) and
    docs/ unless `docs_dir` is given. By default every declared algorithm with records in the
    report gets its page; `algorithms` names them instead (each then gets a page, records or
    not). `options` reach the algorithms' sections (`ctx.options`). Returns the files written.
    """
    root = Path.cwd()
    report_path = Path(report_path)
    full = load_report(report_path)
    docs_dir = root / "docs" if docs_dir is None else Path(docs_dir)
    declared = plugin.algorithms()
    if algorithms is None:
        present = {r["algorithm"] for r in full["results"]}
        chosen = [a for a in declared.values() if a.name in present]
    else:
        chosen = list(algorithms)
    entries = properties_table(report_path, chosen)
    written: list[str] = []
    sources = [str(report_path)]
    # the index lists every declared algorithm's page, regenerated now or not
    pages = [(page_path(docs_dir, a), a.title) for a in declared.values() if a.name not in {c.name for c in chosen}]
    for algorithm in chosen:
        ctx = DocsContext(algorithm, only_algorithm(full, algorithm.name), report_path,
                          [e for e in entries if e["algorithm"] == algorithm.name], docs_dir, root, dict(options))
        own = dict(algorithm.docs(ctx)) if algorithm.docs is not None else {}
        generic = {"readings": readings_section, "claims": claims_section, "sentences": sentences_section,
                   "verdicts": verdicts_section, "errata": errata_section}
        sections = {name: own[name] if name in own else make(ctx) for name, make in generic.items()} | own
        page = page_path(docs_dir, algorithm)
        ctx.remove_undrawn()
        written.append(write_sections(page, algorithm.title, {k: v for k, v in sections.items() if v is not None}))
        written += ctx.written
        sources += [s for s in ctx.sources if s not in sources]
        pages.append((page, algorithm.title))
    written.append(write_sections(docs_dir / "README.md", "pubsub-proofs documentation", {
        "index": index_section(docs_dir, pages, sources)}))
    readme = root / "README.md"
    if docs_dir == root / "docs" and readme.exists() and markers("algorithms")[0] in readme.read_text():
        written.append(write_sections(readme, "pubsub-proofs", {
            "algorithms": algorithms_section(report_path, list(declared.values()), docs_dir, root)}))
    return written


def algorithms_section(report_path: Path, declared: list[plugin.Algorithm], docs_dir: Path, root: Path) -> str:
    """The project README's list of algorithms, one row each, from discovery: a new algorithm is
    listed by being declared (no prose to edit)."""
    rows = sentences_table(report_path, declared)
    verdicts = ("holds", FAILS, "ambiguous", NOT_CHECKABLE)
    lines = []
    for a in declared:
        counts = Counter(r["verdict"] for r in rows if r["algorithm"] == a.name)
        page = page_path(docs_dir, a).relative_to(root)
        lines.append([f"`{a.name}`", a.title, f"[{page}]({page})", len(a.properties()), len(a.readings.names()),
                      " / ".join(str(counts[v]) for v in verdicts) if counts else "none listed"])
    return "\n".join([table(["algorithm", "paper", "page", "properties", "readings",
                             "paper sentences: holds / violated / ambiguous / not checkable"], lines), "",
                      f"Generated from the declarations in `checks/algorithms/` and `{report_path}` by "
                      "`pubsub-proofs docs`."])
