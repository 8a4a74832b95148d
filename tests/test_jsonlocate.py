"""`json_path_position`: the line and column of the value a JSON path (as InvalidData writes it) names."""

from __future__ import annotations

import json

import pytest

from ruleskit.jsonlocate import json_path_position

TEXT = """{
  "format": "x",
  "state": {
    "note": "a } and a ] and a \\" in a string, and {\\"pv\\": 1}",
    "data": {
      "pv": [
        {"coins": 3},
        {"coins": "ten"}
      ],
      "z": {"hand@0": ["a", "b"], "a.b": {"c": 1}, "a": {"b": 2}},
      "picks": {"0": {"args": {}}},
      "empty": []
    }
  }
}"""


def _where(fragment: str, after: str = "") -> tuple[int, int]:
    """The line and column of the first `fragment` in TEXT that comes after `after`."""
    offset = TEXT.index(fragment, TEXT.index(after) if after else 0)
    return TEXT.count("\n", 0, offset) + 1, offset - TEXT.rfind("\n", 0, offset)


@pytest.mark.parametrize("path, fragment, after", [
    ("$", "{", ""),
    ("$.state.data.pv[1].coins", '"ten"', ""),
    ("$.state.data.pv[0]", '{"coins": 3}', ""),
    ("$.state.data.z.hand@0[1]", '"b"', ""),
    ("$.state.data.z.a.b.c", "1}", '"a.b"'),  # the longest key that fits: "a.b", then "c"
    ("$.state.data.picks.0.args", "{}", '"args"'),
    ("$.state.data", "{", '"data"'),
])
def test_the_value_a_path_names(path: str, fragment: str, after: str) -> None:
    json.loads(TEXT)  # the text is JSON
    assert json_path_position(TEXT, path) == _where(fragment, after)


@pytest.mark.parametrize("path, fragment, after", [
    ("$.state.data.pv[1].gold", '{"coins": "ten"}', ""),  # a key that is missing: the table it is missing from
    ("$.state.data.pv[5]", "[", '"pv"'),  # past the end of the list: the list
    ("$.state.data.empty[0]", "[]", ""),
    ("$.state.data.pv.coins", "[", '"pv"'),  # a key of a list: the list
])
def test_a_path_the_text_does_not_follow_ends_at_the_innermost_value_reached(path: str, fragment: str,
                                                                            after: str) -> None:
    assert json_path_position(TEXT, path) == _where(fragment, after)


def test_of_a_key_written_twice_the_last_counts_as_json_reads_it() -> None:
    text = '{"a": 1,\n "a": 2}'
    assert json.loads(text)["a"] == 2
    assert json_path_position(text, "$.a") == (2, 7)


def test_no_position_without_a_json_path_or_a_value() -> None:
    assert json_path_position(TEXT, "state.data") is None
    assert json_path_position("   ", "$.a") is None
