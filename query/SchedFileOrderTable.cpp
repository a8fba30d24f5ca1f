#include "query/SchedFileOrderTable.h"

#include <algorithm>
#include <string>
#include <vector>

#include "query/BuiltOnce.h"
#include "query/LaneEvents.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;

// A row is switch `first + row` of its run's core lane: switch 2i the switch-in that began event
// i (a thread's run on the core, its payload the thread), 2i + 1 the switch-out that ended it.
// threadState is the state recorded with the switch, kept in the thread's running interval of
// the same times (its ThreadState lane); threadBlock is NULL.
class SchedInFileOrder : public TableSpec {
public:
    enum Column { Start, Cpu, IsSchedIn, GlobalTid, ThreadStateColumn, ThreadBlock };
    explicit SchedInFileOrder(const Report& report) : report_(report), runs_(report.file_order.sched) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return runs_.size(); }
    uint32_t segmentSize(size_t s) const override { return runs_[s].count; }
    int sortedColumn() const override { return Start; }
    int64_t sortedValue(size_t s, uint32_t row) const override {
        const Switch w = switchAt(s, row);
        return w.in ? w.core.events.start_ns[w.event] : w.core.events.endNs(w.event);
    }
    bool isSegmentColumn(int column) const override { return column == Cpu; }
    std::optional<int64_t> segmentValue(size_t s, int) const override { return report_.lanes[runs_[s].lane].cpu; }

    void value(size_t s, uint32_t row, int column, sqlite3_context* ctx) const override {
        const Switch w = switchAt(s, row);
        const auto thread = int32_t(w.core.events.payload[w.event]);
        switch (column) {
            case Start:
                return resultInt(ctx, sortedValue(s, row));
            case Cpu:
                return resultInt(ctx, w.core.cpu);
            case IsSchedIn:
                return resultInt(ctx, w.in ? 1 : 0);
            case GlobalTid:
                return resultInt(ctx, globalTidOf(report_, thread));
            case ThreadStateColumn: {
                const auto payload =
                    runningPayload(thread, w.core.events.start_ns[w.event], w.core.events.endNs(w.event));
                if (!payload) return resultNull(ctx);
                const std::optional<int32_t> recorded =
                    w.in ? recordedStateAtStart(*payload) : recordedStateAtEnd(*payload);
                return recorded ? resultInt(ctx, *recorded) : resultNull(ctx);
            }
            default:
                return resultNull(ctx);
        }
    }

private:
    struct Switch {
        const Lane& core;
        uint32_t event;
        bool in;
    };
    Switch switchAt(size_t s, uint32_t row) const {
        const uint32_t at = runs_[s].first + row;
        return {report_.lanes[runs_[s].lane], at / 2, at % 2 == 0};
    }

    // The payload of the thread's running interval from `start` to `end`; nullopt without one.
    std::optional<uint32_t> runningPayload(int32_t thread, int64_t start, int64_t end) const {
        const std::vector<int32_t>& stateLane = stateLane_.get([this] { return threadStateLanes(report_); });
        if (thread < 0 || size_t(thread) >= stateLane.size() || stateLane[size_t(thread)] < 0) return std::nullopt;
        const IntervalColumns& states = report_.lanes[size_t(stateLane[size_t(thread)])].events;
        for (auto it = std::lower_bound(states.start_ns.begin(), states.start_ns.end(), start);
             it != states.start_ns.end() && *it == start; ++it) {
            const auto i = size_t(it - states.start_ns.begin());
            if (threadStateOf(states.payload[i]) == ThreadRunState::Running && states.endNs(i) == end)
                return states.payload[i];
        }
        return std::nullopt;
    }

    const Report& report_;
    const lanescope::Column<FileOrderRun>& runs_;
    BuiltOnce<std::vector<int32_t>> stateLane_;
    const std::string name_ = "SCHED_EVENTS";
    const std::vector<ColumnDef> columns_{{"start", I},     {"cpu", I},         {"isSchedIn", I},
                                          {"globalTid", I}, {"threadState", I}, {"threadBlock", I}};
};

}  // namespace

std::unique_ptr<TableSpec> schedTableInFileOrder(const Report& report) {
    return std::make_unique<SchedInFileOrder>(report);
}

}  // namespace lanescope::sql
