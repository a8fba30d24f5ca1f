#include "analysis/NsysUnifiedMemory.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/NsysStatsSupport.h"
#include "model/EventDetails.h"

namespace lanescope {
namespace {

using namespace nsysstats;
using Cell = StatsTable::Cell;

// One migration inside the range.
struct MigrationRow {
    uint64_t address, bytes;
    int64_t duration;
    bool to_device;
};

std::vector<MigrationRow> migrationsIn(const Report& report, TimeRange range) {
    std::vector<MigrationRow> out;
    if (report.migrations.empty()) return out;
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::GpuStream) continue;
        const IntervalColumns& ev = lane.events;
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev.kind[i] != EventKind::Memcpy || ev.payload[i] >= report.memcpys.size()) continue;
            const MemcpyInfo& m = report.memcpys[ev.payload[i]];
            if (m.copy_kind != CopyKind::UvmHtoD && m.copy_kind != CopyKind::UvmDtoH) continue;
            if (!range.contains(ev.start_ns[i], ev.endNs(i))) continue;
            const auto it = std::lower_bound(report.migrations.begin(), report.migrations.end(), ev.payload[i],
                                             [](const Migration& g, uint32_t row) { return g.memcpy < row; });
            const uint64_t address =
                it != report.migrations.end() && it->memcpy == ev.payload[i] ? it->virtual_address : 0;
            out.push_back({address, m.bytes, ev.durationNs(i), m.copy_kind == CopyKind::UvmHtoD});
        }
    }
    return out;
}

// Calls f(fault) for each CPU page fault inside the range.
template <typename F>
void forEachCpuFault(const Report& report, TimeRange range, F f) {
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::UmCpuPageFaults) continue;
        for (size_t i = 0; i < lane.instants.size(); ++i)
            if (lane.instants.payload[i] < report.cpu_page_faults.size() &&
                range.contains(lane.instants.time_ns[i], lane.instants.time_ns[i]))
                f(report.cpu_page_faults[lane.instants.payload[i]]);
    }
}

// Calls f(faults) for each group of GPU page faults inside the range.
template <typename F>
void forEachGpuFault(const Report& report, TimeRange range, F f) {
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::UnifiedMemory) continue;
        const IntervalColumns& ev = lane.events;
        for (size_t i = 0; i < ev.size(); ++i)
            if (ev.kind[i] == EventKind::GpuPageFault && ev.payload[i] < report.gpu_page_faults.size() &&
                range.contains(ev.start_ns[i], ev.endNs(i)))
                f(report.gpu_page_faults[ev.payload[i]]);
    }
}

size_t rowLimit(const StatsOptions& options) {
    const int64_t rows = options.rows.value_or(10);
    return rows < 0 ? SIZE_MAX : size_t(rows);
}

}  // namespace

StatsTable umSum(const Report& report, TimeRange range, const StatsOptions& options) {
    StatsTable table;
    table.name = "um_sum";
    table.header = {"Virtual Address", "HtoD Migration size (MB)", "DtoH Migration size (MB)",
                    "CPU Page Faults", " GPU Page Faults",         "Migration Throughput (MB/s)"};
    struct Group {
        uint64_t htod = 0, dtoh = 0;
        bool any_htod = false, any_dtoh = false;
        int64_t duration = 0;
    };
    std::map<uint64_t, Group> byAddress;
    for (const MigrationRow& m : migrationsIn(report, range)) {
        Group& g = byAddress[m.address];
        (m.to_device ? g.htod : g.dtoh) += m.bytes;
        (m.to_device ? g.any_htod : g.any_dtoh) = true;
        g.duration += m.duration;
    }
    if (byAddress.empty()) return table;
    // Faults are summed per address before they meet the migrations (a join first would
    // count each fault once per migration).
    std::unordered_map<uint64_t, int64_t> cpuFaults, gpuFaults;
    forEachCpuFault(report, range, [&](const CpuPageFaultInfo& f) { ++cpuFaults[f.address]; });
    forEachGpuFault(report, range, [&](const GpuPageFaultInfo& f) { gpuFaults[f.address] += f.faults; });

    struct Row {
        uint64_t address;
        double throughput;  // for the order; -1 when it has none
        std::vector<Cell> cells;
    };
    std::vector<Row> rows;
    for (const auto& [address, g] : byAddress) {
        const uint64_t bytes = g.htod + g.dtoh;
        const Cell rate = throughput(bytes, g.duration);
        const auto cpu = cpuFaults.find(address);
        const auto gpu = gpuFaults.find(address);
        rows.push_back({address,
                        g.duration > 0 ? double(bytes) * double(1000000000 / g.duration) : -1.0,
                        {hexAddress(address), g.any_htod ? megabytes(g.htod) : kNull,
                         g.any_dtoh ? megabytes(g.dtoh) : kNull, cpu != cpuFaults.end() ? Cell(cpu->second) : kNull,
                         gpu != gpuFaults.end() ? Cell(gpu->second) : kNull, rate}});
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.throughput > b.throughput; });
    rows.resize(std::min(rows.size(), rowLimit(options)));
    for (Row& r : rows) table.rows.push_back(std::move(r.cells));
    return table;
}

StatsTable umTotalSum(const Report& report, TimeRange range) {
    StatsTable table;
    table.name = "um_total_sum";
    table.header = {"Total HtoD Migration Size (MB)", "Total DtoH Migration Size (MB)", "Total CPU Page Faults",
                    "Total GPU PageFaults",           "Minimum Virtual Address",        "Maximum Virtual Address"};
    const std::vector<MigrationRow> migrations = migrationsIn(report, range);
    int64_t cpu = 0, gpu = 0;
    forEachCpuFault(report, range, [&](const CpuPageFaultInfo&) { ++cpu; });
    forEachGpuFault(report, range, [&](const GpuPageFaultInfo& f) { gpu += f.faults; });
    if (migrations.empty() && cpu == 0 && gpu == 0) return table;
    uint64_t htod = 0, dtoh = 0, low = UINT64_MAX, high = 0;
    for (const MigrationRow& m : migrations) {
        (m.to_device ? htod : dtoh) += m.bytes;
        low = std::min(low, m.address);
        high = std::max(high, m.address);
    }
    table.rows.push_back({megabytes(htod), megabytes(dtoh), cpu, gpu,
                          migrations.empty() ? kNull : Cell(hexAddress(low)),
                          migrations.empty() ? kNull : Cell(hexAddress(high))});
    return table;
}

StatsTable umCpuPageFaultsSum(const Report& report, TimeRange range, const StatsOptions& options) {
    StatsTable table;
    table.name = "um_cpu_page_faults_sum";
    table.header = {"CPU Page Faults", "CPU Instruction Address", "Source File", "Source Line"};
    struct Group {
        uint32_t instruction, file, line;
        int64_t count = 0;
    };
    std::vector<Group> groups;  // in order of first fault
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, size_t> index;
    forEachCpuFault(report, range, [&](const CpuPageFaultInfo& f) {
        auto [it, added] = index.try_emplace({f.instruction_id, f.source_file_id, f.source_line}, groups.size());
        if (added) groups.push_back({f.instruction_id, f.source_file_id, f.source_line});
        ++groups[it->second].count;
    });
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.count > b.count; });
    groups.resize(std::min(groups.size(), rowLimit(options)));
    for (const Group& g : groups)
        table.rows.push_back(
            {g.count, std::string(report.str(g.instruction)), std::string(report.str(g.file)), int64_t{g.line}});
    return table;
}

}  // namespace lanescope
