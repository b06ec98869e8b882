"""One module per algorithm, each defining `ALGORITHM`, its declaration (checks.plugin.Algorithm).

The engines find them here; adding an algorithm adds a module and touches no other.
"""
