"""Show programs: an evening of matches (DESIGN.md: "a program is a table of tables").

Each module exposes ``GAME``, a program run by the same table runtime as a match (its seats are
the show's players); the package registers itself as the games' does (pyproject.toml's entry points),
and ``referee.kernel.registry(programs=True)`` finds them. Programs import only
the kernel (and name the games their stages play by id).
"""
