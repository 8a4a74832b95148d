"""The page in a real headless Chromium: clicking through games, undo, reload, hot-seat and replay.

Needs Debian's `chromium` and `chromium-driver` and the `selenium` package; skipped without them.
Screenshots go to the folder named by RULESKIT_SCREENSHOTS, if set.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

webdriver = pytest.importorskip("selenium.webdriver")
if not (shutil.which("chromedriver") and (shutil.which("chromium") or shutil.which("chromium-browser"))):
    pytest.skip("needs chromium and chromium-driver", allow_module_level=True)

import uvicorn  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

import ruleskit  # noqa: E402
from ruleskit.log import write_log  # noqa: E402
from ruleskit.web.app import play_app, replay_app  # noqa: E402
from ruleskit.web.lobby import Lobby  # noqa: E402
from ruleskit.web.replay import LogReplay  # noqa: E402

WAIT = 15


class Server:
    """An app served on a free loopback port in a thread, for one test."""

    def __init__(self, app: Any) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,900"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the page's console, read by tests
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    assert binary is not None
    options.binary_location = binary
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(WAIT)
    yield driver
    driver.quit()


@pytest.fixture
def serve() -> Iterator[Any]:
    servers: list[Server] = []

    def start(app: Any) -> Server:
        servers.append(Server(app))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def screenshot(browser: Any, name: str) -> None:
    folder = os.environ.get("RULESKIT_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(Path(folder) / name))


def wait_for(browser: Any, what: Any) -> Any:
    return WebDriverWait(browser, WAIT).until(what)


def action_buttons(browser: Any) -> list[Any]:
    return browser.find_elements(By.CSS_SELECTOR, "#actions button[data-action]")


def click_random_action(browser: Any, rng: random.Random) -> bool:
    """Click one of the offered actions and wait for the page to be redrawn; False once the game is over."""
    wait_for(browser, lambda b: action_buttons(b) or b.find_element(By.ID, "result").is_displayed())
    buttons = action_buttons(browser)
    if not buttons:
        return False
    button = rng.choice(buttons)
    button.click()
    wait_for(browser, lambda b: not _attached(button))
    return True


def _attached(element: Any) -> bool:
    try:
        element.is_enabled()
        return True
    except Exception:  # the element was replaced: the page has been redrawn
        return False


def test_ophir_against_bots_clicking_reloading_and_continuing(browser: Any, serve: Any) -> None:
    lobby = Lobby(ruleskit.load("ophir"), 3, ["human", "random", "random"], 11)
    lobby.start()
    server = serve(play_app(lobby))
    browser.get(f"{server.base}/host/{lobby.host_token}")
    wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, "#board svg .node"))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board svg .node")) == 7
    assert browser.find_element(By.ID, "title").text == "Ophir"
    rng = random.Random(11)
    for _ in range(12):
        assert click_random_action(browser, rng)
    decisions = len(lobby.current().state.history)
    assert decisions > 12  # the clicks and the bots' replies
    browser.refresh()
    wait_for(browser, lambda b: action_buttons(b))
    assert len(lobby.current().state.history) == decisions  # a reload changes nothing
    assert click_random_action(browser, rng)
    assert len(lobby.current().state.history) > decisions
    screenshot(browser, "ophir-mid-game.png")
    feed = browser.find_element(By.ID, "feed").text
    assert "Green (P2)" in feed or "Blue (P3)" in feed
    # Nothing went wrong in the page: no script error, no request that failed (a missing icon included).
    assert [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []


def test_undo_with_the_button(browser: Any, serve: Any) -> None:
    lobby = Lobby(ruleskit.load("tests/packs/dice_race"), 2, ["human", "random"], 3)
    lobby.start()
    server = serve(play_app(lobby))
    browser.get(f"{server.base}/host/{lobby.host_token}")
    wait_for(browser, lambda b: action_buttons(b))
    assert not browser.find_element(By.ID, "undo").is_enabled()
    # Blocking an edge draws no chance: it can be undone with the button.
    before = lobby.current().state.dumps()
    wall = next(b for b in action_buttons(browser) if b.get_attribute("data-action").startswith("wall"))
    wall.click()
    wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, ".edge.blocked"))
    undo = browser.find_element(By.ID, "undo")
    wait_for(browser, lambda b: undo.is_enabled())
    undo.click()
    wait_for(browser, lambda b: not b.find_elements(By.CSS_SELECTOR, ".edge.blocked"))
    assert lobby.current().state.dumps() == before
    assert "took back a decision" in browser.find_element(By.ID, "feed").text


def test_a_game_against_a_bot_to_the_end(browser: Any, serve: Any) -> None:
    lobby = Lobby(ruleskit.load(TAKE_TURNS), 2, ["human", "random"], 3)
    lobby.start()
    server = serve(play_app(lobby))
    browser.get(f"{server.base}/host/{lobby.host_token}")
    rng = random.Random(3)
    clicks = 0
    while click_random_action(browser, rng):
        clicks += 1
        assert clicks <= 10
    result = wait_for(browser, lambda b: b.find_element(By.ID, "result"))
    assert result.is_displayed() and "game over: the table is empty" in result.text.lower()
    assert lobby.current().state.is_terminal and clicks == 3
    assert not browser.find_element(By.ID, "undo").is_enabled()  # as in play: no undo once the game is over
    screenshot(browser, "take-turns-finished.png")


def test_a_new_game_from_the_page(browser: Any, serve: Any) -> None:
    lobby = Lobby(ruleskit.load("ophir"), 2, ["human", "random"], 0)
    lobby.start()
    server = serve(play_app(lobby))
    browser.get(f"{server.base}/host/{lobby.host_token}")
    wait_for(browser, lambda b: action_buttons(b))
    old_token = lobby.current().tokens[0]
    browser.find_element(By.XPATH, "//button[text()='New game…']").click()
    players = wait_for(browser, lambda b: b.find_element(By.ID, "new-players"))
    players.clear()
    players.send_keys("3")
    wait_for(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#panel select")) == 3)
    browser.find_element(By.CSS_SELECTOR, "#panel select[data-seat='2'] option[value='greedy']").click()
    seed = browser.find_element(By.ID, "new-seed")
    seed.clear()
    seed.send_keys("5")
    screenshot(browser, "ophir-new-game.png")
    browser.find_element(By.ID, "start").click()
    wait_for(browser, lambda b: lobby.current().tokens[0] != old_token)
    table = lobby.current()
    assert table.seats == ["human", "random", "greedy"] and table.state.data["seed"] == 5
    try:
        wait_for(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#players .player")) == 3)
    finally:
        screenshot(browser, "ophir-new-game-started.png")


TAKE_TURNS = Path(__file__).resolve().parents[1] / "packs" / "take_turns"


def test_hot_seat_hands_over_behind_a_prompt(browser: Any, serve: Any) -> None:
    lobby = Lobby(ruleskit.load("tests/packs/card_duel"), 2, ["human", "human"], 1)
    lobby.start()
    server = serve(play_app(lobby))
    browser.get(f"{server.base}/host/{lobby.host_token}")
    overlay = wait_for(browser, lambda b: b.find_element(By.ID, "handover"))
    wait_for(browser, lambda b: overlay.is_displayed())
    decider = lobby.current().state.players_to_decide()[0]
    assert f"Player {decider + 1}" in browser.find_element(By.ID, "handover-text").text
    assert browser.find_element(By.ID, "players").text == ""  # nothing shown behind the prompt
    browser.find_element(By.ID, "handover-button").click()
    wait_for(browser, lambda b: action_buttons(b))
    hand = lobby.current().state.data["z"][f"hand@{decider}"]
    players = browser.find_element(By.ID, "players").text
    assert all(card in players for card in hand)
    other = lobby.current().state.data["z"][f"hand@{1 - decider}"]
    assert not any(card in players for card in other)


def test_each_seat_has_its_own_page(browser: Any, serve: Any) -> None:
    lobby = Lobby(ruleskit.load("tests/packs/card_duel"), 2, ["human", "human"], 2)
    table = lobby.start()
    server = serve(play_app(lobby))
    decider = table.state.players_to_decide()[0]
    waiting = 1 - decider
    browser.get(f"{server.base}/seat/{table.tokens[waiting]}")
    wait_for(browser, lambda b: "Waiting for" in b.find_element(By.ID, "actions").text)
    assert not action_buttons(browser)
    assert browser.find_elements(By.XPATH, "//button[text()='New game…']") == []  # the host's tools are not here
    browser.get(f"{server.base}/seat/{table.tokens[decider]}")
    wait_for(browser, lambda b: action_buttons(b))
    players = browser.find_element(By.ID, "players").text
    assert all(card in players for card in table.state.data["z"][f"hand@{decider}"])
    assert not any(card in players for card in table.state.data["z"][f"hand@{waiting}"])
    assert click_random_action(browser, random.Random(2))
    assert len(lobby.current().state.history) == 2


def test_replay_steps_with_the_slider_and_buttons(browser: Any, serve: Any, tmp_path: Path) -> None:
    state = ruleskit.load("tests/packs/card_duel").new_game(players=2, seed=5)
    rng = random.Random(5)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    log = tmp_path / "duel.jsonl"
    write_log(state, log)
    replay = LogReplay(log, "tests/packs/card_duel")
    server = serve(replay_app(replay))
    browser.get(f"{server.base}/replay")
    step = wait_for(browser, lambda b: b.find_element(By.ID, "step"))
    wait_for(browser, lambda b: step.text == f"step 0 of {replay.steps}")
    browser.find_element(By.ID, "forward").click()
    browser.find_element(By.ID, "forward").click()
    wait_for(browser, lambda b: step.text == f"step 2 of {replay.steps}")
    browser.find_element(By.ID, "back").click()
    wait_for(browser, lambda b: step.text == f"step 1 of {replay.steps}")
    hand = replay.states[1].data["z"]["hand@1"]
    wait_for(browser, lambda b: all(c in b.find_element(By.ID, "players").text for c in hand))
    browser.find_element(By.CSS_SELECTOR, "#viewer option[value='0']").click()  # as Player 1
    wait_for(browser, lambda b: not any(c in b.find_element(By.ID, "players").text for c in hand))
    time.sleep(0.1)
    assert "hidden" in browser.find_element(By.ID, "players").text


CUP = "tests/packs/cup_dice"


def feed_text(browser: Any) -> str:
    return str(browser.find_element(By.ID, "feed").text)


def test_a_secret_die_is_shown_with_its_value_on_its_rollers_page_alone(browser: Any, serve: Any) -> None:
    lobby = Lobby(ruleskit.load(CUP), 2, ["human", "human"], 1)
    table = lobby.start()
    server = serve(play_app(lobby))
    cup = table.state.history[0]["chance"][0]["value"]
    browser.get(f"{server.base}/seat/{table.tokens[0]}")
    wait_for(browser, lambda b: f"Player 1 rolled cup: {cup} (secret)" in feed_text(b))
    browser.get(f"{server.base}/seat/{table.tokens[1]}")
    wait_for(browser, lambda b: "Player 1 rolled cup" in feed_text(b))
    assert "Player 1 rolled cup:" not in feed_text(browser)
    # Player 1 throws from their own page; the next turn's cup is Player 2's, told on Player 2's page alone.
    browser.get(f"{server.base}/seat/{table.tokens[0]}")
    throw = wait_for(browser, lambda b: [x for x in action_buttons(b) if x.get_attribute("data-action") == "throw"])
    throw[0].click()
    wait_for(browser, lambda b: len(lobby.current().state.history) == 2)
    second = lobby.current().state.history[-1]["chance"][1]["value"]
    wait_for(browser, lambda b: "Player 2 rolled cup" in feed_text(b))
    assert "Player 2 rolled cup:" not in feed_text(browser)
    browser.get(f"{server.base}/seat/{table.tokens[1]}")
    wait_for(browser, lambda b: f"Player 2 rolled cup: {second} (secret)" in feed_text(b))
    screenshot(browser, "cup-dice-second-seat.png")


def test_a_save_loaded_from_the_page_retells_its_story(browser: Any, serve: Any, tmp_path: Path) -> None:
    played = Lobby(ruleskit.load("tests/packs/card_duel"), 2, ["human", "human"], 4)
    table = played.start()
    for _ in range(3):
        seat = table.state.players_to_decide()[0]
        table.act(seat, table.state.legal_actions()[0].id, table.payload(seat)["version"])
    save = tmp_path / "duel-save.json"
    save.write_text(table.save_text(), encoding="utf-8")
    history = [entry.get("action") for entry in table.state.history]

    lobby = Lobby(ruleskit.load("tests/packs/card_duel"), 2, ["human", "human"], 9)
    lobby.start()
    server = serve(play_app(lobby))
    browser.get(f"{server.base}/host/{lobby.host_token}")
    wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, "input[type=file]"))
    browser.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(save))
    wait_for(browser, lambda b: "Loaded duel-save.json." in b.find_element(By.TAG_NAME, "body").text)
    # Two players share the screen: the loaded game is shown behind the prompt to pass it.
    button = wait_for(browser, lambda b: b.find_element(By.ID, "handover-button"))
    wait_for(browser, lambda b: button.is_displayed())
    button.click()
    wait_for(browser, lambda b: "Loaded duel-save.json" in feed_text(b))
    assert [entry.get("action") for entry in lobby.current().state.history] == history
    feed = feed_text(browser)
    assert "New game of" not in feed and "after 3 decisions" in feed
    screenshot(browser, "duel-loaded.png")
