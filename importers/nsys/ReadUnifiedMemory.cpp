#include <algorithm>

#include "importers/nsys/TableScan.h"

namespace lanescope::nsys {
namespace {

// GPU page faults: intervals on the "Unified memory" lane of their process and GPU.
std::optional<ImportError> readGpuPageFaults(ImportContext& ctx) {
    enum { Start, End, Pid, Device, Address, Faults, Access };
    return scanEventTable(ctx, "CUDA_UM_GPU_PAGE_FAULT_EVENTS",
                          {"start", "end", "globalPid", "deviceId", "address", "numberOfPageFaults", "faultAccessType"},
                          {"start", "end", "globalPid", "deviceId"}, [&](const SqliteStmt& row, EventChunk& chunk) {
                              if (!validInterval(chunk, row, Start, End, Diag::GpuPageFaultWithoutEnd)) return;
                              GpuPageFaultInfo f;
                              f.address = static_cast<uint64_t>(row.i64(Address));
                              f.faults = clampU32(row.isNull(Faults) ? 1 : row.i64(Faults));
                              f.access_type = static_cast<uint8_t>(std::clamp<int64_t>(row.i64(Access), 0, 255));
                              chunk.gpuPageFaults.push_back(f);
                              pushInterval(chunk, LaneKey{LaneKind::UnifiedMemory, row.i64(Pid), row.i64(Device)},
                                           row.i64(Start), row.i64(End),
                                           chunk.localString(gpuPageFaultName(f.access_type)), EventKind::GpuPageFault,
                                           static_cast<uint32_t>(chunk.gpuPageFaults.size() - 1));
                          });
}

// CPU page faults: instants on the process's "UM CPU page faults" lane (nsys records no thread).
std::optional<ImportError> readCpuPageFaults(ImportContext& ctx) {
    enum { Start, Pid, Address, Pc, Instruction, File, Line, Module, Unresolved };
    const ReportBuilder& b = ctx.builder;
    return scanEventTable(
        ctx, "CUDA_UM_CPU_PAGE_FAULT_EVENTS",
        {"start", "globalPid", "address", "originalFaultPc", "CpuInstruction", "sourceFile", "sourceLine", "module",
         "unresolvedFaultPc"},
        {"start", "globalPid"}, [&](const SqliteStmt& row, EventChunk& chunk) {
            if (!validTime(chunk, row.i64(Start))) return;
            CpuPageFaultInfo f;
            f.address = static_cast<uint64_t>(row.i64(Address));
            f.fault_pc = static_cast<uint64_t>(row.i64(Pc));
            f.instruction_id = row.isNull(Instruction) ? 0 : nameOf(b, chunk, row.i64(Instruction));
            f.source_file_id = row.isNull(File) ? 0 : nameOf(b, chunk, row.i64(File));
            f.source_line = clampU32(row.i64(Line));
            f.module_id = row.isNull(Module) ? 0 : nameOf(b, chunk, row.i64(Module));
            f.pc_unresolved = row.i64(Unresolved) != 0;
            chunk.cpuPageFaults.push_back(f);
            StagingInstants& in = chunk.lane(LaneKey{LaneKind::UmCpuPageFaults, row.i64(Pid)}).instants;
            const uint32_t label = chunk.localString("CPU page fault");
            in.append(row.i64(Start), label, static_cast<uint32_t>(chunk.cpuPageFaults.size() - 1));
        });
}

}  // namespace

std::string gpuPageFaultName(uint8_t accessType) {
    static const char* const kinds[] = {"GPU page faults", "GPU page faults (read)", "GPU page faults (write)",
                                        "GPU page faults (atomic)", "GPU page faults (prefetch)"};
    return accessType < std::size(kinds) ? kinds[accessType] : kinds[0];
}

std::optional<ImportError> readUnifiedMemory(ImportContext& ctx) {
    for (auto reader : {readGpuPageFaults, readCpuPageFaults})
        if (auto error = reader(ctx)) return error;
    return std::nullopt;
}

}  // namespace lanescope::nsys
