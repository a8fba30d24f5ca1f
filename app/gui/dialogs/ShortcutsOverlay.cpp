// The ? overlay (ShortcutsOverlay.h): a dimmed window with a panel of keys on top.
#include "app/gui/dialogs/ShortcutsOverlay.h"

#include <QEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QPainterPath>

#include "app/gui/Theme.h"

namespace lanescope {

const std::vector<ShortcutLine>& shortcutLines() {
    static const std::vector<ShortcutLine> lines = {
        {"", "Navigate"},
        {"Wheel, Ctrl+wheel, W / S, ↑ / ↓", "zoom around the cursor"},
        {"Middle-drag, Shift+drag, Shift+wheel, A / D, ← / →", "pan"},
        {"Double-click, F", "fit the event, merged box or selection"},
        {"Home", "fit the whole report"},
        {"Backspace", "back in the zoom history"},
        {"", "Select"},
        {"Click", "select an event: its details, the call that launched it"},
        {"Drag (on the lanes or the ruler)", "select a time range"},
        {"Esc, click on the ruler", "clear the selection (Esc: the picked rows too)"},
        {"", "Find and mark"},
        {"Ctrl+F", "find events by name (substring or /regex/)"},
        {"Enter, F3 / Shift+Enter, Shift+F3", "next / previous match"},
        {"Ctrl+M", "drop a marker at the cursor"},
        {"F2, Del", "rename, remove the marker (Markers panel)"},
        {"", "Rows"},
        {"Right-click a row", "hide, show only, expand, collapse"},
        {"Drag a row name", "reorder rows"},
        {"", "Events table"},
        {"Click, Ctrl+click a row name", "pick rows: their events in the selected range"},
        {"Ctrl+Shift+E", "show the Events table"},
        {"Double-click, Return, Enter", "zoom to the event of the table's row"},
        {"", "Critical path"},
        {"Ctrl+Shift+K", "show the critical path of the selected range (else the whole report)"},
        {"Click, Return on a segment; N, Shift+N", "go to the segment; the next, previous one"},
        {"", "Communication"},
        {"Ctrl+Shift+M", "show the NCCL collectives: sizes, bus bandwidth, overlap, waits across ranks"},
        {"Click a collective, a point or a summary row", "select its kernel (a summary row: its longest)"},
        {"", "Query"},
        {"Ctrl+Shift+Q", "show the Query panel: SQL over the report"},
        {"Ctrl+Return, Ctrl+Enter, Esc", "run the query, stop it"},
        {"Click, Return on a result row", "show its event or time range on the timeline"},
        {"", "PyTorch"},
        {"Ctrl+Shift+P", "show the PyTorch panel: overview, operators, kernels, memory, modules"},
        {"Click a row", "show its longest instance on the timeline; F3 the next"},
        {"", "Files and help"},
        {"Ctrl+O", "open reports"},
        {"Ctrl+Shift+O", "open rank summaries (a folder)"},
        {"Ctrl+W, Ctrl+F4", "close all reports and rank summaries"},
        {"Ctrl+E", "export the timeline as PNG"},
        {"Ctrl+C", "copy the selected statistics (CSV) or events (tab-separated) rows"},
        {"Ctrl+Shift+T", "Call tree: CPU samples as trees and a flame graph"},
        {"Double-click a function, Esc", "mark its samples on the timeline, clear them"},
        {"Ctrl+Q", "quit"},
        {"?, F1", "this overlay (any key or click closes it)"},
    };
    return lines;
}

ShortcutsOverlay::ShortcutsOverlay(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_NoSystemBackground);
    setToolTip("Keyboard shortcuts: any key or click closes this");
    hide();
    parent->installEventFilter(this);
}

void ShortcutsOverlay::popUp() {
    setGeometry(parentWidget()->rect());
    raise();
    show();
    setFocus(Qt::PopupFocusReason);
}

bool ShortcutsOverlay::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize && isVisible())
        setGeometry(parentWidget()->rect());
    return QWidget::eventFilter(watched, event);
}

void ShortcutsOverlay::keyPressEvent(QKeyEvent* event) {
    event->accept();
    hide();
    parentWidget()->setFocus();
}

