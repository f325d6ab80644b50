"""Charts for the deck editor's statistics, drawn with pyqtgraph (docs/decks.md says why).

Each function returns a ready ``pyqtgraph.PlotWidget``; ``update_*`` redraws one in place.
Colours follow the table's: military red, intrigue green, power blue (app/card_item.py).
"""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QColor, QFont, QFontMetrics

pg.setConfigOptions(antialias=True, background="#fbf7ee", foreground="#2b2115")

ICON_COLOURS = {"military": "#b8322a", "intrigue": "#2f7d3a", "power": "#2d5ea8"}
TYPE_COLOURS = {"character": "#8a5a2b", "location": "#5c7f4a", "attachment": "#6d5a9a", "event": "#b58b25"}
PALETTE = ["#8a5a2b", "#2d5ea8", "#b8322a", "#2f7d3a", "#6d5a9a", "#b58b25", "#3b8a8a"]


class Chart(pg.PlotWidget):
    """A titled bar chart with categorical x (or y, for horizontal bars) ticks."""

    def __init__(self, title: str, *, horizontal: bool = False, height: int = 200):
        super().__init__()
        self.horizontal = horizontal
        self.setMinimumHeight(height)
        self.setMenuEnabled(False)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.getPlotItem().setTitle(f"<span style='font-size:11pt'><b>{title}</b></span>")
        self.showGrid(x=horizontal, y=not horizontal, alpha=0.25)
        font = QFont()
        font.setPointSize(8)
        for axis in ("left", "bottom"):
            self.getAxis(axis).setTickFont(font)
        self.font = font
        self.legend = None
        self.title = title

    def _clear(self) -> None:
        self.clear()
        if self.legend is not None:
            self.legend.scene().removeItem(self.legend) if self.legend.scene() else None
            self.legend = None

    def bars(self, labels: list[str], series: dict[str, list[float]], colours: dict[str, str] | None = None,
             *, stacked: bool = False, value_format: str = "{:g}") -> None:
        """Draw ``series`` (name -> one value per label) as bars, grouped or stacked."""
        self._clear()
        colours = colours or {}
        names = list(series)
        if len(names) > 1:
            self.legend = self.addLegend(offset=(-6, 6), labelTextSize="8pt")
        n = max(1, len(names))
        width = 0.75 if stacked else 0.8 / n
        base = [0.0] * len(labels)
        top = 0.0
        for i, name in enumerate(names):
            values = series[name]
            colour = colours.get(name, PALETTE[i % len(PALETTE)])
            pos = list(range(len(labels))) if stacked else [x - 0.4 + width * (i + 0.5) for x in range(len(labels))]
            if self.horizontal:
                item = pg.BarGraphItem(x0=base if stacked else [0] * len(values), y=pos, height=width,
                                       width=values, brush=QColor(colour), pen=pg.mkPen("#3a2c1a", width=0.5),
                                       name=name)
            else:
                item = pg.BarGraphItem(x=pos, y0=base if stacked else [0] * len(values), width=width,
                                       height=values, brush=QColor(colour), pen=pg.mkPen("#3a2c1a", width=0.5),
                                       name=name)
            self.addItem(item)
            if stacked:
                base = [b + v for b, v in zip(base, values)]
                top = max(base, default=0.0)
            else:
                top = max([top, *values])
        if not stacked and len(names) == 1:
            for x, v in zip(range(len(labels)), series[names[0]]):
                if v:
                    text = pg.TextItem(value_format.format(v), color="#2b2115",
                                       anchor=(0, 0.5) if self.horizontal else (0.5, 1))
                    text.setPos(v, x) if self.horizontal else text.setPos(x, v)
                    self.addItem(text)
        elif stacked:
            for x, v in enumerate(base):
                if v:
                    text = pg.TextItem(value_format.format(v), color="#2b2115",
                                       anchor=(0, 0.5) if self.horizontal else (0.5, 1))
                    text.setPos(v, x) if self.horizontal else text.setPos(x, v)
                    self.addItem(text)
        self._category_axis(labels)
        span = top * 1.18 + (1 if top == 0 else 0)
        if self.horizontal:
            self.setYRange(-0.6, max(len(labels), 1) - 0.4, padding=0)
            self.setXRange(0, span, padding=0)
            self.getViewBox().invertY(True)
        else:
            self.setXRange(-0.6, max(len(labels), 1) - 0.4, padding=0)
            self.setYRange(0, span, padding=0)

    def _category_axis(self, labels: list[str]) -> None:
        """One tick per category, every label drawn: pyqtgraph leaves out a label wider than the
        axis, so a left axis is made as wide as its longest label."""
        axis = self.getAxis("left" if self.horizontal else "bottom")
        axis.setTicks([list(enumerate(labels))])
        axis.setStyle(hideOverlappingLabels=False)
        if self.horizontal:
            widest = max((QFontMetrics(self.font).horizontalAdvance(t) for t in labels), default=20)
            axis.setWidth(widest + 14)

    def lines(self, labels: list[str], series: dict[str, list[float]], *, y_max: float | None = None,
              percent: bool = False) -> None:
        """Draw ``series`` as lines with points over categorical x."""
        self._clear()
        if series:
            self.legend = self.addLegend(offset=(-6, 6), labelTextSize="8pt")
        for i, (name, values) in enumerate(series.items()):
            colour = PALETTE[i % len(PALETTE)]
            ys = [v * 100 for v in values] if percent else values
            self.plot(list(range(len(values))), ys, pen=pg.mkPen(colour, width=2), symbol="o", symbolSize=6,
                      symbolBrush=colour, name=name)
        self._category_axis(labels)
        self.setXRange(-0.3, max(len(labels), 1) - 0.7, padding=0)
        top = (100 if percent else (y_max or 1))
        self.setYRange(0, top * 1.05, padding=0)
        if percent:
            self.getAxis("left").setLabel("%")


def empty_note(chart: Chart, text: str) -> None:
    """Say why a chart is empty."""
    chart._clear()
    note = pg.TextItem(text, color="#7a6a55", anchor=(0.5, 0.5))
    chart.addItem(note)
    note.setPos(0.5, 0.5)
    chart.setXRange(0, 1)
    chart.setYRange(0, 1)
    chart.getAxis("bottom").setTicks([[]])
    chart.getAxis("left").setTicks(None)


