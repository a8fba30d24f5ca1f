#include "app/gui/import/ImportStageText.h"

#include <QRegularExpression>
#include <utility>

namespace lanescope {

QString importStageText(const QString& stage) {
    // By table name, or by its prefix where one name stands for a family of tables.
    static const std::pair<const char*, const char*> kTables[] = {
        {"strings", "reading names"},
        {"CUDA_CALLCHAINS", "reading call stacks"},
        {"OSRT_CALLCHAINS", "reading call stacks"},
        {"SAMPLING_CALLCHAINS", "reading call stacks"},
        {"NVTX_EVENTS", "reading NVTX ranges"},
        {"CUPTI_ACTIVITY_KIND_RUNTIME", "reading CUDA API calls"},
        {"CUPTI_ACTIVITY_KIND_DRIVER", "reading CUDA driver calls"},
        {"OSRT_API", "reading OS runtime calls"},
        {"MPI_", "reading MPI calls"},
        {"OPENMP_EVENT_KIND_", "reading OpenMP events"},
        {"CUPTI_ACTIVITY_KIND_KERNEL", "reading GPU kernels"},
        {"CUPTI_ACTIVITY_KIND_MEMCPY", "reading memory copies"},
        {"CUPTI_ACTIVITY_KIND_MEMSET", "reading memsets"},
        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "reading synchronizations"},
        {"CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "reading CUDA graph launches"},
        {"CUPTI_ACTIVITY_KIND_CUDA_EVENT", "reading CUDA event records"},
        {"CUDA_UM_", "reading unified-memory page faults"},
        {"COMPOSITE_EVENTS", "reading CPU samples"},
        {"SCHED_EVENTS", "reading context switches"},
        {"GPU_METRICS", "reading GPU metrics"},
        {"CUDA_GPU_MEMORY_USAGE_EVENTS", "reading CUDA memory usage"},
        {"CUDA_GRAPH_", "reading CUDA graph events"},
        {"DIAGNOSTIC_EVENT", "reading Nsight Systems' messages"},
        {"PROFILER_OVERHEAD", "reading profiler overhead"},
    };
    for (const auto& [table, text] : kTables)
        if (stage == table || (QString(table).endsWith('_') && stage.startsWith(table))) return text;
    static const QRegularExpression kTableName("^[A-Z][A-Z0-9_]+$");
    if (kTableName.match(stage).hasMatch()) return "reading " + stage;
    return stage;
}

}  // namespace lanescope
