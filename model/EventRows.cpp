#include "model/EventRows.h"

#include <algorithm>

namespace lanescope {

EventRows EventRows::collect(std::vector<EventSource> sources, int64_t begin_ns, int64_t end_ns) {
    EventRows rows;
    rows.begin_ns_ = begin_ns;
    rows.end_ns_ = end_ns;
    // Each lane once, in the order given.
    std::vector<EventSource> kept;
    for (const EventSource& s : sources) {
        if (!s.report || s.lane >= s.report->lanes.size()) continue;
        if (std::none_of(kept.begin(), kept.end(),
                         [&](const EventSource& k) { return k.report == s.report && k.lane == s.lane; }))
            kept.push_back(s);
    }
    rows.sources_ = std::move(kept);
    for (const EventSource& s : rows.sources_) {
        const Lane& lane = s.shownLane();
        const Column<int64_t>& start = lane.events.start_ns;
        const int64_t b = begin_ns - s.offset_ns, e = end_ns - s.offset_ns;  // the lane's own times
        LaneRun run;
        if (e > b) {
            run.first = static_cast<uint32_t>(std::lower_bound(start.begin(), start.end(), b) - start.begin());
            run.last = static_cast<uint32_t>(std::lower_bound(start.begin(), start.end(), e) - start.begin());
            run.last = std::max(run.first, run.last);
            // Started before b and still running at b: at most one per depth.
            for (size_t d = 0; d < lane.depth_count; ++d)
                if (const auto i = lane.eventAt(d, b - 1); i && start[*i] < b && lane.events.endNs(*i) > b)
                    run.before.push_back(*i);
            std::sort(run.before.begin(), run.before.end());
        }
        rows.size_ += run.size();
        rows.runs_.push_back(std::move(run));
    }
    if (rows.sources_.size() < 2) {
        if (rows.sources_.empty()) rows.size_ = 0;
        return rows;
    }

    // Several lanes: a k-way merge of the runs by (shared start, source, index), each cursor
    // holding its current event and start.
    struct Cursor {
        int64_t start;  // shared timeline
        SourcedEvent event;
        size_t position;  // within the source's run
    };
    auto load = [&rows](Cursor& c) {
        const LaneRun& run = rows.runs_[c.event.source];
        c.event.index = c.position < run.before.size()
                            ? run.before[c.position]
                            : run.first + static_cast<uint32_t>(c.position - run.before.size());
        c.start = rows.startNs(c.event);
    };
    std::vector<Cursor> heap;
    for (uint32_t s = 0; s < rows.runs_.size(); ++s)
        if (rows.runs_[s].size() > 0) {
            heap.push_back({0, {s, 0}, 0});
            load(heap.back());
        }
    // std heaps keep the largest first: "a after b" puts the earliest on top.
    auto after = [](const Cursor& a, const Cursor& b) {
        if (a.start != b.start) return a.start > b.start;
        if (a.event.source != b.event.source) return a.event.source > b.event.source;
        return a.event.index > b.event.index;
    };
    std::make_heap(heap.begin(), heap.end(), after);
    rows.merged_.reserve(rows.size_);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), after);
        Cursor& c = heap.back();
        rows.merged_.push_back(c.event);
        if (++c.position < rows.runs_[c.event.source].size()) {
            load(c);
            std::push_heap(heap.begin(), heap.end(), after);
        } else {
            heap.pop_back();
        }
    }
    return rows;
}

bool EventRows::lessInOrder(const SourcedEvent& a, const SourcedEvent& b) const {
    const int64_t sa = startNs(a), sb = startNs(b);
    if (sa != sb) return sa < sb;
    if (a.source != b.source) return a.source < b.source;
    return a.index < b.index;
}

std::optional<size_t> EventRows::rowOf(const Report* report, uint32_t lane, uint32_t index) const {
    for (uint32_t s = 0; s < sources_.size(); ++s) {
        if (sources_[s].report != report || sources_[s].lane != lane) continue;
        if (index >= sources_[s].shownLane().events.size()) return std::nullopt;
        const SourcedEvent wanted{s, index};
        if (!merged_.empty()) {
            const auto it =
                std::lower_bound(merged_.begin(), merged_.end(), wanted,
                                 [this](const SourcedEvent& a, const SourcedEvent& b) { return lessInOrder(a, b); });
            if (it == merged_.end() || !(*it == wanted)) return std::nullopt;
            return static_cast<size_t>(it - merged_.begin());
        }
        const LaneRun& run = runs_[s];
        if (const auto it = std::lower_bound(run.before.begin(), run.before.end(), index);
            it != run.before.end() && *it == index)
            return static_cast<size_t>(it - run.before.begin());
        if (index >= run.first && index < run.last) return run.before.size() + (index - run.first);
        return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace lanescope
