// The timeline's input: wheel, mouse, keys and the context menu (drawing: TimelinePaint.cpp;
// hit testing and tooltips: TimelineHitTest.cpp; state and geometry: TimelineView.cpp).
#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "timeline/QtText.h"
#include "timeline/TimelineView.h"

namespace lanescope {
namespace {

constexpr int kClickSlopPx = 4;  // a press and release closer than this is a click, not a drag

}  // namespace

// ---- input ----

void TimelineView::wheelEvent(QWheelEvent* event) {
    const QPoint pos = event->position().toPoint();
    const double steps = event->angleDelta().y() / 120.0;
    if (pos.x() < headerWidth_ && !(event->modifiers() & Qt::ControlModifier)) {
        vertical_->setValue(vertical_->value() - int(steps * 3 * RowLayout::kDepthPx));
        return;
    }
    if (event->modifiers() & Qt::ShiftModifier) {
        const double dx = event->angleDelta().x() ? event->angleDelta().x() / 120.0 : steps;
        panBy(static_cast<int64_t>(-dx * 0.1 * double(viewport_.visibleSpan())));
        return;
    }
    // Remember the view before a burst of wheel zooming, not every notch.
    if (lastWheel_.elapsed() > 600) emit viewJumped({viewport_.visibleBegin(), viewport_.visibleEnd()});
    lastWheel_.restart();
    zoomAround(std::pow(1.25, steps), timeAt(std::max<double>(pos.x(), headerWidth_)));
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    setFocus();
    const QPoint pos = event->position().toPoint();
    drag_ = {};
    drag_.origin = pos;
    drag_.button = event->button();
    const bool pan = event->button() == Qt::MiddleButton ||
                     (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (pan && pos.x() > headerWidth_ + 3) {  // middle-drag or Shift+drag, lanes or ruler
        drag_.kind = Drag::Kind::Pan;
        drag_.originBegin = viewport_.visibleBegin();
        return;
    }
    if (event->button() != Qt::LeftButton) return;
    if (std::abs(pos.x() - headerWidth_) <= 3) {
        drag_.kind = Drag::Kind::ResizeHeader;
    } else if (pos.x() < headerWidth_) {
        const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
        if (!row || pos.y() < kRulerHeight) return;
        const int arrowRight = 8 + row->level * 14 + 14;
        if (row->expandable && pos.x() < arrowRight) {
            layout_.toggleExpanded(row->key);
            rowsChanged();
            return;
        }
        drag_.kind = Drag::Kind::MoveRow;
        drag_.rowKey = row->key;
        drag_.toggle = event->modifiers() & Qt::ControlModifier;
    } else {  // left-drag on the lanes or the ruler selects a time range; a click selects an event
        drag_.kind = Drag::Kind::Select;
        drag_.onRuler = pos.y() < kRulerHeight;
        drag_.anchorTime = timeAt(pos.x());
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    switch (drag_.kind) {
        case Drag::Kind::Pan: {
            const double nsPerPx = mapping().ns_per_px;
            const int64_t begin = drag_.originBegin - static_cast<int64_t>((pos.x() - drag_.origin.x()) * nsPerPx);
            viewport_.setVisible(begin, begin + viewport_.visibleSpan());
            setCursor(Qt::ClosedHandCursor);
            viewportMoved();
            return;
        }
        case Drag::Kind::Select: {
            // A click that wobbles a pixel or two is still a click: the range starts past that.
            if (!drag_.moved && (pos - drag_.origin).manhattanLength() <= kClickSlopPx) return;
            drag_.moved = true;
            setCursor(Qt::SizeHorCursor);
            const int64_t t = timeAt(std::clamp(pos.x(), headerWidth_, laneArea().right()));
            range_ = std::make_pair(std::min(t, drag_.anchorTime), std::max(t, drag_.anchorTime));
            update();
            return;
        }
        case Drag::Kind::ResizeHeader:
            headerWidth_ = std::clamp(pos.x(), 120, width() / 2);
            rowsChanged();
            return;
        case Drag::Kind::MoveRow:
            if (std::abs(pos.y() - drag_.origin.y()) > 6) setCursor(Qt::DragMoveCursor);
            return;
        case Drag::Kind::None:
            break;
    }
    setCursor(std::abs(pos.x() - headerWidth_) <= 3 ? Qt::SplitHCursor : Qt::ArrowCursor);
    uint32_t merged = 0;
    const auto hover = eventAt(pos, &merged);
    if (hover != hovered_) {
        hovered_ = hover;
        update();
    }
}

// A click on the lanes selects the event under it, else the instant (sample, marker) nearest
// to it, else nothing.
void TimelineView::clickAt(QPoint pos) {
    std::optional<ViewEvent> event = eventAt(pos);
    if (event) event = selectable(*event);
    selectEvent(event);
    if (!event)
        if (const auto instant = instantAt(pos)) selectInstant(instant);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    const bool moved = (pos - drag_.origin).manhattanLength() > kClickSlopPx;
    if (drag_.kind == Drag::Kind::Select) {
        if (drag_.moved && range_ && range_->second > range_->first)
            emit rangeSelected(range_);
        else if (drag_.onRuler || drag_.moved)
            setSelectedRange(std::nullopt);  // a click on the ruler clears it
        else
            clickAt(pos);
    } else if (drag_.kind == Drag::Kind::Pan && !moved && drag_.button == Qt::LeftButton) {
        clickAt(pos);  // Shift+click
    } else if (drag_.kind == Drag::Kind::MoveRow && moved) {
        if (const LayoutRow* target = layout_.rowAt(pos.y() - kRulerHeight + scrollY()))
            if (layout_.moveBefore(drag_.rowKey, target->key)) rowsChanged();
    } else if (drag_.kind == Drag::Kind::MoveRow) {  // a click on a row name selects the row
        const auto at = std::find(selectedRows_.begin(), selectedRows_.end(), drag_.rowKey);
        if (!drag_.toggle)
            selectedRows_ = {drag_.rowKey};
        else if (at != selectedRows_.end())
            selectedRows_.erase(at);
        else
            selectedRows_.push_back(drag_.rowKey);
        update();
        emit rowsSelected();
    }
    drag_ = {};
    unsetCursor();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (pos.x() < headerWidth_) {
        if (const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY()); row && row->expandable) {
            layout_.toggleExpanded(row->key);
            rowsChanged();
        }
        return;
    }
    uint32_t merged = 0;
    const auto ev = eventAt(pos, &merged);
    if (!ev) {
        fitSelection();
        return;
    }
    const Lane& lane = shownLane(ev->report, int(ev->lane));
    if (merged > 1) {  // zoom into the merged run
        const uint32_t first = ev->event;
        const int64_t s = lane.events.start_ns[first];
        // The run spans from its first event to the last one merged with it.
        int64_t e = lane.events.endNs(first);
        const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
        const LaneCache& g = geometry(row->report, int(ev->lane), row->type == Row::Type::Lane ? 256 : 1);
        for (const Box& b : g.boxes)
            if (b.event(lane) == first) e = b.end_ns;
        zoomTo(s + reportOffset(ev->report), std::max(e, s + 100) + reportOffset(ev->report));
        return;
    }
    selectEvent(selectable(*ev));
    fitSelection();
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    const int64_t span = viewport_.visibleSpan();
    const int64_t centre = viewport_.visibleBegin() + span / 2;
    const QPoint cursor = mapFromGlobal(QCursor::pos());
    const int64_t anchor = laneArea().contains(cursor) ? timeAt(cursor.x()) : centre;
    switch (event->key()) {
        case Qt::Key_W:
        case Qt::Key_Up:
            zoomAround(1.5, anchor);
            break;
        case Qt::Key_S:
        case Qt::Key_Down:
            zoomAround(1 / 1.5, anchor);
            break;
        case Qt::Key_A:
        case Qt::Key_Left:
            panBy(-span / 8);
            break;
        case Qt::Key_D:
        case Qt::Key_Right:
            panBy(span / 8);
            break;
        case Qt::Key_F:
            fitSelection();
            break;
        case Qt::Key_Home:
            fitAll();
            break;
        case Qt::Key_Backspace:
            emit backRequested();
            break;
        case Qt::Key_Escape:
            if (!marked_.empty()) {  // first the marked samples, then the selection
                setMarkedSamples({});
                emit markedSamplesCleared();
                break;
            }
            setSelectedRange(std::nullopt);
            selectEvent(std::nullopt);
            if (!selectedRows_.empty()) {
                selectedRows_.clear();
                update();
                emit rowsSelected();
            }
            break;
        case Qt::Key_M:
            if (event->modifiers() & Qt::ControlModifier)
                emit markerRequested(anchor);
            else
                QWidget::keyPressEvent(event);
            break;
        default:
            QWidget::keyPressEvent(event);
    }
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event) {
    const LayoutRow* row = layout_.rowAt(event->pos().y() - kRulerHeight + scrollY());
    QMenu menu(this);
    if (row && event->pos().y() >= kRulerHeight) {
        const std::string key = row->key;
        menu.addAction(QString("Hide “%1”").arg(qs(row->label)), this, [this, key] {
            layout_.hide(key);
            rowsChanged();
        });
        menu.addAction("Show only this", this, [this, key] {
            layout_.showOnly(key);
            rowsChanged();
        });
        if (row->expandable)
            menu.addAction(row->expanded ? "Collapse" : "Expand", this, [this, key] {
                layout_.toggleExpanded(key);
                rowsChanged();
            });
    }
    menu.addAction(QString("Show all rows (%1 hidden)").arg(layout_.hiddenCount()), this,
                   [this] {
                       layout_.showAll();
                       rowsChanged();
                   })
        ->setEnabled(layout_.hiddenCount() > 0);
    menu.addSeparator();
    menu.addAction("Fit all\tHome", this, &TimelineView::fitAll);
    menu.addAction("Zoom back\tBackspace", this, &TimelineView::backRequested);
    menu.exec(event->globalPos());
}

}  // namespace lanescope