void ShortcutsOverlay::mousePressEvent(QMouseEvent* event) {
    event->accept();
    hide();
    parentWidget()->setFocus();
}

void ShortcutsOverlay::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const bool dark = isDark(palette());
    p.fillRect(rect(), QColor(0, 0, 0, dark ? 120 : 90));

    QFont body = font();
    QFont bold = body;
    bold.setBold(true);
    QFont title = bold;
    title.setPointSizeF(body.pointSizeF() * 1.3);
    const QFontMetrics bodyMetrics(body), boldMetrics(bold), titleMetrics(title);
    const int line = boldMetrics.height() + 6, sectionGap = 4, gap = 24, columnGap = 40, pad = 22;
    const int header = titleMetrics.height() + 10, footer = bodyMetrics.height() + 8;
    const std::vector<ShortcutLine>& lines = shortcutLines();
    int keysWidth = 0, actionWidth = 0, total = 0;
    for (const ShortcutLine& l : lines) {
        keysWidth = std::max(keysWidth, boldMetrics.horizontalAdvance(l.keys));
        actionWidth = std::max(actionWidth, bodyMetrics.horizontalAdvance(l.action));
        total += l.keys.isEmpty() ? line + sectionGap : line;
    }
    // One column when it fits the height, else two, split at the section nearest the middle.
    size_t split = lines.size();
    int columnHeight = total;
    if (pad * 2 + header + total + footer > height() - 16) {
        int above = 0, best = total;
        for (size_t i = 0; i < lines.size(); ++i) {
            if (lines[i].keys.isEmpty() && i > 0 && std::abs(total - 2 * above) < std::abs(total - 2 * best)) {
                best = above;
                split = i;
            }
            above += lines[i].keys.isEmpty() ? line + sectionGap : line;
        }
        columnHeight = std::max(best, total - best);
    }
    const int columnWidth = keysWidth + gap + actionWidth;
    const int columns = split < lines.size() ? 2 : 1;
    const QSize panel(pad * 2 + columns * columnWidth + (columns - 1) * columnGap,
                      pad * 2 + header + columnHeight + footer);
    const QRect box(QPoint(std::max(8, (width() - panel.width()) / 2), std::max(8, (height() - panel.height()) / 2)),
                    panel);

    QColor background = palette().color(QPalette::Window);
    background.setAlpha(238);
    QPainterPath path;
    path.addRoundedRect(QRectF(box).adjusted(0.5, 0.5, -0.5, -0.5), 10, 10);
    p.fillPath(path, background);
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawPath(path);

    const QColor text = palette().color(QPalette::WindowText);
    const QColor section = palette().color(QPalette::Link);
    const QColor muted = palette().color(QPalette::PlaceholderText);
    const int top = box.top() + pad + header;
    p.setFont(title);
    p.setPen(text);
    p.drawText(QRect(box.left() + pad, box.top() + pad, panel.width() - 2 * pad, titleMetrics.height()),
               Qt::AlignLeft | Qt::AlignVCenter, "Keyboard shortcuts");
    int x = box.left() + pad, y = top;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i == split) {
            x += columnWidth + columnGap;
            y = top;
        }
        const ShortcutLine& l = lines[i];
        if (l.keys.isEmpty()) {
            y += sectionGap;
            p.setFont(bold);
            p.setPen(section);
            p.drawText(QRect(x, y, columnWidth, line), Qt::AlignLeft | Qt::AlignVCenter, l.action);
        } else {
            p.setFont(bold);
            p.setPen(text);
            p.drawText(QRect(x, y, keysWidth, line), Qt::AlignLeft | Qt::AlignVCenter, l.keys);
            p.setFont(body);
            p.drawText(QRect(x + keysWidth + gap, y, actionWidth, line), Qt::AlignLeft | Qt::AlignVCenter, l.action);
        }
        y += line;
    }
    p.setFont(body);
    p.setPen(muted);
    p.drawText(QRect(box.left() + pad, box.bottom() - pad - bodyMetrics.height(), panel.width() - 2 * pad,
                     bodyMetrics.height()),
               Qt::AlignRight | Qt::AlignVCenter, "Esc or any key closes");
}

}  // namespace lanescope
