#include "analysis/NsysKernelExec.h"

#include <string>
#include <unordered_map>

#include "analysis/NsysStatsSupport.h"
#include "model/Correlation.h"

namespace lanescope {
namespace {

using namespace nsysstats;
using Cell = StatsTable::Cell;

// One kernel with the API call that launched it (same process, same correlation id). Times
// in ns; queue is -1 when the kernel started before the call returned (nsys: NULL).
struct Launch {
    const Lane* api;
    size_t call;
    const Lane* gpu;
    size_t kernel;
    int64_t apiDur, queue, kernelDur, total;
};

// Calls visit(launch) for each kernel whose launching call and itself lie wholly inside
// `range`, in the calls' start order (ties: lane, index), each call's kernels in stream order.
template <typename Visit>
void forEachLaunch(const Report& report, TimeRange range, Visit&& visit) {
    const CorrelationIndex& index = correlationIndex(report);
    forEachEventByStart(report, {EventKind::CudaApiCall}, range, [&](const Lane& api, size_t i) {
        const auto laneIndex = static_cast<uint32_t>(&api - report.lanes.data());
        for (const EventRef op : index.launchedBy({laneIndex, static_cast<uint32_t>(i)})) {
            const Lane& gpu = report.lanes[op.lane];
            const IntervalColumns& k = gpu.events;
            if (k.kind[op.index] != EventKind::Kernel || !range.contains(k.start_ns[op.index], k.endNs(op.index)))
                continue;
            const IntervalColumns& r = api.events;
            const int64_t queue = k.start_ns[op.index] - r.endNs(i);
            visit(Launch{&api, i, &gpu, op.index, r.endNs(i) - r.start_ns[i], queue >= 0 ? queue : -1,
                         k.endNs(op.index) - k.start_ns[op.index],
                         std::max(r.endNs(i), k.endNs(op.index)) - r.start_ns[i]});
        }
    });
}

// Avg, Med, Min, Max, StdDev of a sample (ns). Of an empty sample, as nsys's SQL gives them:
// NULL for the first four, 0.0 for the standard deviation.
void appendStats(std::vector<Cell>& row, std::vector<int64_t>& values) {
    if (values.empty()) {
        for (int k = 0; k < 4; ++k) row.emplace_back(std::string());
        row.emplace_back(StatsTable::Real{0.0, 1});
        return;
    }
    const Summary s = summarize(values);
    row.insert(row.end(), {StatsTable::Real{s.mean, 1}, StatsTable::Real{s.median, 1}, s.min, s.max,
                           StatsTable::Real{s.stddev, 1}});
}

}  // namespace

StatsTable cudaKernExecTrace(const Report& report, TimeRange range, const StatsOptions& options) {
    StatsTable table;
    table.name = "cuda_kern_exec_trace";
    table.header = {"API Start (ns)",
                    "API Dur (ns)",
                    "Queue Start (ns)",
                    "Queue Dur (ns)",
                    "Kernel Start (ns)",
                    "Kernel Dur (ns)",
                    "Total Dur (ns)",
                    "PID",
                    "TID",
                    "DevId",
                    "API Function",
                    "GridXYZ",
                    "BlockXYZ",
                    "Kernel Name"};
    TraceRows rows(table, options);
    forEachLaunch(report, range, [&](const Launch& l) {
        if (!rows.wanted()) return;
        const IntervalColumns& r = l.api->events;
        const KernelConfig* c = kernelConfigOf(report, *l.gpu, l.kernel);
        const KernelConfig config = c ? *c : KernelConfig{};
        std::vector<Cell> row = {r.start_ns[l.call], l.apiDur};
        if (l.queue >= 0) {
            row.emplace_back(r.endNs(l.call));
            row.emplace_back(l.queue);
        } else {
            row.emplace_back(std::string());
            row.emplace_back(std::string());
        }
        row.insert(row.end(),
                   {l.gpu->events.start_ns[l.kernel], l.kernelDur, l.total, pidOf(report, *l.api),
                    tidOf(report, *l.api), deviceId(report, l.gpu->gpu), apiDisplayName(report.str(r.name_id[l.call])),
                    xyz(config.grid[0], config.grid[1], config.grid[2]),
                    xyz(config.block[0], config.block[1], config.block[2]),
                    std::string(report.str(kernelNameId(report, *l.gpu, l.kernel, options)))});
        rows.add(std::move(row));
    });
    return table;
}

StatsTable cudaKernExecSum(const Report& report, TimeRange range, const StatsOptions& options) {
    // Per (PID, TID, DevId, displayed API name, kernel name): the four samples in ns.
    struct Group {
        int64_t pid, tid, device;
        std::string api, kernel;
        std::vector<int64_t> total, apiDur, queue, kernelDur;
    };
    std::vector<Group> groups;
    std::unordered_map<std::string, size_t> groupOf;
    // The group of (API lane, GPU, API name id, kernel name id), found by its printed key once.
    struct Ids {
        const Lane* api;
        int32_t gpu;
        uint32_t apiName, kernelName;
        bool operator==(const Ids&) const = default;
    };
    struct IdsHash {
        size_t operator()(const Ids& k) const {
            const uint64_t h = (reinterpret_cast<uintptr_t>(k.api) * 0x9E3779B97F4A7C15ull) ^
                               ((uint64_t{k.apiName} << 32 | k.kernelName) * 0xC2B2AE3D27D4EB4Full) ^
                               static_cast<uint32_t>(k.gpu);
            return static_cast<size_t>(h ^ (h >> 31));
        }
    };
    std::unordered_map<Ids, size_t, IdsHash> groupOfIds;
    forEachLaunch(report, range, [&](const Launch& l) {
        const Ids ids{l.api, l.gpu->gpu, l.api->events.name_id[l.call],
                      kernelNameId(report, *l.gpu, l.kernel, options)};
        auto [known, isNew] = groupOfIds.try_emplace(ids, 0);
        if (isNew) {
            const int64_t pid = pidOf(report, *l.api), tid = tidOf(report, *l.api),
                          device = deviceId(report, l.gpu->gpu);
            std::string api = apiDisplayName(report.str(ids.apiName));
            std::string kernel(report.str(ids.kernelName));
            const std::string key = std::to_string(pid) + ',' + std::to_string(tid) + ',' + std::to_string(device) +
                                    '\n' + api + '\n' + kernel;
            auto [it, inserted] = groupOf.try_emplace(key, groups.size());
            if (inserted) groups.push_back({pid, tid, device, std::move(api), std::move(kernel), {}, {}, {}, {}});
            known->second = it->second;
        }
        Group& g = groups[known->second];
        g.total.push_back(l.total);
        g.apiDur.push_back(l.apiDur);
        if (l.queue >= 0) g.queue.push_back(l.queue);
        g.kernelDur.push_back(l.kernelDur);
    });

    StatsTable table;
    table.name = "cuda_kern_exec_sum";
    table.header = {"PID",          "TID",          "DevId",        "Count",        "QCount",    "TAvg (ns)",
                    "TMed (ns)",    "TMin (ns)",    "TMax (ns)",    "TStdDev (ns)", "AAvg (ns)", "AMed (ns)",
                    "AMin (ns)",    "AMax (ns)",    "AStdDev (ns)", "QAvg (ns)",    "QMed (ns)", "QMin (ns)",
                    "QMax (ns)",    "QStdDev (ns)", "KAvg (ns)",    "KMed (ns)",    "KMin (ns)", "KMax (ns)",
                    "KStdDev (ns)", "API Name",     "Kernel Name"};
    // Sorted by the printed TAvg descending (nsys orders by the rounded column); ties by key.
    struct Row {
        double tavg;
        std::vector<Cell> cells;
        const Group* g;
    };
    std::vector<Row> rows;
    for (Group& g : groups) {
        std::vector<Cell> cells = {g.pid, g.tid, g.device, static_cast<int64_t>(g.total.size()),
                                   static_cast<int64_t>(g.queue.size())};
        appendStats(cells, g.total);
        appendStats(cells, g.apiDur);
        appendStats(cells, g.queue);
        appendStats(cells, g.kernelDur);
        cells.emplace_back(g.api);
        cells.emplace_back(g.kernel);
        const double tavg = std::stod(formatCell(cells[5]));
        rows.push_back({tavg, std::move(cells), &g});
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.tavg != b.tavg) return a.tavg > b.tavg;
        return std::tie(a.g->pid, a.g->tid, a.g->device, a.g->api, a.g->kernel) <
               std::tie(b.g->pid, b.g->tid, b.g->device, b.g->api, b.g->kernel);
    });
    for (Row& r : rows) table.rows.push_back(std::move(r.cells));
    return table;
}

}  // namespace lanescope
