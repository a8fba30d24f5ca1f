#pragma once
#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>
#include <vector>

#include "model/Column.h"

namespace lanescope {

// What one row of the timeline shows.
enum class LaneKind : uint8_t {
    OsRuntime,          // one CPU thread's OS runtime library calls; instants: where tracing
                        // started (payload 31) or stopped (32), kNoPayload if unknown
    CudaApi,            // one CPU thread's CUDA runtime/driver API calls
    Nvtx,               // one CPU thread's NVTX push/pop ranges (nested by depth) and markers
    NvtxStartEnd,       // NVTX start/end ranges started on one CPU thread (may overlap freely)
    GpuStream,          // one CUDA stream of one GPU: its kernels, or its memcpy and memset (isKernelLane)
    CudaSync,           // one stream's synchronization events (CUPTI synchronization activity)
    Nccl,               // one GPU's NCCL collectives: NVTX NCCL ranges and nccl* kernels (copies)
    NvtxGpuProjection,  // one process's NVTX ranges projected onto one GPU (derived, see NvtxProjection.h)
    CpuSamples,         // one CPU thread's instruction-pointer samples: instants, payload = stack id
    ThreadState,        // one CPU thread's scheduling: running / blocked / preempted intervals
    CpuCore,            // one CPU core: which thread ran on it when (Lane::cpu)
    Mpi,                // one CPU thread's MPI calls
    OpenMp,             // one CPU thread's OpenMP regions, tasks, barriers and locks (nested by depth)
    ProfilerOverhead,   // one CPU thread's time spent in the profiler itself (nsys PROFILER_OVERHEAD)
    UnifiedMemory,      // one GPU's unified-memory page faults (intervals, payload: row of Report::gpu_page_faults)
    UmCpuPageFaults,    // one process's unified-memory CPU page faults (instants, payload: row of
                        // Report::cpu_page_faults)
};

// The name of a thread's Nvtx lane that holds PyTorch operators (`cpu_op` events, `Operator` in
// older traces) in a Kineto import, apart from its annotations and Python functions.
inline constexpr std::string_view kPytorchOperatorLaneName = "CPU ops";
// The name of a thread's Nvtx lane that holds its Python frames and nn.Module calls
// (`python_function` events) in a Kineto import.
inline constexpr std::string_view kPytorchPythonLaneName = "Python";

// Lanes whose events are copies or projections of events kept in other lanes: counts,
// statistics, find and correlation skip them so nothing is counted twice.
inline bool holdsDerivedEvents(LaneKind kind) { return kind == LaneKind::Nccl || kind == LaneKind::NvtxGpuProjection; }
// Lanes of a GPU (streams, sync, NCCL, NVTX projected on it, page faults) rather than of a CPU thread.
inline bool holdsGpuWork(LaneKind kind) {
    return kind == LaneKind::GpuStream || kind == LaneKind::CudaSync || kind == LaneKind::UnifiedMemory ||
           holdsDerivedEvents(kind);
}
std::string_view laneKindName(LaneKind kind);

// What one interval event is; tells which side table its payload indexes.
enum class EventKind : uint8_t {
    OsRuntimeCall,     // payload: kNoPayload
    CudaApiCall,       // payload: CUDA correlation id
    NvtxRange,         // payload: row of Report::nvtx
    Kernel,            // payload: row of Report::kernels
    Memcpy,            // payload: row of Report::memcpys
    Memset,            // payload: row of Report::memsets
    Sync,              // payload: row of Report::syncs
    ThreadState,       // payload: threadStatePayload(state, cpu)
    CoreRun,           // a thread running on a core; payload: index into Report::threads
    MpiCall,           // payload: kNoPayload
    OpenMpEvent,       // an OpenMP region, task, barrier or lock wait by its name; payload: kNoPayload
    GraphExecution,    // one launch of a CUDA graph traced as a whole; payload: row of Report::graph_executions
    ProfilerOverhead,  // the profiler busy on a thread; payload: kNoPayload
    GpuPageFault,      // a group of unified-memory GPU page faults; payload: row of Report::gpu_page_faults
};
inline constexpr uint32_t kNoPayload = UINT32_MAX;

// What a thread did between two scheduling events. Running: on a core. Blocked: waiting for
// something (an interruptible or uninterruptible sleep, or switched out inside an OS runtime
// call). Preempted: runnable but switched out. Unknown: the report does not say.
enum class ThreadRunState : uint8_t { Running, Blocked, Preempted, Unknown };
// A ThreadState event's payload, in bits: 0-3 the state; 4-7 the thread state Nsight Systems
// recorded with the context switch that begins the interval (ENUM_SAMPLING_THREAD_STATE) plus
// one, 0 when none was recorded; 8-11 the same for the switch-out that ends a running interval;
// 12-31 the core (the core it ran on, or the one it left), at most kThreadStateMaxCpu.
inline constexpr uint32_t kThreadStateMaxCpu = (1u << 20) - 1;
inline uint32_t recordedSwitchBits(int32_t recorded) {
    return recorded >= 0 && recorded < 15 ? uint32_t(recorded) + 1 : 0;
}
inline uint32_t threadStatePayload(ThreadRunState state, uint32_t cpu, int32_t recordedAtStart = -1,
                                   int32_t recordedAtEnd = -1) {
    return (std::min(cpu, kThreadStateMaxCpu) << 12) | (recordedSwitchBits(recordedAtEnd) << 8) |
           (recordedSwitchBits(recordedAtStart) << 4) | static_cast<uint32_t>(state);
}
inline ThreadRunState threadStateOf(uint32_t payload) { return static_cast<ThreadRunState>(payload & 0xF); }
inline uint32_t threadStateCpu(uint32_t payload) { return payload >> 12; }
// The recorded state of the switch that begins the interval, of the switch-out that ends a
// running one; nullopt when not recorded (formats other than Nsight Systems').
inline std::optional<int32_t> recordedStateAtStart(uint32_t payload) {
    const uint32_t bits = (payload >> 4) & 0xF;
    return bits ? std::optional<int32_t>(int32_t(bits) - 1) : std::nullopt;
}
inline std::optional<int32_t> recordedStateAtEnd(uint32_t payload) {
    const uint32_t bits = (payload >> 8) & 0xF;
    return bits ? std::optional<int32_t>(int32_t(bits) - 1) : std::nullopt;
}
std::string_view threadRunStateName(ThreadRunState state);

// An event lasting kLongDuration ns or more: its duration, which IntervalColumns::duration_ns
// cannot hold.
struct LongDuration {
    uint32_t index = 0;       // the event's index in its IntervalColumns
    int64_t duration_ns = 0;  // >= kLongDuration
};
inline constexpr uint32_t kLongDuration = UINT32_MAX;  // 4.29 s

// Adds the duration of the next event to a duration column (IntervalColumns::duration_ns, or
// an importer's staging column of them) and, when it is kLongDuration or more, to its long
// durations.
template <typename DurationColumn>
void pushDuration(DurationColumn& durations, std::vector<LongDuration>& longs, int64_t duration) {
    if (duration < int64_t{kLongDuration}) {
        durations.push_back(uint32_t(duration));
    } else {
        longs.push_back({uint32_t(durations.size()), duration});
        durations.push_back(kLongDuration);
    }
}

// Interval events of one lane as parallel columns (struct of arrays), 22 bytes an event.
// Sorted by start_ns ascending, then by duration descending, so a parent precedes its
// children. Events at the same depth never overlap, so within one depth the ends are sorted
// too. Times are integer nanoseconds on the report's own timeline (nsys: since session
// start). An event's end is start_ns + its duration, never before its start. Frozen after
// import.
struct IntervalColumns {
    Column<int64_t> start_ns;
    // The duration in ns, or kLongDuration for an event of 4.29 s or more, whose duration is in
    // long_durations (sorted by index, one entry for each such event). Events are added with
    // append(), which keeps the two together.
    Column<uint32_t> duration_ns;
    std::vector<LongDuration> long_durations;
    Column<uint32_t> name_id;  // into Report::strings
    Column<uint32_t> payload;  // meaning depends on kind, see EventKind
    Column<EventKind> kind;
    Column<uint8_t> depth;  // 0 = outermost

