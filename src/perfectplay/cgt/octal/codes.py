"""Octal codes: a take-and-break game's code read and checked (``parse_code``), its
known names, and Grundy's game (see the package docstring for what a code means)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from ...errors import UsageProblem

I64 = npt.NDArray[np.int64]
Method = Literal["auto", "plain", "sparse"]


MAX_DIGITS = 256
"""Longest code accepted (digits after the point)."""
SAMPLE = 2048
"""Heaps computed by the plain method before the sparse method picks its mask."""
FIRST_STAGE = 256
"""Heaps computed first when looking for a proof; each later stage is four times larger."""
GENUS_TERMS = 6
"""Terms gamma_0..gamma_5 of a genus computed; three suffice to tell a tame genus."""

KNOWN = {
    "0.77": "Kayles",
    "0.07": "Dawson's Kayles",
    "0.137": "Dawson's chess",
}
ALIASES = {
    "kayles": "0.77",
    "dawsons-kayles": "0.07",
    "dawson-kayles": "0.07",
    "dawsons-chess": "0.137",
    "dawson-chess": "0.137",
}
GRUNDY_NAMES = ("grundy", "grundys-game", "grundy-game")


@dataclass(frozen=True)
class TakeAndBreak:
    """A take-and-break game: what each number of tokens taken may leave (see the module).

    ``digits[j]`` is the digit for taking ``j`` tokens; ``unequal`` forbids splitting into two
    equal heaps (Grundy's game).
    """

    code: str
    digits: tuple[int, ...]
    unequal: bool = False
    name: str = ""

    @property
    def max_take(self) -> int:
        """t: the most tokens one move takes (0 when no move takes any)."""
        return max((j for j, d in enumerate(self.digits) if d), default=0)

    @property
    def max_heaps(self) -> int:
        """The most heaps one move leaves in place of one (0 to 3)."""
        bits = 0
        for d in self.digits:
            bits |= d
        return 3 if bits & 8 else 2 if bits & 4 else 1 if bits & 2 else 0

    def takes(self, bit: int) -> I64:
        """The numbers of tokens j whose digit has ``bit`` (1, 2, 4 or 8), ascending."""
        return np.array([j for j, d in enumerate(self.digits) if d & bit], dtype=np.int64)

    @property
    def proof_applies(self) -> bool:
        """Whether the Guy-Smith theorem covers this game (not Grundy's game)."""
        return not self.unequal

    def proof_bound(self, preperiod: int, period: int) -> int | None:
        """The last heap whose value a proof of (preperiod, period) needs, or None when no
        theorem here applies. Conservative by one heap."""
        if not self.proof_applies:
            return None
        k = max(self.max_heaps, 1)
        return k * max(preperiod, 1) + k * period + self.max_take

    def title(self) -> str:
        """The code and, for a well-known game, its name: ``0.77 (Kayles)``."""
        return f"{self.code} ({self.name})" if self.name else self.code


def grundy_game() -> TakeAndBreak:
    """Grundy's game: split one heap into two non-empty heaps of different sizes."""
    return TakeAndBreak("grundy", (4,), unequal=True, name="Grundy's game")


def parse_code(text: str) -> TakeAndBreak:
    """The game a code names: ``0.77``, ``.07``, ``4.07``, ``0.f`` (hexadecimal), ``octal:0.77``,
    or a name (``kayles``, ``dawsons-kayles``, ``dawsons-chess``, ``grundy``).

    Raises UsageProblem (a ValueError) with a sentence saying what is wrong.
    """
    raw = text.strip().lower()
    raw = raw.removeprefix("octal:")
    word = re.sub(r"['’]", "", raw).replace("_", "-").replace(" ", "-")
    if word in GRUNDY_NAMES:
        return grundy_game()
    raw = ALIASES.get(word, raw)
    if not raw:
        raise UsageProblem("an octal code is empty: write one such as 0.77 (Kayles)")
    if "." not in raw:
        hint = f"0.{raw}" if re.fullmatch(r"[0-9a-f]+", raw) else "0.77"
        raise UsageProblem(
            f"octal code {text.strip()!r} has no point: write it like {hint} (the digits after "
            "the point say what taking 1, 2, 3... tokens may leave)"
        )
    before, _, after = raw.partition(".")
    for position, char in enumerate(raw, start=1):
        if char != "." and char not in "0123456789abcdef":
            raise UsageProblem(
                f"octal code {text.strip()!r}: {char!r} at position {position} is no digit "
                "(octal digits 0-7, or hexadecimal 0-9 and a-f)"
            )
    if "." in after:
        raise UsageProblem(f"octal code {text.strip()!r} has more than one point")
    if len(before) > 1:
        raise UsageProblem(
            f"octal code {text.strip()!r}: one digit at most before the point (for taking "
            f"no token), got {before!r}"
        )
    if not after:
        raise UsageProblem(f"octal code {text.strip()!r} has no digit after the point")
    if len(after) > MAX_DIGITS:
        raise UsageProblem(
            f"octal code has {len(after)} digits after the point (at most {MAX_DIGITS})"
        )
    d0 = int(before, 16) if before else 0
    if d0 & 3:
        raise UsageProblem(
            f"octal code {text.strip()!r}: the digit before the point is for taking no token, "
            "so it may only split a heap (4: into two, 8: into three, c: either), "
            f"not {before!r}"
        )
    digits = [d0, *(int(c, 16) for c in after)]
    while len(digits) > 2 and digits[-1] == 0:
        digits.pop()
    code = f"{digits[0]:x}." + "".join(f"{d:x}" for d in digits[1:])
    return TakeAndBreak(code, tuple(digits), name=KNOWN.get(code, ""))


def as_game(game: TakeAndBreak | str) -> TakeAndBreak:
    """A game, or the game a code or name names."""
    return game if isinstance(game, TakeAndBreak) else parse_code(game)


# ---------------------------------------------------------------------------------------
# Grundy values
