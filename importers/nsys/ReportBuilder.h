#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "importers/EntityRegistry.h"
#include "importers/SqliteDb.h"
#include "importers/StackInterner.h"
#include "importers/StagingLane.h"
#include "model/IdIndex.h"
#include "model/Report.h"

namespace lanescope::nsys {

// nsys packs ids: globalTid = globalPid | tid, with pid in bits 24..47.
inline int64_t globalPidOf(int64_t globalTid) { return globalTid & ~int64_t{0xFFFFFF}; }
inline int64_t pidOf(int64_t globalId) { return (globalId >> 24) & 0xFFFFFF; }
inline int64_t tidOf(int64_t globalTid) { return globalTid & 0xFFFFFF; }

// Exact identity of an NvtxInfo row as nsys fills it, for deduplication (input_shapes_id, a
// PyTorch trace's, stays 0 here). An `own` row (of an event carrying an extended payload, which
// finds its payload by its NvtxInfo row) is never shared.
struct NvtxKey {
    uint64_t colorAndCategory;
    uint64_t domainAndFlags;
    bool own = false;
    bool operator==(const NvtxKey&) const = default;
    static NvtxKey of(const NvtxInfo& info);
};
struct NvtxKeyHash {
    size_t operator()(const NvtxKey& k) const {
        const uint64_t h =
            (k.colorAndCategory * 0x9E3779B97F4A7C15ull) ^ (k.domainAndFlags + (k.colorAndCategory >> 17));
        return (h ^ (h >> 32)) * 0xBF58476D1CE4E5B9ull >> 32;  // all bits mixed into the low 32
    }
};

struct KernelConfigHash {
    size_t operator()(const KernelConfig& c) const {
        uint64_t h = 0xCBF29CE484222325ull;
        for (uint64_t v :
             {uint64_t{c.grid[0]}, uint64_t{c.grid[1]}, uint64_t{c.grid[2]}, uint64_t{c.block[0]}, uint64_t{c.block[1]},
              uint64_t{c.block[2]}, uint64_t{c.registers_per_thread}, uint64_t{c.static_shared_bytes},
              uint64_t{c.dynamic_shared_bytes}, uint64_t{c.local_bytes_per_thread}, uint64_t{c.shared_executed_bytes},
              uint64_t{c.short_name_id}, uint64_t{c.launch_type}, uint64_t{c.mangled_name_id}, c.local_memory_total,
              uint64_t{c.cache_config}, uint64_t{c.shared_memory_limit_config}})
            h = (h ^ v) * 0x100000001B3ull;
        return h;
    }
};

// Names in chunk-local string pools carry this bit until they are merged into the report's.
inline constexpr uint32_t kLocalString = 0x80000000u;

// Stack ids in chunk-local stack tables carry this bit until they are merged into the report's.
inline constexpr uint32_t kLocalStack = 0x80000000u;

// A context switch as nsys records it (SCHED_EVENTS), in table order. Times in ns.
struct SchedRow {
    int64_t start_ns = 0;
    int64_t global_tid = 0;
    int32_t cpu = 0;
    bool sched_in = false;
    int32_t state = 0;  // ENUM_SAMPLING_THREAD_STATE, as recorded
};
// The state of a switch whose report records none (a 2022.4 export's NULL): 0, Unknown, as
// nsys 2025.3 exports the same report.
inline constexpr int32_t kUnrecordedSchedState = 0;

// The backtrace of a CPU call while importing: its thread by nsys globalTid, its stack id
// (with kLocalStack when it indexes the chunk's stacks).
struct PendingBacktrace {
    int64_t global_tid = 0;
    LaneKind lane = LaneKind::CudaApi;
    int64_t start_ns = 0;
    uint32_t stack = kNoStack;
    uint32_t first_detail = kNoFrameDetails;  // into its chunk's backtraceFrameDetails, then the report's
};

// An NVTX event while importing, for Report::nvtx_ties: its start, thread by nsys globalTid and
// what holds it.
struct PendingNvtxTie {
    int64_t start_ns = 0;
    int64_t global_tid = 0;
    NvtxHolder holder = NvtxHolder::Other;
};

// An NVTX domain's creation while importing: nsys's domainId, its name maybe local, its thread
// by nsys globalTid (0 when not recorded). With event_type kNvtxCategoryNameEvent or
// kNvtxThreadNameEvent, a category's or thread's naming instead (Report::nvtx_namings), in the
// domain domain_id.
struct PendingDomain {
    int64_t domain_id = 0;
    uint32_t name_id = 0;
    int64_t start_ns = 0;
    int64_t global_tid = 0;
    uint16_t event_type = 0;  // 0: a domain's creation
    uint32_t category = 0;
    bool registered_name = false;
};

// The non-zero result of a CUDA API call while importing: its thread by nsys globalTid.
// A CPU sample's unusual state and cycle count while importing (Report::unusual_samples).
struct PendingSampleCounts {
    int64_t global_tid = 0;
    int64_t time_ns = 0;
    uint32_t state = kUsualSampleState;
    int64_t cycles = kUsualSampleCycles;
};

struct PendingResult {
    int64_t global_tid = 0;
    int64_t start_ns = 0;
    uint32_t correlation_id = 0;
    int32_t result = 0;
};

// A CUDA graph event while importing: its thread by nsys globalTid, its name maybe local.
struct PendingGraphApiEvent {
    int64_t global_tid = 0;
    GraphApiEvent event;  // thread unset
};

// A CUDA event record while importing: its stream lane and its record (its time comes from
// the cudaEventRecord call of the same correlation id, found once every call is read).
struct PendingCudaEvent;

// An Nsight Systems message while importing: its process by nsys globalPid.
struct PendingNsysMessage {
    int64_t global_pid = 0;
    NsysMessage message;  // process unset
};

// An NVTX event's extended payload while importing: the event's own NvtxInfo row (local to its
// chunk until merged) and its bytes, EventChunk::payloadBytes[offset, offset + length).
struct PendingPayload {
    uint32_t nvtx = 0;
    uint32_t length = 0;
    uint64_t schema_id = 0;
    uint64_t offset = 0;
};

// Identity of a lane while importing. CPU lanes: owner = globalTid. GPU lanes: owner =
// globalPid, with device and stream.
struct LaneKey {
    LaneKind kind;
    int64_t owner = 0;
    int64_t device = -1;
    int64_t stream = -1;
    int64_t context = -1;  // CUDA context id of GPU lanes
    bool operator==(const LaneKey&) const = default;
};
struct LaneKeyHash {
    size_t operator()(const LaneKey& k) const {
        uint64_t h = static_cast<uint64_t>(k.kind) * 0x9E3779B97F4A7C15ull;
        for (int64_t v : {k.owner, k.device, k.stream, k.context})
            h = (h ^ static_cast<uint64_t>(v)) * 0xBF58476D1CE4E5B9ull + (h >> 29);
        return h;
    }
};

// Events of one lane read by one chunk, in table row order (times in ns; names and payloads
// local to the chunk until it is merged).
struct PendingLane {
    StagingIntervals events;
    StagingInstants instants;
    uint32_t ordinal = 0;  // its index in EventChunk::laneKeys
};

struct PendingCudaEvent {
    LaneKey stream;  // the GpuStream lane
    CudaEventInfo info;
};

// Whether the events of a kind of lane make rows that nsys's export lists in the report file's
// order (Report::file_order): OS runtime calls and marks, CUDA API calls, CPU samples.
inline bool keepsFileOrder(LaneKind kind) {
    return kind == LaneKind::OsRuntime || kind == LaneKind::CudaApi || kind == LaneKind::CpuSamples;
}

// A run of rows in their table's file order while importing: the next `count` events (or
// instants) added to the chunk's lane EventChunk::laneKeys[lane]. 12 bytes: a report whose
// threads' calls alternate has about a run per call (18 M runs for 30 M OS runtime calls).
struct PendingRun {
    uint32_t lane = 0;
    uint32_t count = 0;
    bool instants = false;
};

// What one chunk of one event table produced. Payloads index this chunk's side tables;
// names with kLocalString index `strings`.
struct EventChunk {
    std::unordered_map<LaneKey, PendingLane, LaneKeyHash> lanes;
    std::vector<LaneKey> laneKeys;  // the keys of `lanes` in the order they were first used (PendingLane::ordinal)
    StringPool strings;
    std::vector<KernelInfo> kernels;          // config indexes kernelConfigs
    std::vector<KernelConfig> kernelConfigs;  // short_name_id may be a local string
    std::unordered_map<KernelConfig, uint32_t, KernelConfigHash> kernelConfigIndex;
    std::vector<MemcpyInfo> memcpys;
    std::vector<MemsetInfo> memsets;
    std::vector<SyncInfo> syncs;
    std::vector<GraphExecutionInfo> graphExecutions;
    std::vector<GpuPageFaultInfo> gpuPageFaults;
    std::vector<CpuPageFaultInfo> cpuPageFaults;       // source_file_id may be a local string
    std::vector<Migration> migrations;                 // memcpy indexes memcpys
    std::vector<PeerCopy> peerCopies;                  // memcpy indexes memcpys
    std::vector<KernelGraphNode> kernelGraphNodes;     // kernel indexes kernels
    std::vector<PendingCudaEvent> cudaEvents;          // in table row order
    std::vector<PendingGraphApiEvent> graphApiEvents;  // in table row order; names may be local
    std::vector<PendingNsysMessage> nsysMessages;      // in table row order
    // The rows of the lanes that keep their file order (keepsFileOrder), in table row order: every
    // event and instant added to those lanes, as runs.
    std::vector<PendingRun> fileOrder;
    std::vector<NvtxInfo> nvtx;                // domain_name_id holds the raw nsys domainId until finish
    std::vector<NvtxKey> nvtxKeys;             // parallel to nvtx
    IdIndex nvtxIndex;                         // a shared row's key (nvtxKeys) -> its row of nvtx, by NvtxKeyHash
    std::vector<PendingDomain> domains;        // in table row order
    std::vector<PendingPayload> payloads;      // in table row order
    std::vector<uint8_t> payloadBytes;         // the payloads' bytes, end to end
    StackInterner stacks;                      // call stacks first met in this chunk; frame names may be local strings
    std::vector<PendingBacktrace> backtraces;  // in table row order
    std::vector<FrameDetail> backtraceFrameDetails;   // the backtraces' frames (PendingBacktrace::first_detail)
    std::vector<FrameDetail> sampleFrameDetails;      // the samples' frames, sample after sample in row order
    std::vector<SchedRow> sched;                      // in table row order
    std::vector<PendingResult> callResults;           // non-zero CUDA API results, in table row order
    std::vector<PendingSampleCounts> unusualSamples;  // CPU samples not of the usual counts, in row order
    std::vector<int64_t> nvtxOtherStarts;             // NVTX events no lane holds (Report::nvtx_other_starts_ns)
    // The NVTX events of equal start next to one another (Report::nvtx_ties), in table row order,
    // and the chunk's first and last NVTX event, which may tie with the chunks beside it.
    std::vector<PendingNvtxTie> nvtxTies;
    PendingNvtxTie firstNvtx, lastNvtx;
    size_t nvtxSeen = 0;
    bool firstNvtxTied = false, lastNvtxTied = false;  // whether nvtxTies holds it
    Diagnostics diagnostics;

