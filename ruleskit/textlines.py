"""The lines of a file's text, numbered as TOML, JSON, the rule language's parser and every error count them."""

from __future__ import annotations


def file_lines(text: str) -> list[str]:
    """`text` broken at "\\n" alone (a "\\r" before it dropped).

    `str.splitlines` breaks at U+2028, U+0085 and other separators too, which TOML and the rule language allow
    in a comment or a string: every line after one was numbered wrong, and a definition's text was taken from
    the wrong lines.
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]
