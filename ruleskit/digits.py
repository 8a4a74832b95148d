"""Whole numbers written as text (a seat in a key, a step in a web address, a number typed at a prompt)."""

from __future__ import annotations

# More digits than any count, seat or step needs; `int()` of thousands of digits is refused or slow.
MOST_DIGITS = 18


def plain_digits(text: str) -> bool:
    """Whether `text` is a whole number written in ASCII digits that `int()` reads at once.

    `str.isdigit` also accepts digits such as '²', which `int()` refuses, and any number of digits.
    """
    return 0 < len(text) <= MOST_DIGITS and text.isascii() and text.isdigit()