    uint32_t localString(std::string_view text) { return strings.intern(text) | kLocalString; }
    // The pending lane of `key`. Rows of one lane tend to come in runs, so the last one is kept;
    // where threads' rows alternate (a run per 1.6 rows in a 1 GB report), a few recent ones are
    // kept too, by the key's hash.
    PendingLane& lane(const LaneKey& key) {
        if (lastLane_ && key == lastKey_) return *lastLane_;
        RecentLane& recent = recentLanes_[LaneKeyHash{}(key) % recentLanes_.size()];
        if (!recent.lane || !(recent.key == key)) {
            const auto [at, added] = lanes.try_emplace(key);
            if (added) {
                at->second.ordinal = static_cast<uint32_t>(laneKeys.size());
                laneKeys.push_back(key);
            }
            recent = {key, &at->second};  // node-based map: the reference stays valid
        }
        lastKey_ = key;
        lastLane_ = recent.lane;
        return *lastLane_;
    }
    uint32_t nvtxRow(const NvtxInfo& info);
    // A row of nvtx for one event alone: one that carries an extended payload, added with
    // addPayload (importers/nsys/NvtxPayloadStaging.cpp).
    uint32_t ownNvtxRow(const NvtxInfo& info);
    void addPayload(uint32_t nvtxRow, uint64_t schemaId, std::span<const uint8_t> bytes);
    uint32_t kernelConfigRow(const KernelConfig& config);
    // Notes the event (instant) just added to `lane`, of kind `kind`, in the file order, when
    // its lane keeps one (keepsFileOrder).
    void noteFileOrder(LaneKind kind, const PendingLane& lane, bool instant) {
        if (!keepsFileOrder(kind)) return;
        if (!fileOrder.empty() && fileOrder.back().lane == lane.ordinal && fileOrder.back().instants == instant)
            ++fileOrder.back().count;
        else
            fileOrder.push_back({lane.ordinal, 1, instant});
    }
    // Every NVTX event, in table row order, whether a lane holds it or not.
    void noteNvtx(int64_t start, int64_t globalTid, NvtxHolder holder);

private:
    struct RecentLane {
        LaneKey key{};
        PendingLane* lane = nullptr;
    };
    LaneKey lastKey_{};
    PendingLane* lastLane_ = nullptr;
    std::array<RecentLane, 8> recentLanes_{};  // by LaneKeyHash modulo 8
    NvtxKey lastNvtxKey_{};
    uint32_t lastNvtxRow_ = UINT32_MAX;
};

// How one merged chunk's ids become the report's (ReportBuilder::resolveChunk): its local
// strings, NVTX rows and call stacks by their index in the chunk (names with kLocalString,
// stacks with kLocalStack), and the report's row at which each of its side tables begins.
struct ChunkIds {
    std::vector<uint32_t> strings, nvtx, stacks;
    uint32_t kernel = 0, memcpy = 0, memset = 0, sync = 0, graph = 0, gpu_fault = 0, cpu_fault = 0;

