#include "tests/support/SyntheticReport.h"

#include <string>

#include "tests/support/NsysSchema.h"
#include "tests/support/SqliteWriter.h"
#include "tests/support/StringIdTable.h"
#include "tests/support/SyntheticWorkload.h"

namespace lanescope::bench {
namespace {

constexpr int64_t kSessionStartUtcNs = 1767225600'000000000;  // 2026-01-01T00:00:00Z
constexpr int64_t kDomainCreatedNs = -250'000'000;            // NVTX domains are created before capture

// NVTX_EVENTS.eventType (ENUM_NSYS_EVENT_TYPE) and OSRT_API.eventClass values.
constexpr int64_t kNvtxPushPop = 59, kNvtxDomainCreate = 75, kOsRuntimeCall = 27;

// Inserts the rows of the event tables, counting them.
class EventWriter {
public:
    explicit EventWriter(const WritableDb& db)
        : nvtx_(db, "NVTX_EVENTS", {"start", "end", "eventType", "color", "text", "globalTid", "textId", "domainId"}),
          api_(db, "CUPTI_ACTIVITY_KIND_RUNTIME",
               {"start", "end", "eventClass", "globalTid", "correlationId", "nameId", "returnValue"}),
          kernels_(db, "CUPTI_ACTIVITY_KIND_KERNEL",
                   {"start",
                    "end",
                    "deviceId",
                    "contextId",
                    "greenContextId",
                    "streamId",
                    "correlationId",
                    "globalPid",
                    "demangledName",
                    "shortName",
                    "mangledName",
                    "launchType",
                    "cacheConfig",
                    "registersPerThread",
                    "gridX",
                    "gridY",
                    "gridZ",
                    "blockX",
                    "blockY",
                    "blockZ",
                    "staticSharedMemory",
                    "dynamicSharedMemory",
                    "localMemoryPerThread",
                    "localMemoryTotal",
                    "gridId",
                    "sharedMemoryExecuted",
                    "sharedMemoryLimitConfig"}),
          memcpys_(db, "CUPTI_ACTIVITY_KIND_MEMCPY",
                   {"start", "end", "deviceId", "contextId", "greenContextId", "streamId", "correlationId", "globalPid",
                    "bytes", "copyKind", "srcKind", "dstKind", "copyCount"}),
          memsets_(db, "CUPTI_ACTIVITY_KIND_MEMSET",
                   {"start", "end", "deviceId", "contextId", "greenContextId", "streamId", "correlationId", "globalPid",
                    "value", "bytes", "memKind"}),
          osrt_(db, "OSRT_API",
                {"start", "end", "eventClass", "globalTid", "nameId", "returnValue", "nestingLevel", "callchainId"}) {}

