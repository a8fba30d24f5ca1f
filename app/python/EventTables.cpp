#include "app/python/EventTables.h"

#include <algorithm>

namespace lanescope::python {

const std::vector<EventTableSpec>& eventTables() {
    using C = EventTableSpec::Columns;
    static const std::vector<EventTableSpec> tables = {
        {"kernels", C::Intervals, std::nullopt, EventKind::Kernel},
        {"memcpy", C::Intervals, std::nullopt, EventKind::Memcpy},
        {"memset", C::Intervals, std::nullopt, EventKind::Memset},
        {"graph_executions", C::Intervals, std::nullopt, EventKind::GraphExecution},
        {"cuda_api", C::Intervals, std::nullopt, EventKind::CudaApiCall},
        {"nvtx", C::Intervals, std::nullopt, EventKind::NvtxRange},
        {"osrt", C::Intervals, std::nullopt, EventKind::OsRuntimeCall},
        {"sync", C::Intervals, std::nullopt, EventKind::Sync},
        {"mpi", C::Intervals, std::nullopt, EventKind::MpiCall},
        {"openmp", C::Intervals, std::nullopt, EventKind::OpenMpEvent},
        {"profiler_overhead", C::Intervals, std::nullopt, EventKind::ProfilerOverhead},
        {"um_gpu_page_faults", C::Intervals, std::nullopt, EventKind::GpuPageFault},
        {"thread_states", C::Intervals, LaneKind::ThreadState, std::nullopt},
        {"core_runs", C::Intervals, LaneKind::CpuCore, std::nullopt},
        {"nccl", C::Intervals, LaneKind::Nccl, std::nullopt},
        {"nvtx_marks", C::Instants, LaneKind::Nvtx, std::nullopt},
        {"cuda_events", C::Instants, LaneKind::GpuStream, std::nullopt},
        {"cpu_samples", C::Instants, LaneKind::CpuSamples, std::nullopt},
        {"um_cpu_page_faults", C::Instants, LaneKind::UmCpuPageFaults, std::nullopt},
    };
    return tables;
}

const EventTableSpec* findEventTable(std::string_view name) {
    const auto& tables = eventTables();
    const auto it = std::find_if(tables.begin(), tables.end(), [&](const EventTableSpec& t) { return t.name == name; });
    return it == tables.end() ? nullptr : &*it;
}

std::vector<uint32_t> tableLanes(const Report& report, const EventTableSpec& table) {
    std::vector<uint32_t> lanes;
    for (size_t i = 0; i < report.lanes.size(); ++i) {
        const LaneKind kind = report.lanes[i].kind;
        if (table.lane ? kind == *table.lane : !holdsDerivedEvents(kind)) lanes.push_back(static_cast<uint32_t>(i));
    }
    return lanes;
}

}  // namespace lanescope::python
