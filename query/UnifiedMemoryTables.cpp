#include "query/UnifiedMemoryTables.h"

#include "query/GpuLaneValues.h"
#include "query/LaneEventTable.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;

// CUDA_UM_GPU_PAGE_FAULT_EVENTS: the GpuPageFault events of the UnifiedMemory lanes (one lane
// per process and GPU, so globalPid and deviceId are segment columns).
class GpuPageFaultTable : public LaneEventTable {
public:
    enum Column { Start, End, GlobalPid, DeviceId, Address, NumberOfPageFaults, FaultAccessType };
    explicit GpuPageFaultTable(const Report& report)
        : LaneEventTable(
              report, "CUDA_UM_GPU_PAGE_FAULT_EVENTS",
              {{"start", I},
               {"end", I},
               {"globalPid", I},
               {"deviceId", I},
               {"address", I},
               {"numberOfPageFaults", I},
               {"faultAccessType", I}},
              [](const Lane& l) { return l.kind == LaneKind::UnifiedMemory; }, LaneEvents::Part::Intervals,
              EventKind::GpuPageFault) {}

    bool isSegmentColumn(int column) const override { return kLane.fieldOf(column).has_value(); }
    std::optional<int64_t> segmentValue(size_t segment, int column) const override {
        return gpuLaneValue(report_, rows_.lane(segment), *kLane.fieldOf(column));
    }

protected:
    void eventValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const override {
        if (const auto field = kLane.fieldOf(column)) return resultInt(ctx, gpuLaneValue(report_, lane, *field));
        const GpuPageFaultInfo& f = report_.gpu_page_faults[lane.events.payload[event]];
        switch (column) {
            case Start:
                return resultInt(ctx, lane.events.start_ns[event]);
            case End:
                return resultInt(ctx, lane.events.endNs(event));
            case Address:
                return resultInt(ctx, int64_t(f.address));
            case NumberOfPageFaults:
                return resultInt(ctx, f.faults);
            case FaultAccessType:
                return resultInt(ctx, f.access_type);
            default:
                return resultNull(ctx);
        }
    }

private:
    static constexpr GpuLaneColumns kLane{.device_id = DeviceId, .global_pid = GlobalPid};
};

// CUDA_UM_CPU_PAGE_FAULT_EVENTS: the instants of the UmCpuPageFaults lanes (one per process:
// nsys records no thread), payload a row of Report::cpu_page_faults. module is the string id of
// the instruction's module, NULL where none was recorded; sourceFile is the string id of the
// source file, 0 ("") when nsys resolved none.
class CpuPageFaultTable : public LaneEventTable {
public:
    enum Column {
        Start,
        GlobalPid,
        Address,
        OriginalFaultPc,
        CpuInstruction,
        Module,
        UnresolvedFaultPc,
        SourceFile,
        SourceLine
    };
    explicit CpuPageFaultTable(const Report& report)
        : LaneEventTable(
              report, "CUDA_UM_CPU_PAGE_FAULT_EVENTS",
              {{"start", I},
               {"globalPid", I},
               {"address", I},
               {"originalFaultPc", I},
               {"CpuInstruction", I},
               {"module", I},
               {"unresolvedFaultPc", I},
               {"sourceFile", I},
               {"sourceLine", I}},
              [](const Lane& l) { return l.kind == LaneKind::UmCpuPageFaults; }, LaneEvents::Part::Instants,
              std::nullopt) {}

    bool isSegmentColumn(int column) const override { return column == GlobalPid; }
    std::optional<int64_t> segmentValue(size_t segment, int) const override {
        return globalPidOf(report_, rows_.lane(segment).process);
    }

protected:
    void eventValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const override {
        const CpuPageFaultInfo& f = report_.cpu_page_faults[lane.instants.payload[event]];
        switch (column) {
            case Start:
                return resultInt(ctx, lane.instants.time_ns[event]);
            case GlobalPid:
                return resultInt(ctx, globalPidOf(report_, lane.process));
            case Address:
                return resultInt(ctx, int64_t(f.address));
            case OriginalFaultPc:
                return resultInt(ctx, int64_t(f.fault_pc));
            case CpuInstruction:
                return resultInt(ctx, f.instruction_id);
            case SourceFile:
                return resultInt(ctx, f.source_file_id);
            case SourceLine:
                return resultInt(ctx, f.source_line);
            case Module:
                return f.module_id ? resultInt(ctx, f.module_id) : resultNull(ctx);
            case UnresolvedFaultPc:
                return resultInt(ctx, f.pc_unresolved ? 1 : 0);
            default:
                return resultNull(ctx);
        }
    }
};

}  // namespace

void addUnifiedMemoryTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    tables.push_back(std::make_unique<GpuPageFaultTable>(report));
    tables.push_back(std::make_unique<CpuPageFaultTable>(report));
}

}  // namespace lanescope::sql
