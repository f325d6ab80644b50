"""``maester --autoplay N --screenshot PNG``: the computer plays before the window is shown. The table
shown afterwards must be the current one: no privacy screen left from the first seat's hand-over (the
table was hidden before the window existed on screen), and the banner centred over the table."""
from __future__ import annotations

from PySide6.QtWidgets import QApplication

from app.dialogs import GameSetup
from app.window import TableWindow


def test_autoplay_before_the_window_is_shown_leaves_no_privacy_screen(qtbot):
    window = TableWindow(GameSetup(names=["Alice", "Bob"], seed=3), computer_delay_ms=0)
    qtbot.addWidget(window)
    assert window.controller.hands_hidden and not window.privacy.isHidden()  # hotseat opens hidden
    played = window.controller.autoplay(60)
    assert played > 0 and not window.controller.hands_hidden
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    QApplication.processEvents()
    assert window.privacy.isHidden() and not window.privacy.isVisible()
    assert window.view.isVisible()
    window.show_banner("A banner")
    qtbot.wait(10)
    banner = window.banner
    centre = banner.x() + banner.width() // 2
    assert abs(centre - window.view.width() // 2) <= 2
    window.close()
