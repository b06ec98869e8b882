"""The chordal ring's own section of docs/chordal_ring.md (checks.docs fills the generic ones,
comparing the key readings `corrected` and `literal`):

    choices   what reading the printed pseudocode took (spelling and parentheses only) and every
              choice the text leaves open that this project made alike in every reading, both
              from spec.chordal_ring, so that the page cannot drift from the model
    costs     sec. 3.4's message and hop counts against n (measure.py, cached beside the report
              against the code that makes them), a table and a figure
    filling   how many random joins fill an identifier space, per reading (measure.py, the same cache)
    third_degree  sec. 3.1's degree-3 ring beside the degree-4 one (measure.py, the same cache)
"""

from __future__ import annotations

from checks.docs import DocsContext
from spec import chordal_ring as C


def sections(ctx: DocsContext) -> dict[str, str]:
    from checks.algorithms.chordal_ring import measure, proofs

    out = ctx.reproduction_path()
    rep = measure.costs(out=out)
    ctx.wrote(measure.draw_figure(rep, ctx.figures_dir), out)
    costs = (f"From [{ctx.source(out)}](../{ctx.source(out)}) ({ctx.module_path(measure.__name__)}; recomputed "
             "only when the code that makes the numbers changes). Rings built by the corrected join; one broker "
             f"failed at a time (every one up to {measure.FAILED_SAMPLE} brokers, {measure.FAILED_SAMPLE} evenly "
             f"spaced above), every chord of {measure.CHORD_SAMPLE} evenly spaced brokers failed in turn with both "
             "brokers up and B answering with link-down (the repaired reading).\n\n"
             f"{measure.table(rep)}\n\n![costs](figures/{measure.FIGURE})\n\n"
             "A node failure's handling sends degree(B) + 1 messages (test-neighbour, the test-acknowledgement to "
             "B, which is lost, failed, and one divide-Neighbour to each of B's other neighbours), so it "
             "grows as the degree: with the chords of this project's choice, on these rings (powers of two) 2 log2 n - 1 "
             "links (the chord n/2 joins one broker both ways), so 2 log2 n messages; other sizes differ (12 "
             "brokers have 6 links); without chords, 5 at every size. A failed chord's query takes 2 hops at every "
             "size measured (the link nearest B's identifier, then one more), 4 messages with link-down. Both "
             "are within sec. 3.4's O(log n) over the sizes measured; a measurement, not a proof of the bound.")
    fill = (f"From the same file: brokers join through brokers drawn at random ({measure.FILL_ORDERS} seeded orders "
            "per cell) until the first join that does not insert; each cell gives the brokers joined (least / mean / "
            "most) and how the first join that did not insert ended, per reading the join tells apart and per "
            "identifier space.\n\n" + measure.filling_table(rep) + "\n\n"
            f"At most 2^bits + 1 joins are tried per order, so a most of 2^bits + 1 means identifiers were given "
            "twice ('as few as k distinct ids'). Under the corrected join every order fills the space exactly and "
            "the next join is refused: the best and the worst case over these orders are both 2^bits joins. "
            "forwards-when-full fills it too, then forwards the next request for ever; printed-left-id never refuses "
            "and gives identifiers twice; printed-pointers leaves a pointer unset (a dangling pointer) before the "
            "space fills; the literal and printed-space-test joins end early in some orders (a request forwarded "
            "for ever, or refused) and give identifiers twice in others.")
    third = ("From the same file: sec. 3.1's chordal ring of third degree ([15]; every even node i linked to i +- 1 "
             "and i - c for an odd c, spec.chordal_ring.third_degree_links) beside sec. 3.2's degree-4 ring, by "
             "networkx on the graphs themselves. A vertex connectivity of k means every set of k - 1 failed nodes "
             "leaves the rest connected and some set of k does not.\n\n" + measure.compared_table(rep) + "\n\n"
             "At these sizes the degree-3 ring survives any two failures and not every three, at every odd c "
             "from 3 to n - 3 (c = 1 or n - 1 makes the chord a ring link, and the degree 2). For every even n >= 6 "
             f"and every odd c from 3 to n - 3, Z3 shows that a chord joins the two arcs any two failures leave "
             f"({proofs.third_degree_lemma()}; with c = 1 allowed it {proofs.third_degree_lemma(lowest_c=1)}; "
             f"proofs.third_degree_lemma, its chords held to the spec's at {proofs.cross_check_third_degree()} positions, "
             "every even n from 6 to 20 and every odd c), and each arc is a "
             "path of ring links, so the degree-3 ring survives any two failures at every size (the step argued; "
             "three, a node's neighbours, cut it off); "
             "the degree-4 ring any three and not every four (for every size n >= 5 by Z3's lemmas with the step "
             "argued: survives_three_failures holds); this project's chords raise the degree and shorten the "
             "diameter.")
    repairs = "\n".join(f"- {text}" for text in C.PARSE_REPAIRS)
    choices = "\n".join(f"- {text}" for text in C.CHOICES)
    return {"costs": costs, "filling": fill, "third_degree": third, "choices": "### Repairs needed to read the printed pseudocode (the literal reading's only ones)\n\n"
                       f"{repairs}\n\n### Choices the text leaves open, made alike in every reading\n\n{choices}"}
