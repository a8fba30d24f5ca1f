#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/Cancellation.h"
#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "analysis/Summary.h"
#include "model/Report.h"
#include "model/TimeRange.h"

// What the `nsys stats` reports of analysis/ share: event selection, grouping, and the
// summary table layout. Not for use outside analysis/.
namespace lanescope::nsysstats {

// Values of one output row before summarizing: durations (ns) or sizes (bytes), in the order
// the events were visited.
struct Group {
    std::vector<std::string> labels;  // the text columns of the row
    std::vector<int64_t> values;
    // Values added with add() stay here, in 32 bits, while they fit (durations under 4.29 s,
    // sizes under 4 GiB): half the memory and reads for millions of them. The first one that
    // does not fit moves them all to `values`. A group uses one of the two.
    std::vector<uint32_t> narrow;
    void add(int64_t value) {
        if (values.empty() && uint64_t(value) <= UINT32_MAX) [[likely]]
            narrow.push_back(uint32_t(value));
        else
            addWide(value);
    }
    void addWide(int64_t value);  // widens `narrow` first
};

// Collects values into groups keyed by a 64-bit key; groups in first-seen order.
class Grouper {
public:
    // makeLabels() runs once per new key; repeated keys hit a one-entry cache first.
    template <typename MakeLabels>
    Group& at(uint64_t key, MakeLabels&& makeLabels) {
        if (lastGroup_ != SIZE_MAX && key == lastKey_) return groups_[lastGroup_];
        auto [it, inserted] = index_.try_emplace(key, groups_.size());
        if (inserted) groups_.push_back({makeLabels(), {}, {}});
        lastKey_ = key;
        lastGroup_ = it->second;
        return groups_[it->second];
    }
    // The same for a key that is a report string id (dense, from 0): found by indexing.
    template <typename MakeLabels>
    Group& atStringId(uint32_t id, MakeLabels&& makeLabels) {
        if (id >= byStringId_.size()) byStringId_.resize(size_t{id} + 1, SIZE_MAX);
        size_t& group = byStringId_[id];
        if (group == SIZE_MAX) {
            group = groups_.size();
            groups_.push_back({makeLabels(), {}, {}});
        }
        return groups_[group];
    }
    std::vector<Group>& groups() { return groups_; }

private:
    std::vector<size_t> byStringId_;  // group of each string id so far, SIZE_MAX for none
    std::unordered_map<uint64_t, size_t> index_;
    std::vector<Group> groups_;
    uint64_t lastKey_ = 0;
    size_t lastGroup_ = SIZE_MAX;
};

// Whether a lane of this kind can hold events of that kind (NCCL lanes hold copies only).
bool laneHolds(LaneKind lane, EventKind kind);

// Calls visit(lane, i) for each event of `kind` lying wholly inside `range`, lane by lane,
// each lane in start order. Only the slice of lanes starting inside the range is read.
template <typename Visit>
void forEachEvent(const Report& report, EventKind kind, TimeRange range, Visit&& visit) {
    for (const Lane& lane : report.lanes) {
        if (!laneHolds(lane.kind, kind)) continue;
        const IntervalColumns& ev = lane.events;
        const auto& starts = ev.start_ns;
        const size_t first = size_t(std::lower_bound(starts.begin(), starts.end(), range.begin_ns) - starts.begin());
        const size_t last =
            size_t(std::lower_bound(starts.begin() + first, starts.end(), range.end_ns) - starts.begin());
        for (size_t i = first; i < last; ++i) {
            if ((i & 0xFFFF) == 0) cancellationPoint();
            if (ev.kind[i] == kind && ev.endNs(i) <= range.end_ns) visit(lane, i);
        }
    }
}

// Calls visit(lane, i) for the events of the given kinds lying wholly inside `range`, over all
// lanes holding them merged into one start-ascending sequence (ties: lane order, then index):
// O(n log lanes), for the *_trace reports.
template <typename Visit>
void forEachEventByStart(const Report& report, std::initializer_list<EventKind> kinds, TimeRange range, Visit&& visit);

// One summarized group, ready to print.
struct SummaryRow {
    Summary summary;
    std::vector<std::string> labels;
};
// Summaries sorted by total descending; ties by labels ascending.
std::vector<SummaryRow> summarizeGroups(std::vector<Group>& groups);

// Time (%), Total Time (ns), <countHeader>, Avg, Med, Min, Max, StdDev (ns), <labels...>: rows
// sorted by total time descending.
StatsTable timeTable(std::string name, std::string countHeader, std::vector<std::string> labelHeaders,
                     std::vector<Group>& groups);

// The API name as the summaries show it: a six-character version suffix such as "_v3020" is
// dropped ("cudaMemcpyAsync_v3020" -> "cudaMemcpyAsync"), longer ones ("_v11060") stay.
std::string apiDisplayName(std::string_view name);

// "<domain>:<name>" of an NVTX range event, and its NvtxInfo (default when absent).
NvtxInfo nvtxInfoOf(const Report& report, const Lane& lane, size_t i);
std::string nvtxLabel(const Report& report, const NvtxInfo& info, uint32_t nameId);

// "NVIDIA H200 (0)": a GPU's name and CUDA device id as nsys prints the device.
std::string deviceLabel(const Report& report, int32_t gpu);
int64_t deviceId(const Report& report, int32_t gpu);
int64_t pidOf(const Report& report, const Lane& lane);
int64_t tidOf(const Report& report, const Lane& lane);

// The name id of a Kernel event as the report prints it: its demangled name, or with
// options.base its short name (the function name without parameters).
uint32_t kernelNameId(const Report& report, const Lane& lane, size_t i, const StatsOptions& options);
// The launch configuration of a Kernel event, or nullptr without one.
const KernelConfig* kernelConfigOf(const Report& report, const Lane& lane, size_t i);
// printf('%4d %4d %4d') of a grid or block, as the GridXYZ and BlockXYZ columns.
std::string xyz(uint32_t x, uint32_t y, uint32_t z);

// What nsys prints for SQL NULL: an empty cell.
inline const StatsTable::Cell kNull = std::string();

// Where a trace report's rows go, as its options ask: into the table, up to
// StatsOptions::trace_rows of them (the rest only counted), or each to on_trace_row.
class TraceRows {
public:
    TraceRows(StatsTable& table, const StatsOptions& options) : table_(table), options_(options) {}
    // Whether the next row is to be made; when not, it is counted in rows_left_out.
    bool wanted() {
        if (options_.on_trace_row || !options_.trace_rows || table_.rows.size() < *options_.trace_rows) return true;
        ++table_.rows_left_out;
        return false;
    }
    void add(std::vector<StatsTable::Cell>&& row) {
        if (options_.on_trace_row)
            options_.on_trace_row(table_, std::move(row));
        else
            table_.rows.push_back(std::move(row));
    }

private:
    StatsTable& table_;
    const StatsOptions& options_;
};
// Bytes as MB (10^6 bytes), 3 decimals, rounded as nsys's Python rounds its unit conversions
// (half to even).
inline StatsTable::Cell megabytes(uint64_t bytes) {
    return StatsTable::Real{static_cast<double>(bytes) / 1e6, 3, true};
}
// bytes * (10^9 div duration ns) in MB/s, with nsys's integer division; NULL for duration 0.
inline StatsTable::Cell throughput(uint64_t bytes, int64_t duration) {
    if (duration <= 0) return kNull;
    const auto perSecond = static_cast<double>(bytes) * static_cast<double>(1000000000 / duration);
    return StatsTable::Real{perSecond / 1e6, 3, true};
}

}  // namespace lanescope::nsysstats

#include "analysis/NsysStatsSupport.inl"
