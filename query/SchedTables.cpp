#include "query/SchedTables.h"

#include <algorithm>
#include <string>

#include "query/BuiltOnce.h"
#include "query/LaneEvents.h"
#include "query/SchedFileOrderTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;

// ENUM_SAMPLING_THREAD_STATE's Running: a thread switched out while it could still run.
constexpr int64_t kSwitchedOutRunnable = 1;

// SCHED_EVENTS of a report without the switches' file order: each thread's context switches,
// rebuilt from its ThreadState lane (a segment), whose intervals each begin at a switch: a running
// one at a switch-in (isSchedIn 1, cpu its core), a blocked, preempted or unknown one at a
// switch-out (isSchedIn 0, cpu the core left).
// A switch-out that begins no interval (the thread ended, or the data did) ends a running
// interval that no interval follows at its end: it is an extra row placed in time order. The
// CPU core lanes hold the running intervals again, by core, and add nothing. threadState is the
// state Nsight Systems recorded with the switch (kept in the interval's payload, model/Lane.h);
// where none was recorded (formats other than Nsight Systems'), 1 (Running) for a preemption and
// NULL otherwise. threadBlock is NULL.
class SchedTable : public TableSpec {
public:
    enum Column { Start, Cpu, IsSchedIn, GlobalTid, ThreadStateColumn, ThreadBlock };
    explicit SchedTable(const Report& report)
        : report_(report),
          states_(
              report, [](const Lane& l) { return l.kind == LaneKind::ThreadState; }, LaneEvents::Part::Intervals,
              EventKind::ThreadState) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return states_.segmentCount(); }
    uint32_t segmentSize(size_t s) const override { return states_.segmentSize(s) + uint32_t(extrasOf(s).size()); }
    int sortedColumn() const override { return Start; }
    int64_t sortedValue(size_t s, uint32_t row) const override {
        const Switch w = switchAt(s, row);
        const IntervalColumns& events = states_.lane(s).events;
        return w.extra ? events.endNs(w.event) : events.start_ns[w.event];
    }
    bool isSegmentColumn(int column) const override { return column == GlobalTid; }
    std::optional<int64_t> segmentValue(size_t s, int) const override {
        return globalTidOf(report_, states_.lane(s).thread);
    }

    void value(size_t s, uint32_t row, int column, sqlite3_context* ctx) const override {
        const Lane& lane = states_.lane(s);
        const Switch w = switchAt(s, row);
        const uint32_t payload = lane.events.payload[w.event];
        const bool in = !w.extra && threadStateOf(payload) == ThreadRunState::Running;
        switch (column) {
            case Start:
                return resultInt(ctx, sortedValue(s, row));
            case Cpu:
                return resultInt(ctx, threadStateCpu(payload));
            case IsSchedIn:
                return resultInt(ctx, in ? 1 : 0);
            case GlobalTid:
                return resultInt(ctx, globalTidOf(report_, lane.thread));
            case ThreadStateColumn: {
                const std::optional<int32_t> recorded =
                    w.extra ? recordedStateAtEnd(payload) : recordedStateAtStart(payload);
                if (recorded) return resultInt(ctx, *recorded);
                if (w.extra || threadStateOf(payload) != ThreadRunState::Preempted) return resultNull(ctx);
                return resultInt(ctx, kSwitchedOutRunnable);
            }
            default:
                return resultNull(ctx);
        }
    }

private:
    // A switch-out at the end of a running interval that begins no interval: `row` of its
    // segment, `event` the interval's row among the segment's intervals.
    struct Extra {
        uint32_t row;
        uint32_t event;
    };
    // A row: the switch that begins interval `event` (an index into the lane's events), or the
    // extra switch-out at its end.
    struct Switch {
        uint32_t event;
        bool extra;
    };

    Switch switchAt(size_t s, uint32_t row) const {
        const std::vector<Extra>& extras = extrasOf(s);
        const auto it =
            std::lower_bound(extras.begin(), extras.end(), row, [](const Extra& e, uint32_t r) { return e.row < r; });
        if (it != extras.end() && it->row == row) return {states_.event(s, it->event), true};
        return {states_.event(s, row - uint32_t(it - extras.begin())), false};
    }

    // Per segment, its extra switch-outs sorted by row: few (one per thread that ended), so a
    // row is found by one binary search over them.
    const std::vector<Extra>& extrasOf(size_t s) const {
        return extras_.get([this] {
            std::vector<std::vector<Extra>> extras(states_.segmentCount());
            for (size_t segment = 0; segment < extras.size(); ++segment) extras[segment] = findExtras(segment);
            return extras;
        })[s];
    }

    // The running intervals of a segment that no other interval follows at their end, each
    // placed before the first interval that starts after its end.
    std::vector<Extra> findExtras(size_t s) const {
        const IntervalColumns& events = states_.lane(s).events;
        const uint32_t n = states_.segmentSize(s);
        std::vector<Extra> extras;
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t e = states_.event(s, i);
            if (threadStateOf(events.payload[e]) != ThreadRunState::Running) continue;
            const int64_t end = events.endNs(e);
            const auto [first, last] = std::equal_range(events.start_ns.begin(), events.start_ns.end(), end);
            const bool selfAmong = end == events.start_ns[e];
            if (last - first > (selfAmong ? 1 : 0)) continue;
            uint32_t before = i + 1;  // the rows up to i start at or before `end`
            while (before < n && states_.startNs(s, before) <= end) ++before;
            extras.push_back({before, i});
        }
        std::stable_sort(extras.begin(), extras.end(), [](const Extra& a, const Extra& b) { return a.row < b.row; });
        for (size_t k = 0; k < extras.size(); ++k) extras[k].row += uint32_t(k);
        return extras;
    }

    const Report& report_;
    const std::string name_ = "SCHED_EVENTS";
    const std::vector<ColumnDef> columns_{{"start", I},     {"cpu", I},         {"isSchedIn", I},
                                          {"globalTid", I}, {"threadState", I}, {"threadBlock", I}};
    LaneEvents states_;
    BuiltOnce<std::vector<std::vector<Extra>>> extras_;
};

}  // namespace

void addSchedTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    if (!report.file_order.sched.empty())
        tables.push_back(schedTableInFileOrder(report));
    else
        tables.push_back(std::make_unique<SchedTable>(report));
}

}  // namespace lanescope::sql
