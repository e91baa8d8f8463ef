"""Kalah(houses, seeds) as a compiled scored game, solved tier by tier by its stores.

Each player owns ``houses`` houses in a row and a store to the right of them; every house
starts with ``seeds`` seeds. A move takes every seed of one of the mover's houses and sows
them one by one counter-clockwise into the following houses and the mover's own store,
skipping the opponent's store. A last seed that lands in the mover's store gives another
turn. A last seed that lands in an empty house of the mover's, whose opposite house holds
seeds, captures both into the mover's store. When either row is empty the game ends: each
player adds the seeds left in their own row to their store. The score, for the player to
move, is their seeds minus the opponent's.

A position is one int64 of fields of ``b`` bits (b = the bit length of all seeds):
field i < 2 * houses is house i (the first player's 0..houses-1 left to right, then the
second player's, so house i faces house 2 * houses - 1 - i), field 2 * houses is the first
player's store; the second player's store is what is left. Bit 62 is set when the second
player is to move. A move is the mover's house 0..houses-1, counted from the left.

Seeds only ever enter the stores, so the seeds in both stores make the tier: moves lead
into the same tier or later ones, and never in a loop (within a tier every seed moves
forward in its own row). Fits 63 bits: Kalah(3, n) up to n = 10, Kalah(4, n) up to 7,
Kalah(5, 3).
"""

import numpy as np

from perfectplay.compiled_games import CompiledGame

MOVER = 62


def field_bits(p):
    """Bits of a field: enough for every seed of the game."""
    total = 2 * p[0] * p[1]
    bits = 1
    while (1 << bits) <= total:
        bits += 1
    return bits


def get(s, i, bits):
    return (s >> (i * bits)) & ((1 << bits) - 1)


def row_seeds(p, s, player, bits):
    """The seeds in a player's houses."""
    total = 0
    for j in range(p[0]):
        total += get(s, player * p[0] + j, bits)
    return total


class Kalah(CompiledGame):
    """Kalah with ``houses`` houses a side and ``seeds`` seeds a house (see the module)."""

    houses: int = 4
    seeds: int = 3
    scored = True
    max_moves = 8

    def start(p):
        bits = field_bits(p)
        s = 0
        for i in range(2 * p[0]):
            s |= p[1] << (i * bits)
        return s

    def moves(p, s, out):
        bits = field_bits(p)
        mover = (s >> MOVER) & 1
        k = 0
        for j in range(p[0]):
            if get(s, mover * p[0] + j, bits) > 0:
                out[k] = j
                k += 1
        return k

    def play(p, s, m):
        houses = p[0]
        bits = field_bits(p)
        mover = (s >> MOVER) & 1
        ring = 2 * houses + 2  # houses 0..h-1, store 0, houses h..2h-1, store 1
        own = houses if mover == 0 else 2 * houses + 1
        other = 2 * houses + 1 if mover == 0 else houses
        house = mover * houses + m
        n = get(s, house, bits)
        s -= n << (house * bits)
        slot = house if house < houses else house + 1
        while n > 0:
            slot = (slot + 1) % ring
            if slot == other:
                continue
            n -= 1
            if slot < houses:
                s += 1 << (slot * bits)
            elif slot == houses:
                s += 1 << (2 * houses * bits)
            elif slot < 2 * houses + 1:
                s += 1 << ((slot - 1) * bits)
            # (the second player's store holds what is left: nothing to write)
        if slot == own:
            return s  # another turn
        last = slot if slot < houses else slot - 1
        if slot != houses and slot != 2 * houses + 1 and last // houses == mover:
            facing = 2 * houses - 1 - last
            taken = get(s, facing, bits)
            if get(s, last, bits) == 1 and taken > 0:
                s -= (1 << (last * bits)) + (taken << (facing * bits))
                if mover == 0:
                    s += (taken + 1) << (2 * houses * bits)
        return s ^ (1 << MOVER)

    def outcome(p, s):
        bits = field_bits(p)
        first, second = row_seeds(p, s, 0, bits), row_seeds(p, s, 1, bits)
        if first > 0 and second > 0:
            return np.nan
        total = 2 * p[0] * p[1]
        mine = get(s, 2 * p[0], bits) + first  # the first player's, at the end
        mover = (s >> MOVER) & 1
        difference = 2 * mine - total
        return float(difference if mover == 0 else -difference)

    def to_move(p, s):
        return (s >> MOVER) & 1

    def tier(p, s):
        bits = field_bits(p)
        return 2 * p[0] * p[1] - row_seeds(p, s, 0, bits) - row_seeds(p, s, 1, bits)