    uint32_t name(uint32_t id) const { return (id & kLocalString) ? strings[id & ~kLocalString] : id; }
    uint32_t stack(uint32_t id) const { return id != kNoStack && (id & kLocalStack) ? stacks[id & ~kLocalStack] : id; }
    // An event's payload, the row of the side table its kind names.
    uint32_t eventPayload(EventKind kind, uint32_t payload) const;
    // An instant's payload, by the kind of its lane.
    uint32_t instantPayload(LaneKind lane, uint32_t payload) const;
};

// One chunk's part of a lane while merging, and how its ids map to the report's.
struct LanePart {
    PendingLane* lane;
    const ChunkIds* ids;
};

// Assembles a Report from the tables of an nsys export: resolves nsys ids (strings,
// threads, processes, devices) to model indexes and merges chunks in order; importFile then
// finishes the report (importers/FinishReport.h).
class ReportBuilder {
public:
    explicit ReportBuilder(Report& report) : report_(report), entities_(report) {}

    // StringIds.id -> report string id. Thread-safe once loaded.
    bool loadStringIds(const SqliteDb& db, std::string& error);
    uint32_t string(int64_t nsysId) const;
    // The same, 0 (the empty string) for an id the string table lacks.
    uint32_t stringOrEmpty(int64_t nsysId) const {
        const uint32_t id = string(nsysId);
        return id == UINT32_MAX ? 0 : id;
    }
    void loadProcessesAndThreads(const SqliteDb& db);
    void loadGpus(const SqliteDb& db);
    // The same, for a reader of the report file itself (importers/nsysrep): the string table
    // in id order, and names as it finds them.
    void setStrings(const std::vector<std::string>& strings);
    void setProcessName(int64_t globalPid, std::string_view name);
    void setThreadName(int64_t globalTid, int64_t nsysStringId);
    void setThreadPriority(int64_t globalTid, int32_t priority);
    void setGpuName(int64_t cudaDeviceId, std::string_view name);

