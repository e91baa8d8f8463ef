"""Which slots of a Connect Four tier play surely never reaches, told from the board alone.

The ranking (``ranking``) gives an index to every filling of the columns with the right
number of discs of each colour, and about half of those are no position of the game. Most
of them show it at a glance, and ``compress`` fills their slots with whatever compresses
best (the record before), so a reader must ask this test before trusting a record:

- the player to move holds a line: they made it on an earlier move, and the game ended
  there;
- no disc on top of a column is the last mover's whose removal leaves them no line (the
  last move put one of theirs on top, and any line of theirs but one it made was there
  before it, when the game had ended).

(``DiscTiers.answered_by`` adds, with symmetry, the codes that are not the smaller of
themselves and their mirror image: the solve keeps only that one.)

A slot the test does not flag may still be unreachable (its record then says so, as
before): the test answers "surely unreachable" or "maybe", never wrongly "unreachable".
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ...core.compiled import kernel
from .board import Codes, disc_mask, line_ends


@kernel
def unreachable_codes(
    codes: Codes,
    width: int,
    stride: int,
    connect: int,
    filled: Codes,
    out: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """out[i] = True where code i is surely no position play reaches (see the module
    docstring), False where it may be one or where it is -1; returns ``out``."""
    bottoms = 0
    for c in range(width):
        bottoms |= 1 << (c * stride)
    for i in range(len(codes)):
        code = codes[i]
        out[i] = False
        if code < 0:
            continue
        mask = disc_mask(code, width, stride, filled)
        mover = code - mask
        last = mover ^ mask
        if line_ends(mover, stride, connect) != 0:
            out[i] = True
        elif mask != 0:
            tops = ((mask + bottoms) >> 1) & mask & last  # the last mover's discs on top
            if tops == 0:
                out[i] = True
            elif line_ends(last, stride, connect) != 0:
                lone = False  # a top disc of the last mover whose removal leaves no line
                while tops != 0:
                    top = tops & -tops
                    tops ^= top
                    if line_ends(last ^ top, stride, connect) == 0:
                        lone = True
                        break
                out[i] = not lone
    return out
