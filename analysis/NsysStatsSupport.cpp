#include "analysis/NsysStatsSupport.h"

#include <cstdio>

namespace lanescope::nsysstats {

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
        case EventKind::OpenMpEvent:
            return lane == LaneKind::OpenMp;
        case EventKind::GraphExecution:
            return lane == LaneKind::GpuStream;
        case EventKind::ProfilerOverhead:
            return lane == LaneKind::ProfilerOverhead;
        case EventKind::GpuPageFault:
            return lane == LaneKind::UnifiedMemory;
        case EventKind::ThreadState:
        case EventKind::CoreRun:
            return false;
    }
    return false;
}

void Group::addWide(int64_t value) {
    if (!narrow.empty()) {
        values.assign(narrow.begin(), narrow.end());
        narrow = {};
    }
    values.push_back(value);
}

std::vector<SummaryRow> summarizeGroups(std::vector<Group>& groups) {
    std::vector<SummaryRow> rows;
    rows.reserve(groups.size());
    for (Group& g : groups)
        rows.push_back({g.narrow.empty() ? summarize(g.values) : summarize(g.narrow), std::move(g.labels)});
    std::sort(rows.begin(), rows.end(), [](const SummaryRow& a, const SummaryRow& b) {
        if (a.summary.total != b.summary.total) return a.summary.total > b.summary.total;
        return a.labels < b.labels;
    });
    return rows;
}

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

std::string apiDisplayName(std::string_view name) {
    if (name.size() > 6 && name.substr(name.size() - 6, 2) == "_v") name.remove_suffix(6);
    return std::string(name);
}

NvtxInfo nvtxInfoOf(const Report& report, const Lane& lane, size_t i) {
    const uint32_t row = lane.events.payload[i];
    if (row < report.nvtx.size()) return report.nvtx[row];
    NvtxInfo info;
    info.start_end = lane.kind == LaneKind::NvtxStartEnd;
    return info;
}

std::string nvtxLabel(const Report& report, const NvtxInfo& info, uint32_t nameId) {
    return std::string(report.str(info.domain_name_id)) + ":" + std::string(report.str(nameId));
}

std::string deviceLabel(const Report& report, int32_t gpu) {
    if (gpu < 0 || static_cast<size_t>(gpu) >= report.gpus.size()) return {};
    const Gpu& g = report.gpus[static_cast<size_t>(gpu)];
    return std::string(report.str(g.name_id)) + " (" + std::to_string(g.device_id) + ")";
}

int64_t deviceId(const Report& report, int32_t gpu) {
    if (gpu < 0 || static_cast<size_t>(gpu) >= report.gpus.size()) return -1;
    return report.gpus[static_cast<size_t>(gpu)].device_id;
}

int64_t pidOf(const Report& report, const Lane& lane) {
    if (lane.process < 0 || static_cast<size_t>(lane.process) >= report.processes.size()) return 0;
    return report.processes[static_cast<size_t>(lane.process)].pid;
}

int64_t tidOf(const Report& report, const Lane& lane) {
    if (lane.thread < 0 || static_cast<size_t>(lane.thread) >= report.threads.size()) return 0;
    return report.threads[static_cast<size_t>(lane.thread)].tid;
}

}  // namespace lanescope::nsysstats

namespace lanescope::nsysstats {

const KernelConfig* kernelConfigOf(const Report& report, const Lane& lane, size_t i) {
    const uint32_t row = lane.events.payload[i];
    if (row >= report.kernels.size()) return nullptr;
    const uint32_t config = report.kernels[row].config;
    return config < report.kernel_configs.size() ? &report.kernel_configs[config] : nullptr;
}

uint32_t kernelNameId(const Report& report, const Lane& lane, size_t i, const StatsOptions& options) {
    if (options.base)
        if (const KernelConfig* config = kernelConfigOf(report, lane, i); config && config->short_name_id)
            return config->short_name_id;
    return lane.events.name_id[i];
}

std::string xyz(uint32_t x, uint32_t y, uint32_t z) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%4u %4u %4u", x, y, z);
    return buf;
}

}  // namespace lanescope::nsysstats
