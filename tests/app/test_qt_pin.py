"""PySide6 6.12.0 on Python 3.11 corrupts None's refcount on void calls (none_dealloc).

pyproject pins PySide6 below 6.12 for Python < 3.12; this keeps the pin honest by
calling a void Qt method 10,000 times in a process that must survive it.
"""
import subprocess
import sys


def test_void_qt_method_10000_times_does_not_crash():
    code = (
        "import os; os.environ.setdefault('QT_QPA_PLATFORM', 'offscreen')\n"
        "from PySide6.QtWidgets import QApplication, QWidget\n"
        "app = QApplication([])\n"
        "w = QWidget()\n"
        "for i in range(10000):\n"
        "    w.setMinimumWidth(i % 50)\n"
        "print('ok', w.minimumWidth())\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok 49"


def test_pyside_version_is_pinned_on_old_python():
    import PySide6

    major, minor = (int(x) for x in PySide6.__version__.split(".")[:2])
    if sys.version_info < (3, 12):
        assert (major, minor) < (6, 12), f"PySide6 {PySide6.__version__} crashes on Python 3.11"
