#include "analysis/NsysStats.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "analysis/Summary.h"

namespace lanescope {
namespace {

// Values of one output row before summarizing.
struct Group {
    std::vector<std::string> labels;  // the text columns of the row
    std::vector<int64_t> values;      // durations (ns) or sizes (bytes)
};

// Collects values into groups keyed by a 64-bit key, in first-seen order.
class Grouper {
public:
    // makeLabels() runs once per new key; repeated keys hit a one-entry cache first.
    template <typename MakeLabels>
    Group& at(uint64_t key, MakeLabels&& makeLabels) {
        if (lastGroup_ != SIZE_MAX && key == lastKey_) return groups_[lastGroup_];
        auto [it, inserted] = index_.try_emplace(key, groups_.size());
        if (inserted) groups_.push_back({makeLabels(), {}});
        lastKey_ = key;
        lastGroup_ = it->second;
        return groups_[it->second];
    }
    std::vector<Group>& groups() { return groups_; }

private:
    std::unordered_map<uint64_t, size_t> index_;
    std::vector<Group> groups_;
    uint64_t lastKey_ = 0;
    size_t lastGroup_ = SIZE_MAX;
};

// Whether a lane of this kind can hold events of that kind (NCCL lanes hold copies only).
bool laneHolds(LaneKind lane, EventKind kind) {
    switch (kind) {
        case EventKind::OsRuntimeCall:
            return lane == LaneKind::OsRuntime;
        case EventKind::CudaApiCall:
            return lane == LaneKind::CudaApi;
        case EventKind::NvtxRange:
            return lane == LaneKind::Nvtx || lane == LaneKind::NvtxStartEnd;
        case EventKind::Kernel:
        case EventKind::Memcpy:
        case EventKind::Memset:
            return lane == LaneKind::GpuStream;
        case EventKind::Sync:
            return lane == LaneKind::CudaSync;
        case EventKind::MpiCall:
            return lane == LaneKind::Mpi;
        case EventKind::ThreadState:
        case EventKind::CoreRun:
            return false;
    }
    return false;
}

// Calls visit(lane, i) for each event of `kind` lying wholly inside `range`. Events are in
// start order, so only the slice of lanes starting inside the range is read.
template <typename Visit>
void forEachEvent(const Report& report, EventKind kind, TimeRange range, Visit&& visit) {
    for (const Lane& lane : report.lanes) {
        if (!laneHolds(lane.kind, kind)) continue;
        const IntervalColumns& ev = lane.events;
        const auto& starts = ev.start_ns;
        const size_t first = size_t(std::lower_bound(starts.begin(), starts.end(), range.begin_ns) - starts.begin());
        const size_t last =
            size_t(std::lower_bound(starts.begin() + first, starts.end(), range.end_ns) - starts.begin());
        for (size_t i = first; i < last; ++i)
            if (ev.kind[i] == kind && ev.end_ns[i] <= range.end_ns) visit(lane, i);
    }
}

struct SummaryRow {
    Summary summary;
    std::vector<std::string> labels;
};

std::vector<SummaryRow> summarizeGroups(std::vector<Group>& groups) {
    std::vector<SummaryRow> rows;
    rows.reserve(groups.size());
    for (Group& g : groups) rows.push_back({summarize(g.values), std::move(g.labels)});
    std::sort(rows.begin(), rows.end(), [](const SummaryRow& a, const SummaryRow& b) {
        if (a.summary.total != b.summary.total) return a.summary.total > b.summary.total;
        return a.labels < b.labels;
    });
    return rows;
}

// Time (%), Total Time (ns), <countHeader>, Avg, Med, Min, Max, StdDev (ns), <labels...>
StatsTable timeTable(std::string name, std::string countHeader, std::vector<std::string> labelHeaders,
                     std::vector<Group>& groups) {
    StatsTable table;
    table.name = std::move(name);
    table.header = {"Time (%)", "Total Time (ns)", std::move(countHeader), "Avg (ns)", "Med (ns)",
                    "Min (ns)", "Max (ns)",        "StdDev (ns)"};
    for (auto& h : labelHeaders) table.header.push_back(std::move(h));
    const auto rows = summarizeGroups(groups);
    long double grandTotal = 0;
    for (const auto& r : rows) grandTotal += r.summary.total;
    for (const auto& r : rows) {
        const Summary& s = r.summary;
        const double percent = grandTotal > 0 ? static_cast<double>(100.0L * s.total / grandTotal) : 0.0;
        std::vector<StatsTable::Cell> row = {StatsTable::Real{percent, 1},
                                             s.total,
                                             static_cast<int64_t>(s.count),
                                             StatsTable::Real{s.mean, 1},
                                             StatsTable::Real{s.median, 1},
                                             s.min,
                                             s.max,
                                             StatsTable::Real{s.stddev, 1}};
        for (const auto& label : r.labels) row.emplace_back(label);
        table.rows.push_back(std::move(row));
    }
    return table;
}

// The API name as cuda_api_sum shows it: a six-character version suffix such as "_v3020"
// is dropped ("cudaMemcpyAsync_v3020" -> "cudaMemcpyAsync"), longer ones ("_v11060") stay.
std::string apiDisplayName(std::string_view name) {
    if (name.size() > 6 && name.substr(name.size() - 6, 2) == "_v") name.remove_suffix(6);
    return std::string(name);
}

// Groups the durations of every event of `kind` by its displayed name (distinct raw names
// may share one, see apiDisplayName).
std::vector<Group> durationsByName(const Report& report, EventKind kind, TimeRange range) {
    std::vector<Group> groups;
    std::vector<int32_t> groupOfName(report.strings.size(), -1);  // dense: one slot per string id
    std::unordered_map<std::string, size_t> groupOfLabel;
    forEachEvent(report, kind, range, [&](const Lane& lane, size_t i) {
        const uint32_t nameId = lane.events.name_id[i];
        int32_t& group = groupOfName[nameId];
        if (group < 0) {
            const std::string_view name = report.str(nameId);
            std::string label = kind == EventKind::CudaApiCall ? apiDisplayName(name) : std::string(name);
            auto [it, inserted] = groupOfLabel.try_emplace(label, groups.size());
            if (inserted) groups.push_back({{std::move(label)}, {}});
            group = static_cast<int32_t>(it->second);
        }
        groups[static_cast<size_t>(group)].values.push_back(lane.events.end_ns[i] - lane.events.start_ns[i]);
    });
    return groups;
}

StatsTable nvtxSumOf(const Report& report, TimeRange range) {
    Grouper grouper;
    forEachEvent(report, EventKind::NvtxRange, range, [&](const Lane& lane, size_t i) {
        const uint32_t nameId = lane.events.name_id[i];
        const uint32_t row = lane.events.payload[i];
        const NvtxInfo info = row < report.nvtx.size() ? report.nvtx[row] : NvtxInfo{};
        const uint64_t key = (uint64_t{info.domain_name_id} << 33) | (uint64_t{info.start_end} << 32) | nameId;
        grouper
            .at(key,
                [&] {
                    return std::vector<std::string>{
                        info.start_end ? "StartEnd" : "PushPop",
                        std::string(report.str(info.domain_name_id)) + ":" + std::string(report.str(nameId))};
                })
            .values.push_back(lane.events.end_ns[i] - lane.events.start_ns[i]);
    });
    return timeTable("nvtx_sum", "Instances", {"Style", "Range"}, grouper.groups());
}

// Memory operations (memcpy by direction, memset) grouped by their operation name.
std::vector<Group> memoryOps(const Report& report, TimeRange range, bool bySize) {
    Grouper grouper;
    auto add = [&](const Lane& lane, size_t i, int64_t value) {
        const uint32_t nameId = lane.events.name_id[i];
        grouper.at(nameId, [&] { return std::vector<std::string>{std::string(report.str(nameId))}; })
            .values.push_back(value);
    };
    forEachEvent(report, EventKind::Memcpy, range, [&](const Lane& lane, size_t i) {
        const auto bytes = static_cast<int64_t>(report.memcpys[lane.events.payload[i]].bytes);
        add(lane, i, bySize ? bytes : lane.events.end_ns[i] - lane.events.start_ns[i]);
    });
    forEachEvent(report, EventKind::Memset, range, [&](const Lane& lane, size_t i) {
        const auto bytes = static_cast<int64_t>(report.memsets[lane.events.payload[i]].bytes);
        add(lane, i, bySize ? bytes : lane.events.end_ns[i] - lane.events.start_ns[i]);
    });
    return std::move(grouper.groups());
}

StatsTable memSizeSumOf(const Report& report, TimeRange range) {
    auto groups = memoryOps(report, range, true);
    StatsTable table;
    table.name = "cuda_gpu_mem_size_sum";
    table.header = {"Total (MB)", "Count", "Avg (MB)", "Med (MB)", "Min (MB)", "Max (MB)", "StdDev (MB)", "Operation"};
    constexpr double kMB = 1e6;
    for (const auto& r : summarizeGroups(groups)) {
        const Summary& s = r.summary;
        table.rows.push_back({StatsTable::Real{s.total / kMB, 3}, static_cast<int64_t>(s.count),
                              StatsTable::Real{s.mean / kMB, 3}, StatsTable::Real{s.median / kMB, 3},
                              StatsTable::Real{s.min / kMB, 3}, StatsTable::Real{s.max / kMB, 3},
                              StatsTable::Real{s.stddev / kMB, 3}, r.labels.front()});
    }
    return table;
}

}  // namespace

StatsTable cudaGpuKernSum(const Report& report, TimeRange range) {
    auto groups = durationsByName(report, EventKind::Kernel, range);
    return timeTable("cuda_gpu_kern_sum", "Instances", {"Name"}, groups);
}

StatsTable cudaApiSum(const Report& report, TimeRange range) {
    auto groups = durationsByName(report, EventKind::CudaApiCall, range);
    return timeTable("cuda_api_sum", "Num Calls", {"Name"}, groups);
}

StatsTable osrtSum(const Report& report, TimeRange range) {
    auto groups = durationsByName(report, EventKind::OsRuntimeCall, range);
    return timeTable("osrt_sum", "Num Calls", {"Name"}, groups);
}

StatsTable cudaGpuMemTimeSum(const Report& report, TimeRange range) {
    auto groups = memoryOps(report, range, false);
    return timeTable("cuda_gpu_mem_time_sum", "Count", {"Operation"}, groups);
}

StatsTable cudaGpuMemSizeSum(const Report& report, TimeRange range) { return memSizeSumOf(report, range); }

StatsTable nvtxSum(const Report& report, TimeRange range) { return nvtxSumOf(report, range); }

}  // namespace lanescope
