"""Chordal reliability rings (Madhu Kumar, Bellur & Govindan): the declaration's package.

So far it holds the Z3 proofs of the join (proofs.py); the declaration (`ALGORITHM`), which
`pubsub-proofs check` reads, is not yet written, so the engines do not see the ring yet.
"""