    // Writes the batch, each table in (start, end descending) order as nsys writes it.
    void write(RowBatch& batch);
    const SyntheticCounts& counts() const { return counts_; }

private:
    InsertStmt nvtx_, api_, kernels_, memcpys_, memsets_, osrt_;
    SyntheticCounts counts_;
};

void EventWriter::write(RowBatch& batch) {
    // One CUDA context per device; no green contexts; regular launches; device memory.
    constexpr int64_t kContext = 1, kGreenContext = 0, kRegularLaunch = 1, kDeviceMemory = 2;
    batch.sortByStart();
    for (const NvtxRow& r : batch.nvtx)
        nvtx_.insert({r.start, r.end, kNvtxPushPop, r.color, r.text, r.global_tid, r.text_id, r.domain_id});
    for (const ApiRow& r : batch.api)
        api_.insert({r.start, r.end, r.event_class, r.global_tid, r.correlation_id, r.name_id, 0});
    for (const KernelRow& r : batch.kernels) {
        const KernelLaunch& t = r.kind->type->launch;
        kernels_.insert({r.start,
                         r.end,
                         r.place.device_id,
                         kContext,
                         kGreenContext,
                         r.place.stream_id,
                         r.correlation_id,
                         r.place.global_pid,
                         r.kind->demangled_id,
                         r.kind->short_id,
                         r.kind->mangled_id,
                         kRegularLaunch,
                         t.cache_config,
                         t.registers_per_thread,
                         t.grid[0],
                         t.grid[1],
                         t.grid[2],
                         t.block[0],
                         t.block[1],
                         t.block[2],
                         t.static_shared_bytes,
                         t.dynamic_shared_bytes,
                         0,
                         t.local_memory_total,
                         r.grid_id,
                         t.shared_memory_executed,
                         0});
    }
    for (const MemcpyRow& r : batch.memcpys)
        memcpys_.insert({r.start, r.end, r.place.device_id, kContext, kGreenContext, r.place.stream_id,
                         r.correlation_id, r.place.global_pid, r.bytes, r.copy_kind, r.src_kind, r.dst_kind, 1});
    for (const MemsetRow& r : batch.memsets)
        memsets_.insert({r.start, r.end, r.place.device_id, kContext, kGreenContext, r.place.stream_id,
                         r.correlation_id, r.place.global_pid, r.value, r.bytes, kDeviceMemory});
    for (const OsrtRow& r : batch.osrt)
        osrt_.insert({r.start, r.end, kOsRuntimeCall, r.global_tid, r.name_id, 0, 0, 0});
    counts_.nvtx += batch.nvtx.size();
    counts_.cuda_api += batch.api.size();
    counts_.kernels += batch.kernels.size();
    counts_.memcpy += batch.memcpys.size();
    counts_.memset += batch.memsets.size();
    counts_.osrt += batch.osrt.size();
}

// Export metadata as nsys writes it, marked as synthetic where nsys names the input.
void writeMetadata(const WritableDb& db) {
    InsertStmt meta(db, "META_DATA_EXPORT", {"name", "value"});
    meta.insert({"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"});
    meta.insert({"EXPORT_PRODUCT_VERSION", "2025.3.2.0"});
    meta.insert({"EXPORT_SCHEMA_VERSION", "3.20.3"});
    meta.insert({"EXPORT_HOST", "lanescope-bench"});
    meta.insert({"EXPORT_PARAM_INPUT_FILE", "synthetic (lanescope-bench generate)"});
    InsertStmt start(db, "TARGET_INFO_SESSION_START_TIME", {"utcEpochNs", "utcTime", "localTime"});
    start.insert({kSessionStartUtcNs, "2026-01-01T00:00:00", "2026-01-01T00:00:00"});
}

// Two H200 GPUs (figures from a real capture), each visible to every process.
void writeGpus(const WritableDb& db, const std::vector<SyntheticProcess>& processes) {
    constexpr int64_t kVmId = int64_t{1} << 48;
    InsertStmt gpu(db, "TARGET_INFO_GPU",
                   {"vmId", "id", "name", "busLocation", "isDiscrete", "l2CacheSize", "totalMemory", "memoryBandwidth",
                    "clockRate", "smCount", "uuid", "chipName", "cuDevice", "computeMajor", "computeMinor"});
    gpu.insert({kVmId, 0, "NVIDIA H200", "0000:00:06.0", 1, 62914560, 150109880320, 4814304000000, 1980000000, 132,
                "f26431e7-1b3b-703f-b60b-14ed1fe51ecc", "GH100", 0, 9, 0});
    gpu.insert({kVmId, 1, "NVIDIA H200", "0000:00:07.0", 1, 62914560, 150109880320, 4814304000000, 1980000000, 132,
                "0455bc8a-5ce1-cd8f-5588-eb467432d44a", "GH100", 1, 9, 0});
    InsertStmt device(db, "TARGET_INFO_CUDA_DEVICE", {"gpuId", "cudaId", "pid"});
    for (const SyntheticProcess& p : processes)
        for (int64_t id : {0, 1}) device.insert({id, id, p.pid});
}

void writeProcessesAndThreads(const WritableDb& db, const TrainingWorkload& workload) {
    InsertStmt process(db, "PROCESSES", {"globalPid", "pid", "name"});
    InsertStmt domain(db, "NVTX_EVENTS", {"start", "eventType", "text", "globalTid", "domainId"});
    for (const SyntheticProcess& p : workload.processes()) {
        process.insert({p.global_pid, p.pid, "python3"});
        domain.insert({kDomainCreatedNs, kNvtxDomainCreate, "NCCL", p.main_global_tid, kNcclDomainId});
    }
    InsertStmt thread(db, "ThreadNames", {"nameId", "priority", "globalTid"});
    for (const SyntheticThread& t : workload.threads()) thread.insert({t.name_id, t.priority, t.global_tid});
}

void writeStrings(const WritableDb& db, const StringIdTable& strings) {
    InsertStmt insert(db, "StringIds", {"id", "value"});
    const auto& values = strings.values();
    for (size_t id = 0; id < values.size(); ++id) insert.insert({static_cast<int64_t>(id), values[id]});
}

}  // namespace

SyntheticCounts writeSyntheticReport(const std::filesystem::path& path, uint64_t events, uint64_t seed) {
    StringIdTable strings;
    const WorkloadNames names(strings);
    TrainingWorkload workload(names, seed);

    WritableDb db(path);
    db.exec(nsysSchemaSql());
    EventWriter writer(db);
    uint64_t written = 0;
    for (;;) {
        const TrainingWorkload before = workload;
        RowBatch step;
        workload.step(step);
        if (written + step.size() > events) {
            workload = before;
            break;
        }
        written += step.size();
        writer.write(step);
    }
    RowBatch padding;
    workload.pad(events - written, padding);
    writer.write(padding);

    writeMetadata(db);
    writeGpus(db, workload.processes());
    writeProcessesAndThreads(db, workload);
    writeStrings(db, strings);
    db.commit();
    return writer.counts();
}

}  // namespace lanescope::bench