    size_t size() const { return start_ns.size(); }
    size_t memoryBytes() const;
    int64_t durationNs(size_t i) const {
        const uint32_t d = duration_ns[i];
        return d != kLongDuration ? int64_t{d} : longDurationOf(i);
    }
    int64_t endNs(size_t i) const { return start_ns[i] + durationNs(i); }
    // Adds an event at the end (end >= start).
    void append(int64_t start, int64_t end, uint32_t name, uint32_t payload, EventKind kind);
    // Moves every event of `other` to the end of these columns.
    void appendAll(IntervalColumns&& other);
    // Room for `events` events in every column but long_durations, so that appending that
    // many allocates each column once, at its final size.
    void reserve(size_t events);

private:
    int64_t longDurationOf(size_t i) const;
};

// Zero-duration events of one lane, sorted by time_ns ascending. Their payload by lane kind:
// NVTX markers (Nvtx) a row of Report::nvtx; CPU samples a stack id; CUDA event records
// (GpuStream) a row of Report::cuda_events; CPU page faults (UmCpuPageFaults) a row of
// Report::cpu_page_faults; else kNoPayload.
struct InstantColumns {
    Column<int64_t> time_ns;
    Column<uint32_t> name_id;  // into Report::strings
    Column<uint32_t> payload;  // see above

