#include "query/CudaMemoryTables.h"

#include "query/SortedFunctionTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;
constexpr auto T = ColumnType::Text;

}  // namespace

void addCudaMemoryTables(const Report& r, std::vector<std::unique_ptr<TableSpec>>& tables) {
    // streamId and the memory pool columns are NULL: the model keeps them not (nsys fills them
    // for allocations from memory pools, cudaMallocAsync).
    enum {
        Start,
        GlobalPid,
        DeviceId,
        ContextId,
        Address,
        Pc,
        Bytes,
        MemKind,
        MemoryOperationType,
        Name,
        CorrelationId,
    };
    tables.push_back(std::make_unique<SortedFunctionTable>(
        "CUDA_GPU_MEMORY_USAGE_EVENTS",
        std::vector<ColumnDef>{{"start", I},
                               {"globalPid", I},
                               {"deviceId", I},
                               {"contextId", I},
                               {"address", I},
                               {"pc", I},
                               {"bytes", I},
                               {"memKind", I},
                               {"memoryOperationType", I},
                               {"name", T},
                               {"correlationId", I},
                               {"streamId", I},
                               {"localMemoryPoolAddress", I},
                               {"localMemoryPoolReleaseThreshold", I},
                               {"localMemoryPoolSize", I},
                               {"localMemoryPoolUtilizedSize", I},
                               {"importedMemoryPoolAddress", I},
                               {"importedMemoryPoolProcessId", I}},
        [&r] { return uint32_t(r.cuda_memory_events.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const CudaMemoryEvent& m = r.cuda_memory_events[row];
            switch (column) {
                case Start:
                    return resultInt(ctx, m.time_ns);
                case GlobalPid:
                    return resultInt(ctx, globalPidOf(r, m.process));
                case DeviceId:
                    if (m.gpu < 0 || size_t(m.gpu) >= r.gpus.size()) return resultNull(ctx);
                    return resultInt(ctx, r.gpus[size_t(m.gpu)].device_id);
                case ContextId:
                    return resultInt(ctx, m.context_id);
                case Address:
                    return resultInt(ctx, int64_t(m.address));
                case Pc:
                    return resultInt(ctx, int64_t(m.pc));
                case Bytes:
                    return resultInt(ctx, int64_t(m.bytes));
                case MemKind:
                    return resultInt(ctx, int64_t(m.mem_kind));
                case MemoryOperationType:
                    return resultInt(ctx, m.freed ? 1 : 0);
                case Name:
                    if (m.name_id == kNoVariableName) return resultNull(ctx);
                    return resultText(ctx, r.str(m.name_id));
                case CorrelationId:
                    return resultInt(ctx, m.correlation_id);
                default:
                    return resultNull(ctx);
            }
        },
        Start, [&r](uint32_t row) { return r.cuda_memory_events[row].time_ns; }));
}

}  // namespace lanescope::sql
