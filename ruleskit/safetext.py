"""Making text from packs, logs and saves safe to show in a terminal.

Pack text is data, never formatting: it is shown literally, never read as rich
markup, and no control character reaches the terminal. Control characters (the
escape that starts a colour, a cursor move, a hyperlink or a window title, a bell,
a carriage return) and characters that take no room on screen or reorder the
text around them (zero-width spaces and joiners, bidirectional controls, line
separators) are shown as their code, `<U+001B>`, `<U+200B>`: removed or left as
they are, `Al\u200bice` and `\x07Alice` looked the same as `Alice`. A tab and a
newline (in one-line text) become a space. The page of `ruleskit serve` shows
them the same way (`static/app.js`, `shown`).
"""

from __future__ import annotations

import shlex
import unicodedata

from rich.markup import escape
from rich.text import Text

# Invisible characters that are not format characters (Cf): fillers and joiners shown as nothing.
_INVISIBLE = set("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")
_MARKED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs"}
_JOINER = "\u200d"
# What may stand between an emoji and the joiner that ties it to the next one (👨‍👩, 🏳️‍🌈).
_EMOJI_TAILS = set("\ufe0e\ufe0f") | {chr(c) for c in range(0x1F3FB, 0x1F400)}


def marked(char: str) -> bool:
    """Whether `char` is shown as its code: a control character, or one that takes no room on screen or moves
    the text around it."""
    return char in _INVISIBLE or unicodedata.category(char) in _MARKED_CATEGORIES


def _joins_symbols(text: str, at: int) -> bool:
    """Whether the zero-width joiner at `at` ties two symbols into one emoji, where it shows as that emoji."""
    before = at - 1
    while before >= 0 and text[before] in _EMOJI_TAILS:
        before -= 1
    return (before >= 0 and at + 1 < len(text) and unicodedata.category(text[before]) == "So"
            and unicodedata.category(text[at + 1]) == "So")


def clean(text: object, newlines: bool = False) -> str:
    """`text` as a string that shows as written: control characters and characters that would not show
    (zero-width, bidirectional controls) as their code, `<U+001B>`, tabs as spaces, and newlines kept if
    `newlines`, else spaces."""
    raw = str(text)
    kept = []
    for at, char in enumerate(raw):
        if char == "\n":
            kept.append(char if newlines else " ")
        elif char == "\t":
            kept.append(" ")
        elif marked(char) and not (char == _JOINER and _joins_symbols(raw, at)):
            kept.append(f"<U+{ord(char):04X}>")
        else:
            kept.append(char)
    return "".join(kept)


def plain(text: object, style: str = "", newlines: bool = False) -> Text:
    """A rich Text showing `text` literally: cleaned, and never parsed as markup."""
    return Text(clean(text, newlines), style=style)


def markup_safe(text: object) -> str:
    """`text` cleaned and escaped, for embedding in a rich markup string."""
    return escape(clean(text))


def shell_word(path: object) -> str:
    """`path` as one word of a command to copy into a shell: quoted, and `./`-prefixed where it would be read as
    an option (`-x`)."""
    text = str(path)
    if text.startswith("-"):
        text = "./" + text
    return shlex.quote(text)
