#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "importers/EntityRegistry.h"
#include "importers/StagingLane.h"
#include "importers/kineto/KinetoEvent.h"
#include "model/Report.h"

namespace lanescope::kineto {

// What a category becomes.
enum class Cat : uint8_t {
    CpuOp,
    Annotation,
    Python,
    CudaApi,
    Kernel,
    Memcpy,
    Memset,
    GpuAnnotation,
    Overhead,
    Sync,  // cuda_sync: a stream, event or context synchronization, or a stream's wait for an event
    Unknown
};

// Identity of a lane while importing: CPU lanes by (pid, tid, category), GPU lanes by
// (device, stream).
struct Key {
    LaneKind kind;
    uint8_t sub = 0;  // Cat of CPU NVTX-like lanes
    int64_t a = 0, b = 0;
    bool operator<(const Key& o) const { return std::tie(kind, sub, a, b) < std::tie(o.kind, o.sub, o.a, o.b); }
};

// A lane's events while importing, in file order.
struct Pending {
    StagingIntervals events;
    StagingInstants instants;
    int64_t context = -1;
};

struct ConfigHash {
    size_t operator()(const KernelConfig& c) const {
        uint64_t h = 0xCBF29CE484222325ull;
        for (uint64_t v : {uint64_t{c.grid[0]}, uint64_t{c.grid[1]}, uint64_t{c.grid[2]}, uint64_t{c.block[0]},
                           uint64_t{c.block[1]}, uint64_t{c.block[2]}, uint64_t{c.registers_per_thread},
                           uint64_t{c.static_shared_bytes}, uint64_t{c.short_name_id}, bitsOf(c.blocks_per_sm),
                           bitsOf(c.warps_per_sm), bitsOf(c.est_achieved_occupancy_pct)})
            h = (h ^ v) * 0x100000001B3ull;
        return h;
    }
    // Equal floats, equal bits: -0 hashes as 0.
    static uint64_t bitsOf(float f) { return std::bit_cast<uint32_t>(f == 0 ? 0.0f : f); }
};

// Builds the report from a trace's events, in file order: pairs B/E per thread, files each
// category into its lane (CPU ops, annotations, CUDA API, GPU streams...), and on finish()
// moves GPU work under its process and the timeline to its first event. Lanes are left for
// the finishing step every import shares (importers/FinishReport.h).
class Builder {
public:
    explicit Builder(Report& r) : r_(r), entities_(r) {}

    void add(Event& e);
    void finish();
    // A GPU's name from the trace's deviceProperties (report string id).
    void nameGpu(int64_t device, uint32_t nameId) { entities_.nameGpu(device, nameId); }

