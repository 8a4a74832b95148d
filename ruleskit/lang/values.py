"""The value helpers of the runtime (`runtime/values.py`), under the names the compiler has always used."""

from __future__ import annotations

from ..runtime.values import (
    INFINITE,
    MAX_INT,
    as_list,
    checked_int,
    label_of,
    option_id,
    options_collide,
    same_value,
    zone_items,
)

__all__ = ["INFINITE", "MAX_INT", "as_list", "checked_int", "label_of", "option_id", "options_collide", "same_value",
           "zone_items"]
