"""Groups of cell permutations for the tests of rankings by stones: a group closed from
its generators, and a set of cells moved by a permutation, written plainly."""

from __future__ import annotations

Perm = tuple[int, ...]


def closure(cells: int, generators: list[Perm]) -> list[Perm]:
    """Every composition of the generators (the group they make), the identity first."""
    identity = tuple(range(cells))
    group = {identity}
    frontier = [identity]
    while frontier:
        here = frontier.pop()
        for g in generators:
            made = tuple(g[here[i]] for i in range(cells))
            if made not in group:
                group.add(made)
                frontier.append(made)
    return [identity, *sorted(group - {identity})]


def image(perm: Perm, bits: int) -> int:
    """The cells of ``bits`` moved by ``perm``."""
    return sum(1 << perm[c] for c in range(len(perm)) if bits >> c & 1)
