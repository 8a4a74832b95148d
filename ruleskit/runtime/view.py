"""What one player may see of a state.

Vars and zones declare who sees them: `all`, `owner` (the owning player) or
`none`. A hidden zone shows only how many items it holds. The random stream,
the chance history and other players' simultaneous picks are never shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import copy_data
from .faces import faces_context, hidden_items, shown_zone, uses_faces
from .visibility import hidden_summary, sees, zone_owner

if TYPE_CHECKING:
    from .state import State


def make_view(state: State, viewer: int) -> dict[str, Any]:
    model = state.game.model
    data = state.raw
    view: dict[str, Any] = {"viewer": viewer, "players": data["n"]}
    view["vars"] = {name: copy_data(value) for name, value in data["v"].items()
                    if sees(model.game_vars[name].visible, None, viewer)}
    view["player_vars"] = [
        {name: copy_data(value) for name, value in pv.items() if sees(model.player_vars[name].visible, p, viewer)}
        for p, pv in enumerate(data["pv"])
    ]
    items: dict[str, Any] = {}
    # Items shown by face only (runtime.faces) lose their vars wherever their id is not shown.
    faces = uses_faces(model)
    unnamed = hidden_items(model, data, viewer) if faces else set()
    shows = faces_context(state.game.program, data) if faces else None  # one step budget for the whole view
    for item, values in data["ev"].items():
        if item in unnamed:
            continue
        kind = model.kinds[model.item_kind[item]]
        owner = model.item_data[item]["owner"]
        items[item] = {name: copy_data(v) for name, v in values.items()
                       if sees(kind.vars[name].visible, owner, viewer)}
    view["items"] = items
    zones: dict[str, Any] = {}
    for key, content in data["z"].items():
        name = key.partition("@")[0]
        owner = zone_owner(model, key)
        zone = model.zones[name]
        shown = shown_zone(state.game.program, data, key, viewer, shows) if shows is not None else None
        if shown is not None:
            zones[key] = shown
            continue
        zones[key] = copy_data(content) if sees(zone.visible, owner, viewer) else hidden_summary(zone.visible, content)
    view["zones"] = zones
    view["blocked"] = list(data["blocked"])
    flow = data["flow"]
    shown_flow = {k: copy_data(v) for k, v in flow.items() if k not in ("simul", "usage", "entered", "idle")}
    if flow["simul"] is not None:
        picks = flow["simul"]["picks"]
        shown_flow["simultaneous"] = {
            "players": list(flow["simul"]["players"]),
            "decided": sorted(int(p) for p in picks),
            "mine": copy_data(picks.get(str(viewer))),
        }
    view["flow"] = shown_flow
    if state.pending is not None:
        pending = state.pending
        view["pending"] = {"player": pending["player"], "prompt": pending["prompt"]}
        if pending["player"] == viewer:
            view["pending"]["options"] = [[oid, label] for oid, label, _ in pending["options"]]
    view["result"] = copy_data(data["result"])
    return view