    size_t size() const { return time_ns.size(); }
    size_t memoryBytes() const;
};

// The events at one depth of a frozen lane, in start order and so also in end order: a view
// of event indexes. In a lane with several depths they are Lane::depth_order[first .. first +
// count); a lane with one depth keeps no depth_order (4 bytes an event less) and they are the
// indexes first .. first + count themselves.
class DepthEvents {
public:
    class Iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = uint32_t;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = uint32_t;
        Iterator() = default;
        Iterator(const uint32_t* order, uint32_t position) : order_(order), position_(position) {}
        uint32_t operator*() const { return order_ ? order_[position_] : position_; }
        uint32_t operator[](difference_type k) const { return *(*this + k); }
        Iterator& operator++() { return ++position_, *this; }
        Iterator& operator--() { return --position_, *this; }
        Iterator operator++(int) { return Iterator(order_, position_++); }
        Iterator operator--(int) { return Iterator(order_, position_--); }
        Iterator& operator+=(difference_type k) { return position_ = uint32_t(position_ + k), *this; }
        Iterator& operator-=(difference_type k) { return position_ = uint32_t(position_ - k), *this; }
        friend Iterator operator+(Iterator it, difference_type k) { return it += k; }
        friend Iterator operator+(difference_type k, Iterator it) { return it += k; }
        friend Iterator operator-(Iterator it, difference_type k) { return it -= k; }
        friend difference_type operator-(Iterator a, Iterator b) {
            return difference_type(a.position_) - difference_type(b.position_);
        }
        friend bool operator==(Iterator a, Iterator b) { return a.position_ == b.position_; }
        friend auto operator<=>(Iterator a, Iterator b) { return a.position_ <=> b.position_; }

    private:
        const uint32_t* order_ = nullptr;  // null: the position is the event index
        uint32_t position_ = 0;
    };

    DepthEvents() = default;
    DepthEvents(Iterator first, Iterator last) : first_(first), last_(last) {}
    Iterator begin() const { return first_; }
    Iterator end() const { return last_; }
    size_t size() const { return size_t(last_ - first_); }
    bool empty() const { return first_ == last_; }

private:
    Iterator first_, last_;
};