    uint64_t events = 0;

private:
    // The lane of a key, through a small cache of the lanes used lately (lanes_'s lookups).
    Pending& lane(const Key& k);
    // r_.strings.intern through a small cache of the texts interned lately: a repeated name
    // is compared once instead of hashed and looked up; the ids are the pool's.
    uint32_t intern(std::string_view text);
    void interval(const Key& k, int64_t start, int64_t end, uint32_t name, uint32_t payload, EventKind kind) {
        Pending& p = lane(k);
        p.events.append(start, end, name, payload, kind);
    }
    void complete(const Event& e, Cat c, int64_t start, int64_t end);
    // Report::pytorch_memory from memory_, on the timeline that starts at `origin`, and the
    // allocated and reserved counters of each device.
    void keepMemoryEvents(int64_t origin);
    uint32_t nvtxRow() {
        if (nvtxRow_ == UINT32_MAX) {
            nvtxRow_ = static_cast<uint32_t>(r_.nvtx.size());
            r_.nvtx.push_back(NvtxInfo{});
        }
        return nvtxRow_;
    }
    // The row of an operator with input shapes (a string id): one per distinct shapes.
    uint32_t shapesRow(uint32_t inputShapesId) {
        auto [it, inserted] = shapesRows_.try_emplace(inputShapesId, static_cast<uint32_t>(r_.nvtx.size()));
        if (inserted) {
            NvtxInfo info;
            info.input_shapes_id = inputShapesId;
            r_.nvtx.push_back(info);
        }
        return it->second;
    }
    // Appends a collective's args (on kernel row `kernelRow`, or CollectiveArgs::kNotOnKernel) to
    // Report::collective_args; returns its row.
    uint32_t collectiveArgsRow(const Event::Comms& comms, uint32_t kernelRow) {
        CollectiveArgs a;
        a.kernel_row = kernelRow;
        a.name_id = r_.strings.intern(comms.name);
        a.dtype_id = r_.strings.intern(comms.dtype);
        a.group_name_id = r_.strings.intern(comms.groupName);
        a.group_ranks_id = r_.strings.intern(comms.groupRanks);
        a.in_nelems = comms.inNelems;
        a.out_nelems = comms.outNelems;
        a.group_size = static_cast<int32_t>(std::clamp<int64_t>(comms.groupSize, -1, INT32_MAX));
        r_.collective_args.push_back(a);
        return static_cast<uint32_t>(r_.collective_args.size() - 1);
    }
    uint32_t startEndRow() {
        if (startEndRow_ == UINT32_MAX) {
            startEndRow_ = static_cast<uint32_t>(r_.nvtx.size());
            NvtxInfo info;
            info.start_end = true;
            r_.nvtx.push_back(info);
        }
        return startEndRow_;
    }
    int64_t idOf(std::string_view text, int64_t number) {
        if (text.empty()) return number;
        auto [it, inserted] =
            stringIds_.try_emplace(std::string(text), -1000000 - static_cast<int64_t>(stringIds_.size()));
        if (inserted) entities_.nameProcess(it->second, r_.strings.intern(text));
        return it->second;
    }
    int32_t process(int64_t pid) { return entities_.process(pid); }
    int32_t thread(int64_t pid, int64_t tid) { return entities_.thread(pid, tid); }
    int32_t gpu(int64_t device) { return entities_.gpu(device); }

    Report& r_;
    std::map<Key, Pending> lanes_;
    struct Open {
        int64_t ts;
        uint32_t name;
        Cat cat;
        std::string catText;
    };
    std::map<std::pair<int64_t, int64_t>, std::vector<Open>> stacks_;  // B/E per (pid, tid)
    std::unordered_map<std::string, int64_t> stringIds_;               // string pid/tid -> synthetic id
    EntityRegistry entities_;  // processes by pid, threads by (pid, tid), GPUs by device id
    std::unordered_map<int64_t, uint64_t> apiCallsOfPid_;
    std::map<std::tuple<int64_t, std::string, std::string>, size_t> counters_;
    std::vector<int64_t> counterPids_;  // parallel to Report::counters
    std::unordered_map<KernelConfig, uint32_t, ConfigHash> configs_;
    // The "[memory]" events in file order, until finish() knows their threads: ts as read (ns),
    // pid and tid keys.
    struct PendingMemory {
        int64_t ts, pid, tid;
        Event::Memory args;
    };
    std::vector<PendingMemory> memory_;
    uint32_t nvtxRow_ = UINT32_MAX, startEndRow_ = UINT32_MAX;
    std::unordered_map<uint32_t, uint32_t> shapesRows_;  // input shapes string id -> nvtx row
    static constexpr int kInternCacheBits = 12, kLaneCacheBits = 6;
    struct InternSlot {
        std::string_view text;  // the pool's copy
        uint32_t id = 0;
    };
    std::vector<InternSlot> internCache_ = std::vector<InternSlot>(size_t{1} << kInternCacheBits);
    struct LaneCacheSlot {
        Key key{};
        Pending* pending = nullptr;
    };
    std::vector<LaneCacheSlot> laneCache_ = std::vector<LaneCacheSlot>(size_t{1} << kLaneCacheBits);
};

}  // namespace lanescope::kineto
