"""Making text from packs, logs and saves safe to show in a terminal.

Pack text is data, never formatting: escape sequences (colours, cursor moves,
OSC hyperlinks and titles) and other control characters are removed, and what
is left is shown literally, never read as rich markup. Characters that take no
room on screen or reorder the text around them (zero-width spaces and joiners,
bidirectional controls, line separators) are shown as their code, `<U+200B>`:
removed or left as they are, `Al\u200bice` looked the same as `Alice`. The page
of `ruleskit serve` shows them the same way (`static/app.js`, `shown`).
"""

from __future__ import annotations

import re
import shlex
import unicodedata

from rich.markup import escape
from rich.text import Text

# ESC-introduced sequences: CSI (ESC [ ... final), OSC/DCS/PM/APC/SOS strings (to BEL or ESC \), and
# two-character escapes; the same introduced by their 8-bit C1 forms.
_SEQUENCES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]P^_X]|[\x9d\x90\x9e\x9f\x98])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
)
# Invisible characters that are not format characters (Cf): fillers and joiners shown as nothing.
_INVISIBLE = set("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")
_MARKED_CATEGORIES = {"Cf", "Zl", "Zp", "Cs"}
_JOINER = "\u200d"
# What may stand between an emoji and the joiner that ties it to the next one (👨‍👩, 🏳️‍🌈).
_EMOJI_TAILS = set("\ufe0e\ufe0f") | {chr(c) for c in range(0x1F3FB, 0x1F400)}


def marked(char: str) -> bool:
    """Whether `char` is shown as its code: it takes no room on screen or moves the text around it."""
    return char in _INVISIBLE or unicodedata.category(char) in _MARKED_CATEGORIES


def _joins_symbols(text: str, at: int) -> bool:
    """Whether the zero-width joiner at `at` ties two symbols into one emoji, where it shows as that emoji."""
    before = at - 1
    while before >= 0 and text[before] in _EMOJI_TAILS:
        before -= 1
    return (before >= 0 and at + 1 < len(text) and unicodedata.category(text[before]) == "So"
            and unicodedata.category(text[at + 1]) == "So")


def clean(text: object, newlines: bool = False) -> str:
    """`text` as a string with escape sequences and control characters removed (tabs become spaces), and
    characters that would not show (zero-width, bidirectional controls) shown as their code, `<U+200B>`."""
    raw = _SEQUENCES.sub("", str(text))
    kept = []
    for at, char in enumerate(raw):
        if char == "\n" and newlines:
            kept.append(char)
        elif char == "\t":
            kept.append(" ")
        elif unicodedata.category(char) == "Cc":
            continue
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