    // Appends the chunks' lanes, in chunk order, to the report's lanes and frees the chunks;
    // the copying runs on up to `threads` threads.
    void merge(std::vector<EventChunk>& chunks, unsigned threads = 1);
    // The index in Report::lanes of the lane of `key`, made if new. Making a lane may move every
    // lane: hold indexes, never a reference, across this call.
    size_t laneIndex(const LaneKey& key);
    int32_t processIndex(int64_t globalPid);
    // The process of `globalPid` if it has been made, without making it.
    std::optional<int32_t> findProcess(int64_t globalPid) const { return entities_.findProcess(globalPid); }
    int32_t threadIndex(int64_t globalTid);
    int32_t gpuIndex(int64_t deviceId);

    // The report's call stacks while importing (stack ids a reader may hand out directly).
    StackInterner& stacks() { return stacks_; }
    // Context switches in table order; made into thread-state and CPU core lanes by complete().
    void addSched(const SchedRow& row) { sched_.push_back(row); }

    // Resolves NVTX domain names, orders GPUs by CUDA device id, puts each synchronization lane
    // on the GPU its context ran on (Lane::recorded_gpu), makes the thread-state and CPU
    // core lanes from the context switches and stores the call stacks and backtraces. The
    // report is then ready for the finishing step every import shares (importers/FinishReport.h).
    void complete();

