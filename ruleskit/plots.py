"""Charts of simulation and comparison results, drawn with matplotlib (the optional `plot` extra).

The file's suffix chooses the format (`.png` or `.svg`). Charts are drawn from
the JSON summaries `simulate` and `compare` produce, so a saved summary can be
drawn again later.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import PackError
from .outputs import check_output_file
from .stats import wilson_interval

FORMATS = (".png", ".svg")
BASE_COLOUR, VARIANT_COLOUR = "#4C72B0", "#DD8452"


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise PackError("plots need matplotlib: pip install 'ruleskit[plot]'") from None
    matplotlib.use("Agg")  # files only: no window, no display needed
    import matplotlib.pyplot as plt

    return plt


def check_plot_path(path: str | Path, inputs: Sequence[Path] = ()) -> Path:
    """The path to draw to, if its suffix names a format we draw and matplotlib is there to draw it (checked
    before any long run)."""
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise PackError(f"cannot draw '{target}': give a file ending in .png or .svg")
    # A folder that is missing or takes no file failed only at the drawing, after every game, and the run's
    # --json was never written.
    check_output_file(target, "--plot", inputs)
    _pyplot()
    return target


def _rate_bars(axes: Any, labels: list[str], rates: list[float], intervals: list[tuple[float, float]],
               offset: float, width: float, colour: str, name: str) -> None:
    positions = [i + offset for i in range(len(labels))]
    errors = [[100 * (r - low) for r, (low, _) in zip(rates, intervals, strict=True)],
              [100 * (high - r) for r, (_, high) in zip(rates, intervals, strict=True)]]
    axes.bar(positions, [100 * r for r in rates], width, yerr=errors, capsize=4, color=colour, label=name)


def _fair_line(axes: Any, players: int) -> None:
    axes.axhline(100 / players, color="grey", linestyle="--", linewidth=1, label=f"even share ({100 / players:.0f}%)")


def plot_simulation(summary: dict[str, Any], path: str | Path) -> Path:
    """Win rate by seat with 95% intervals, and the distribution of game lengths in turns."""
    target = check_plot_path(path)
    plt = _pyplot()
    figure, (rates_axes, lengths_axes) = plt.subplots(1, 2, figsize=(11, 4.5))
    seats = summary["wins_by_seat"]
    labels = [f"P{s['seat']}\n{s['bot']}" for s in seats]
    _rate_bars(rates_axes, labels, [s["rate"] for s in seats], [tuple(s["ci95"]) for s in seats], 0.0, 0.6,
               BASE_COLOUR, "win rate")
    _fair_line(rates_axes, summary["players"])
    rates_axes.set_xticks(range(len(labels)), labels)
    rates_axes.set_ylabel("win rate (%), 95% interval")
    rates_axes.set_ylim(0, 100)
    rates_axes.set_title("Wins by seat")
    rates_axes.legend(loc="upper right")
    turns = summary.get("turns_per_game") or []
    lengths_axes.hist(turns, bins=min(30, max(5, len(set(turns)))), color=BASE_COLOUR, edgecolor="white")
    if turns:
        average = sum(turns) / len(turns)
        lengths_axes.axvline(average, color="black", linestyle="--", linewidth=1, label=f"mean {average:.1f}")
        lengths_axes.legend(loc="upper right")
    lengths_axes.set_xlabel("turns per game")
    lengths_axes.set_ylabel("games")
    lengths_axes.set_title("Game length")
    figure.suptitle(f"{summary['pack']} {summary['version']}: {summary['games']} games, {summary['players']} players, "
                    f"bots {','.join(summary['bots'])}, seed {summary['seed']}")
    figure.tight_layout()
    figure.savefig(target)
    plt.close(figure)
    return target


def plot_comparison(result: dict[str, Any], path: str | Path) -> Path:
    """Base against variant: win rate by seat (95% intervals), game lengths, and end reasons."""
    target = check_plot_path(path)
    plt = _pyplot()
    figure, (rates_axes, lengths_axes, reasons_axes) = plt.subplots(1, 3, figsize=(15, 4.8),
                                                                    gridspec_kw={"width_ratios": [1.1, 1.1, 1]})
    names = (result["base"]["pack"], result["variant"]["pack"])
    seats = result["seats"]
    labels = [row["what"].replace("Player ", "P") + (" *" if row["significant"] else "") for row in seats]
    for side, offset, colour, name in (("base", -0.2, BASE_COLOUR, names[0]), ("variant", 0.2, VARIANT_COLOUR, names[1])):
        rates = [row[side]["rate"] or 0.0 for row in seats]
        intervals = [wilson_interval(row[side]["wins"], row[side]["games"]) for row in seats]
        _rate_bars(rates_axes, labels, rates, intervals, offset, 0.4, colour, name)
    _fair_line(rates_axes, result["players"])
    rates_axes.set_xticks(range(len(labels)), labels)
    rates_axes.set_ylim(0, 100)
    rates_axes.set_ylabel("win rate (%), 95% interval")
    rates_axes.set_title("Wins by seat (* significant)")
    rates_axes.legend(loc="upper right", fontsize="small")

    turns = result.get("turns_per_game") or {"base": [], "variant": []}
    both = turns["base"] + turns["variant"]
    if both:
        low, high = min(both), max(both)
        bins = list(range(low, high + 2, max(1, (high - low + 1) // 25 or 1)))
        for side, colour, name in (("base", BASE_COLOUR, names[0]), ("variant", VARIANT_COLOUR, names[1])):
            lengths_axes.hist(turns[side], bins=bins, alpha=0.55, color=colour, label=name)
    lengths_axes.set_xlabel("turns per game")
    lengths_axes.set_ylabel("games")
    lengths_axes.set_title("Game length")
    lengths_axes.legend(loc="upper right", fontsize="small")

    reasons = result["end_reasons"]
    reason_labels = [_short(row["what"]) + (" *" if row["significant"] else "") for row in reasons]
    positions = range(len(reasons))
    reasons_axes.barh([p - 0.2 for p in positions], [100 * (row["base"]["rate"] or 0) for row in reasons], 0.4,
                      color=BASE_COLOUR, label=names[0])
    reasons_axes.barh([p + 0.2 for p in positions], [100 * (row["variant"]["rate"] or 0) for row in reasons], 0.4,
                      color=VARIANT_COLOUR, label=names[1])
    reasons_axes.set_yticks(list(positions), reason_labels)
    reasons_axes.set_xlabel("share of games (%)")
    reasons_axes.set_xlim(0, 100)
    reasons_axes.set_title("How games ended")
    figure.suptitle(f"{names[1]} against {names[0]}: {result['games']} games each, {result['players']} players, "
                    f"bots {','.join(result['bots'])}, same seeds")
    figure.tight_layout()
    figure.savefig(target)
    plt.close(figure)
    return target


def _short(text: str, width: int = 28) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