// One timeline row. Owners are indexes into the Report's tables; -1 when not applicable.
struct Lane {
    LaneKind kind = LaneKind::OsRuntime;
    uint32_t name_id = 0;     // display name, into Report::strings
    int32_t process = -1;     // index into Report::processes
    int32_t thread = -1;      // index into Report::threads (CPU lanes)
    int32_t gpu = -1;         // index into Report::gpus (GPU lanes)
    int64_t stream_id = -1;   // CUDA stream id (GpuStream, CudaSync)
    int64_t context_id = -1;  // CUDA context id (GpuStream, CudaSync)
    int32_t cpu = -1;         // CPU core number (CpuCore)
    // The GPU the report's rows name, index into Report::gpus, where it is not `gpu`; -1 when it
    // is. nsys writes device 0 in every synchronization row (CUPTI's record names no device),
    // whatever GPU the context ran on: such a CudaSync lane is on its context's GPU and keeps the
    // recorded one here, which the SQL tables write back.
    int32_t recorded_gpu = -1;
    uint8_t depth_count = 0;  // number of depths used, max depth + 1
    IntervalColumns events;
    // Events grouped by depth (the depth-grouped order): the events at depth d are at
    // positions depth_begin[d] .. depth_begin[d + 1] of it, in start order and so also in end
    // order (events at one depth never overlap). depth_begin has depth_count + 1 entries once
    // frozen. depth_order[position] is the event there; it is empty when the lane has at most
    // one depth, where position and event index are the same.
    Column<uint32_t> depth_order;
    Column<uint32_t> depth_begin;
    InstantColumns instants;

    // This lane's row without its events: kind, name and owners, as the row skeletons a window
    // shows while a report loads hold it.
    Lane rowOnly() const {
        Lane row;
        row.kind = kind;
        row.name_id = name_id;
        row.process = process;
        row.thread = thread;
        row.gpu = gpu;
        row.stream_id = stream_id;
        row.context_id = context_id;
        row.cpu = cpu;
        row.recorded_gpu = recorded_gpu;
        return row;
    }
    // The queries every reader of a frozen lane needs (empty before it is frozen).
    bool isFrozen() const { return depth_begin.size() == size_t{depth_count} + 1; }
    // The event at a position of the depth-grouped order.
    uint32_t eventAtPosition(uint32_t position) const { return depth_order.empty() ? position : depth_order[position]; }
    // The events at depth d, in start order and so also in end order.
    DepthEvents atDepth(size_t d) const {
        if (d + 1 >= depth_begin.size()) return {};
        const uint32_t* order = depth_order.empty() ? nullptr : depth_order.data();
        return {DepthEvents::Iterator(order, depth_begin[d]), DepthEvents::Iterator(order, depth_begin[d + 1])};
    }
    // The events at depth d that overlap [begin_ns, end_ns): end > begin_ns and start < end_ns.
    DepthEvents overlapping(size_t d, int64_t begin_ns, int64_t end_ns) const {
        const DepthEvents all = atDepth(d);
        const auto first =
            std::partition_point(all.begin(), all.end(), [&](uint32_t i) { return events.endNs(i) <= begin_ns; });
        const auto last =
            std::partition_point(first, all.end(), [&](uint32_t i) { return events.start_ns[i] < end_ns; });
        return {first, last};
    }
    // The event at depth d with start <= t < end, if any.
    std::optional<uint32_t> eventAt(size_t d, int64_t t) const {
        const DepthEvents all = atDepth(d);
        const auto after =
            std::partition_point(all.begin(), all.end(), [&](uint32_t i) { return events.start_ns[i] <= t; });
        if (after == all.begin() || events.endNs(*(after - 1)) <= t) return std::nullopt;
        return *(after - 1);
    }
};

// Whether a lane holds one stream's kernels. Importers put a stream's kernels and its memory
// operations in two GpuStream lanes of the same owners (importers/KernelLanes.h), so a GpuStream
// lane whose first event is a kernel holds kernels only.
inline bool isKernelLane(const Lane& lane) {
    return lane.kind == LaneKind::GpuStream && lane.events.size() > 0 && lane.events.kind[0] == EventKind::Kernel;
}

}  // namespace lanescope