    // The rows known so far as a report of its own (ImportOptions::on_skeleton): `meta`; every
    // lane made so far, then those of `foreseen` (known before their events are merged), all
    // without events and frozen; the processes, threads and GPUs made so far, then those the
    // foreseen lanes name, with their recorded names; GPUs by device id as complete() orders
    // them. Processes and threads only named (an export names every thread of the machine) are
    // left out. Copies names only, so it is cheap; the report it gives is never changed. Call it
    // between merges, never while a merge runs.
    std::shared_ptr<const Report> skeleton(const Metadata& meta, const std::vector<LaneKey>& foreseen = {}) const;
    // The thread-state and CPU core lanes complete() will make from the context switches read
    // so far, for skeleton(): one thread-state lane per thread switched, one core lane per core
    // a thread was switched in on. Sorted by (kind, owner). O(context switches).
    std::vector<LaneKey> schedLanes() const;

private:
    // NVTX ranges of the domain named "MPI" (how captures before 2023 record MPI calls) moved
    // to MPI lanes of their threads, as the 2025.3 export moves them to MPI_OTHER_EVENTS.
    void moveMpiDomainToMpiLanes();
    // The thread-state lanes (per thread) and CPU core lanes (per core) from sched_, which it
    // empties, and the switches' file order (Report::file_order.sched; importers/nsys/ThreadStates.cpp).
    void addThreadStates();
    // Adds a chunk's side tables, strings and NVTX rows to the report's, and says how its
    // lanes' ids map to the report's.
    ChunkIds resolveChunk(EventChunk& chunk);
    // Adds the chunks' runs of rows in file order to Report::file_order, counting each lane's
    // events from where they will be appended. Before the chunks' events are appended, once every
    // lane they name exists.
    void addFileOrder(const std::vector<EventChunk>& chunks);

    Report& report_;
    std::vector<uint32_t> stringIds_;                        // dense nsys ids
    std::unordered_map<int64_t, uint32_t> sparseStringIds_;  // ids beyond the dense range
    EntityRegistry entities_;  // processes by globalPid, threads by (globalPid, tid), GPUs by CUDA device id
    std::unordered_map<LaneKey, size_t, LaneKeyHash> lanes_;
    std::unordered_map<NvtxKey, uint32_t, NvtxKeyHash> nvtxIndex_;
    std::unordered_map<KernelConfig, uint32_t, KernelConfigHash> kernelConfigIndex_;
    // The NVTX events of equal start, in merge order, and the last NVTX event merged.
    std::vector<PendingNvtxTie> nvtxTies_;
    PendingNvtxTie lastNvtx_;
    bool anyNvtx_ = false, lastNvtxTied_ = false;
    std::vector<PendingDomain> domains_;  // in merge order, names resolved
    StackInterner stacks_;
    std::vector<PendingBacktrace> backtraces_;  // in merge order, stacks resolved
    std::vector<SchedRow> sched_;               // in table order
    std::vector<PendingResult> results_;
    std::vector<PendingSampleCounts> unusualSamples_;   // in merge order                // in merge order
    Column<int64_t> nvtxOtherStarts_;                   // in merge order
    std::vector<PendingCudaEvent> cudaEvents_;          // in merge order
    std::vector<PendingGraphApiEvent> graphApiEvents_;  // in merge order, names resolved
    std::vector<PendingNsysMessage> nsysMessages_;      // in merge order

    // The CUDA event records as instants of their streams, at the end of their cudaEventRecord.
    void addCudaEventRecords();
};

}  // namespace lanescope::nsys
