"""The card browser's search box (app/browser.py) with queries the search language refuses."""
from __future__ import annotations

from app.browser import CardBrowser
from cards.model import CardDef, CardPool
from cards.search import MAX_DEPTH


def test_a_deeply_nested_query_is_shown_as_a_message(qtbot):
    pool = CardPool()
    pool.add(CardDef(key="k1", name="Invented Wall", type="location"))
    browser = CardBrowser({"all": pool})
    qtbot.addWidget(browser)
    browser.set_query("(" * 2000 + "wall" + ")" * 2000)  # raised RecursionError inside the slot
    assert f"more than {MAX_DEPTH} deep" in browser.status.text()
    browser.set_query("- " * 3000 + "wall")
    assert f"more than {MAX_DEPTH} deep" in browser.status.text()
    browser.set_query("wall")
    assert [c.key for c in browser.visible_cards()] == ["k1"]
