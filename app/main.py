"""The ``maester`` command: opens the table."""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from PySide6.QtWidgets import QApplication, QLabel

    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = QLabel("Maester")
    window.setWindowTitle("Maester")
    window.resize(800, 600)
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
