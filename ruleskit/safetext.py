"""Making text from packs, logs and saves safe to show in a terminal.

Pack text is data, never formatting: escape sequences (colours, cursor moves,
OSC hyperlinks and titles), other control characters and bidirectional
overrides are removed, and what is left is shown literally, never read as
rich markup.
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
# Characters that reorder or hide text on screen.
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def clean(text: object, newlines: bool = False) -> str:
    """`text` as a string with escape sequences and control characters removed (tabs become spaces)."""
    raw = _SEQUENCES.sub("", str(text))
    kept = []
    for char in raw:
        if char == "\n" and newlines:
            kept.append(char)
        elif char == "\t":
            kept.append(" ")
        elif char in _BIDI or unicodedata.category(char) == "Cc":
            continue
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
