// The timeline's hit testing: the event or instant under a point, an event's rectangle, and
// the tooltips built from them and from the counters (input: TimelineInput.cpp; drawing: TimelinePaint.cpp).
#include <QHelpEvent>
#include <QLocale>
#include <QStringList>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "model/CudaMemory.h"
#include "model/GpuProperties.h"
#include "timeline/HitTest.h"
#include "timeline/NumberFormat.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineView.h"

namespace lanescope {
namespace {}  // namespace

// ---- hit testing ----

std::optional<ViewEvent> TimelineView::eventAt(QPoint pos, uint32_t* mergedCount) const {
    const QRect area = laneArea();
    if (!area.contains(pos)) return std::nullopt;
    const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
    if (!row || row->lanes.empty() || row->type == Row::Type::Counter) return std::nullopt;
    const int top = row->y - scrollY() + kRulerHeight;
    const int depth = (pos.y() - top - RowLayout::kPaddingPx / 2) / RowLayout::kDepthPx;
    const bool summary = row->type != Row::Type::Lane;
    for (int lane : row->lanes) {
        const LaneCache& g = geometry(row->report, lane, summary ? 1 : 256);
        if (const Box* b = boxAt(g.boxes, summary ? 0 : depth, builtX(pos.x() - headerWidth_))) {
            if (mergedCount) *mergedCount = b->count;
            return ViewEvent{row->report, uint32_t(lane), b->event(shownLane(row->report, lane))};
        }
    }
    return std::nullopt;
}

const LayoutRow* TimelineView::rowShowing(const ViewEvent& ev) const {
    const LayoutRow* summary = nullptr;
    for (const LayoutRow& row : layout_.rows()) {
        if (row.report != ev.report || std::find(row.lanes.begin(), row.lanes.end(), int(ev.lane)) == row.lanes.end())
            continue;
        if (row.type == Row::Type::Lane) return &row;
        if (!summary) summary = &row;
    }
    return summary;
}

QRect TimelineView::eventRect(const ViewEvent& ev) const {
    if (const LayoutRow* found = rowShowing(ev)) {
        const LayoutRow& row = *found;
        const Lane& lane = shownLane(ev.report, int(ev.lane));
        const bool summary = row.type != Row::Type::Lane;
        const int depth = summary ? 0 : lane.events.depth[ev.event];
        const int top = row.y - scrollY() + kRulerHeight + RowLayout::kPaddingPx / 2 + depth * RowLayout::kDepthPx;
        const int64_t offset = reportOffset(ev.report);
        const int x0 = int(std::floor(xOf(lane.events.start_ns[ev.event] + offset)));
        const int x1 = std::max(x0 + 2, int(std::ceil(xOf(lane.events.endNs(ev.event) + offset))));
        return QRect(QPoint(x0, top), QPoint(x1, top + row.boxHeight()));
    }
    return {};
}

bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        showTooltip(static_cast<QHelpEvent*>(event)->pos());
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::showTooltip(QPoint pos) {
    uint32_t merged = 0;
    const auto ev = eventAt(pos, &merged);
    if (!ev) {
        QString text = instantTooltip(pos);
        if (text.isEmpty()) text = counterTooltip(pos);
        if (text.isEmpty()) text = gpuTooltip(pos);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(mapToGlobal(pos), text, this);
        return;
    }
    const Report& r = *layout_.reports()[ev->report];
    const Lane& lane = shownLane(ev->report, int(ev->lane));
    QString text;
    if (merged > 1) {
        text = QString("<b>%1 events</b> too small to show at this zoom<br>double-click to zoom in").arg(merged);
    } else {
        const int64_t s = lane.events.start_ns[ev->event], e = lane.events.endNs(ev->event);
        text = QString("<b>%1</b><br>start %2<br>duration %3<br>%4")
                   .arg(qs(r.str(lane.events.name_id[ev->event])).toHtmlEscaped(),
                        qs(formatDuration(s + reportOffset(ev->report) - viewport_.wholeBegin(), 6)),
                        qs(formatDuration(e - s)), qs(r.str(lane.name_id)).toHtmlEscaped());
    }
    QToolTip::showText(mapToGlobal(pos), text, this);
}

std::optional<ViewInstant> TimelineView::instantAt(QPoint pos) const {
    const QRect area = laneArea();
    if (!area.contains(pos)) return {};
    const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
    if (!row || row->type != Row::Type::Lane || row->lanes.empty()) return {};
    const Report& r = *layout_.reports()[row->report];
    const PixelMapping m = mapping(row->report);
    const double x = pos.x() - headerWidth_;
    const int64_t t = m.toTime(x), slack = std::max<int64_t>(1, m.toTime(x + 4) - t);
    // The instant nearest to the cursor, within 4 pixels.
    const Lane* best = nullptr;
    size_t bestIndex = 0;
    int64_t bestDistance = slack + 1;
    for (int li : row->lanes) {
        const Lane& lane = r.lanes[li];
        const auto& times = lane.instants.time_ns;
        for (auto it = std::lower_bound(times.begin(), times.end(), t - slack); it != times.end() && *it <= t + slack;
             ++it)
            if (std::abs(*it - t) < bestDistance) {
                bestDistance = std::abs(*it - t);
                best = &lane;
                bestIndex = static_cast<size_t>(it - times.begin());
            }
    }
    if (!best) return {};
    return ViewInstant{row->report, static_cast<uint32_t>(best - r.lanes.data()), static_cast<uint32_t>(bestIndex)};
}

QString TimelineView::instantTooltip(QPoint pos) const {
    const std::optional<ViewInstant> instant = instantAt(pos);
    if (!instant) return {};
    const Report& r = *layout_.reports()[instant->report];
    const Lane* best = &r.lanes[instant->lane];
    const size_t bestIndex = instant->instant;
    const int64_t at = best->instants.time_ns[bestIndex];
    const QString when = qs(formatDuration(at + reportOffset(instant->report) - viewport_.wholeBegin(), 6));
    if (best->kind != LaneKind::CpuSamples)
        return QString("<b>%1</b><br>at %2").arg(qs(r.str(best->instants.name_id[bestIndex])).toHtmlEscaped(), when);
    // A CPU sample: its call stack, innermost frame first.
    const std::vector<uint32_t> frames = r.stacks.framesOf(best->instants.payload[bestIndex]);
    QString text = QString("<b>CPU sample</b> at %1<table cellspacing=0>").arg(when);
    constexpr size_t kShown = 16;
    for (size_t f = 0; f < std::min(frames.size(), kShown); ++f) {
        const QString module = qs(r.str(r.stacks.frame_module[frames[f]]));
        text += QString("<tr><td>%1</td><td style='color:gray;padding-left:8px'>%2</td></tr>")
                    .arg(qs(r.str(r.stacks.frame_function[frames[f]])).toHtmlEscaped(),
                         module.mid(module.lastIndexOf('/') + 1).toHtmlEscaped());
    }
    text += "</table>";
    if (frames.size() > kShown) text += QString("%1 more frames").arg(frames.size() - kShown);
    if (frames.empty()) text += "no call stack";
    return text;
}

QString TimelineView::counterTooltip(QPoint pos) const {
    const QRect area = laneArea();
    if (!area.contains(pos)) return {};
    const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
    if (!row || row->type != Row::Type::Counter) return {};
    const Report& r = *layout_.reports()[row->report];
    const Counter& counter = r.counters[size_t(row->index)];
    const int64_t t = mapping(row->report).toTime(pos.x() - headerWidth_);
    // The sample in force at t: the last at or before it.
    const auto after = std::upper_bound(counter.time_ns.begin(), counter.time_ns.end(), t);
    if (after == counter.time_ns.begin()) return {};
    const size_t sample = size_t(after - counter.time_ns.begin()) - 1;
    const int64_t at = counter.time_ns[sample];
    const double value = counter.value[sample];
    const std::string unit(r.str(counter.unit_id));
    const QString shown = unit == "bytes" ? QLocale().formattedDataSize(qint64(value))
                                          : qs(formatCounterValue(value) + (unit.empty() ? "" : " " + unit));
    QString text = QString("<b>%1</b><br>%2 from %3")
                       .arg(qs(r.str(counter.name_id)).toHtmlEscaped(), shown.toHtmlEscaped(),
                            qs(formatDuration(at + reportOffset(row->report) - viewport_.wholeBegin(), 6)));
    if (!isCudaMemoryCounter(r, counter)) return text;
    const std::vector<uint32_t> changes = cudaMemoryEventsAt(r, counter, at);
    constexpr size_t kShown = 4;
    for (size_t i = 0; i < std::min(changes.size(), kShown); ++i) {
        const CudaMemoryEvent& e = r.cuda_memory_events[changes[i]];
        text += "<br>" + qs(describeCudaMemoryEvent(r, e)).toHtmlEscaped();
        if (const auto call = cudaMemoryCall(r, e))
            text += " by " + qs(r.str(r.lanes[call->lane].events.name_id[call->index])).toHtmlEscaped();
    }
    if (changes.size() > kShown) text += QString("<br>%1 more at this time").arg(changes.size() - kShown);
    return text;
}

QString TimelineView::gpuTooltip(QPoint pos) const {
    if (pos.y() < kRulerHeight || pos.y() >= laneArea().bottom()) return {};
    const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
    if (!row || row->type != Row::Type::Gpu) return {};
    const Report& r = *layout_.reports()[row->report];
    if (row->index < 0 || size_t(row->index) >= r.gpus.size()) return {};
    const MachineGpu* gpu = machineGpuOf(r, r.gpus[size_t(row->index)]);
    if (!gpu) return {};
    const QStringList lines = qs(describeMachineGpu(r, *gpu)).toHtmlEscaped().split('\n');
    return "<b>" + lines.front() + "</b>" + (lines.size() > 1 ? "<br>" + lines.mid(1).join("<br>") : QString());
}

}  // namespace lanescope
