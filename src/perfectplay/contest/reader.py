"""Strict reading of judge input: every mistake becomes one line that says what and where."""

from __future__ import annotations

from ..errors import InputError

__all__ = ["InputError", "Reader"]


class Reader:
    """Whitespace-separated tokens (or whole lines) of an input, with their line numbers."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.tokens: list[tuple[int, str]] = [
            (number, token)
            for number, line in enumerate(self.lines, start=1)
            for token in line.split()
        ]
        self.position = 0
        self.line_position = 0

    def _next(self, what: str) -> tuple[int, str]:
        if self.position >= len(self.tokens):
            last = len(self.lines)
            raise InputError(f"line {last + 1}: input ends early, expected {what}")
        token = self.tokens[self.position]
        self.position += 1
        return token

    @property
    def last_line(self) -> int:
        """The line number of the token read last."""
        return self.tokens[self.position - 1][0] if self.position else 1

    def integer(self, what: str, low: int, high: int) -> int:
        """The next token as an integer within [low, high]."""
        line, token = self._next(what)
        try:
            value = int(token)
        except ValueError:
            raise InputError(f"line {line}: {what} must be an integer, got {token!r}") from None
        if not low <= value <= high:
            raise InputError(f"line {line}: {what} must be between {low} and {high}, got {value}")
        return value

    def integers(self, count: int, what: str, low: int, high: int) -> list[int]:
        """The next ``count`` tokens as integers within [low, high]."""
        return [self.integer(f"{what} #{i + 1}", low, high) for i in range(count)]

    def end_of_line(self, what: str) -> None:
        """Fail if the line of the token read last holds more (it held ``what``): a value
        too many is named on its own line, not where the values after it run out."""
        if 0 < self.position < len(self.tokens):
            line, token = self.tokens[self.position]
            if line == self.tokens[self.position - 1][0]:
                raise InputError(
                    f"line {line}: unexpected {token!r} at the end of the line (it holds {what})"
                )

    def line(self, what: str) -> tuple[int, str]:
        """The next whole line (for grids): the line after the last one read."""
        if self.position:
            last_line = self.tokens[self.position - 1][0]
            if self.position < len(self.tokens) and self.tokens[self.position][0] == last_line:
                extra = self.tokens[self.position][1]
                raise InputError(f"line {last_line}: unexpected {extra!r} at the end of the line")
            self.line_position = max(self.line_position, last_line)
            self.position = 0
            self.tokens = []
        if self.line_position >= len(self.lines):
            raise InputError(f"line {self.line_position + 1}: input ends early, expected {what}")
        text = self.lines[self.line_position].strip()
        self.line_position += 1
        return self.line_position, text

    def end(self) -> None:
        """Fail if anything but blank space is left."""
        if self.position < len(self.tokens):
            line, token = self.tokens[self.position]
            raise InputError(f"line {line}: unexpected {token!r} after the end of the input")
        if not self.tokens:
            for number in range(self.line_position, len(self.lines)):
                if self.lines[number].strip():
                    raise InputError(
                        f"line {number + 1}: unexpected text after the end of the input"
                    )
