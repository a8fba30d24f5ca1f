// The PyTorch "memory" view: per device peaks and counts, and each allocation with its free
// and the operator that made it.
#include "analysis/pytorch/MemoryView.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/Cancellation.h"

namespace lanescope {
namespace {

// No allocation row: an event that is a free.
constexpr uint32_t kNoRow = UINT32_MAX;

// The operators of one thread (its lane named kPytorchOperatorLaneName), walked forward in time:
// per depth, how many of its events start at or before the last time asked.
struct OperatorCursor {
    const Lane* lane = nullptr;
    std::vector<uint32_t> started;  // per depth

    // The innermost operator whose [start, end] holds `time` (the deepest depth with one; at
    // one depth events do not overlap, so only the last one started can); times asked must not
    // decrease. O(events of the lane) over all the calls.
    std::optional<uint32_t> innermostAt(int64_t time) {
        for (size_t d = lane->depth_count; d-- > 0;) {
            const DepthEvents events = lane->atDepth(d);
            uint32_t& n = started[d];
            while (n < events.size() && lane->events.start_ns[events.begin()[n]] <= time) ++n;
            if (n > 0 && lane->events.endNs(events.begin()[n - 1]) >= time) return events.begin()[n - 1];
        }
        return std::nullopt;
    }
};

// Per thread (index into Report::threads), a cursor over its operators; lane null where the
// thread has none.
std::vector<OperatorCursor> operatorCursors(const Report& report) {
    std::vector<OperatorCursor> cursors(report.threads.size());
    for (const Lane& lane : report.lanes)
        if (lane.kind == LaneKind::Nvtx && lane.thread >= 0 && static_cast<size_t>(lane.thread) < cursors.size() &&
            report.str(lane.name_id) == kPytorchOperatorLaneName)
            cursors[static_cast<size_t>(lane.thread)] = {&lane, std::vector<uint32_t>(lane.depth_count, 0)};
    return cursors;
}

// The open allocations of each block of memory (device, address), as a stack per block: an
// open-addressing table (linear probing, a power of two of slots, at most half full) from a
// block to the allocation row on top of its stack. One allocation, no node per block.
class OpenBlocks {
public:
    explicit OpenBlocks(size_t blocks) {
        size_t slots = 16;
        while (slots < 2 * blocks) slots *= 2;
        slots_.resize(slots);
    }
    // The slot of block (device, address): its own, or the empty one where it would go.
    uint32_t& topOf(uint32_t device, int64_t address) {
        const size_t mask = slots_.size() - 1;
        size_t at = (static_cast<uint64_t>(address) * 0x9E3779B97F4A7C15ull ^ device) >> 20 & mask;
        for (;; at = (at + 1) & mask) {
            Slot& slot = slots_[at];
            if (slot.top == kUnused) {
                slot = {address, device, kNoRow};
                return slot.top;
            }
            if (slot.address == address && slot.device == device) return slot.top;
        }
    }

private:
    static constexpr uint32_t kUnused = kNoRow - 1;  // a slot holding no block
    struct Slot {                                    // 16 bytes
        int64_t address = 0;
        uint32_t device = 0;
        uint32_t top = kUnused;  // allocation row on top of the block's stack; kNoRow: none open
    };
    std::vector<Slot> slots_;
};

std::string addressText(int64_t address) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%" PRIx64, static_cast<uint64_t>(address));
    return text;
}

}  // namespace

MemoryView pytorchMemory(const Report& report) {
    MemoryView view;
    const auto& events = report.pytorch_memory;
    if (events.empty()) {
        view.missing =
            "no memory events: the trace records none (a PyTorch trace has them when the profiler runs with "
            "profile_memory=True)";
        return view;
    }

    std::vector<OperatorCursor> operators = operatorCursors(report);
    std::map<std::pair<uint8_t, int16_t>, MemoryDevice> byDevice;                  // by (device type, id)
    std::vector<uint32_t> rowOf(events.size(), kNoRow);                            // per event, its allocation row
    std::pair<const std::pair<uint8_t, int16_t>, MemoryDevice>* device = nullptr;  // in byDevice (map: stable)
    for (size_t e = 0; e < events.size(); ++e) {
        if ((e & 0xFFFF) == 0xFFFF) cancellationPoint();
        const PytorchMemoryEvent& m = events[e];
        // The device of the event before, most often this one's too.
        if (!device || device->first != std::pair{m.device_type, m.device_id}) {
            auto [at, inserted] = byDevice.try_emplace({m.device_type, m.device_id});
            device = &*at;
            if (inserted) {
                MemoryDevice& d = at->second;
                d.device_type = m.device_type, d.device_id = m.device_id;
                d.peak_allocated = m.total_allocated, d.peak_allocated_ns = m.time_ns;
                d.peak_reserved = m.total_reserved, d.peak_reserved_ns = m.time_ns;
            }
        }
        MemoryDevice& d = device->second;
        if (m.total_allocated > d.peak_allocated) d.peak_allocated = m.total_allocated, d.peak_allocated_ns = m.time_ns;
        if (m.total_reserved > d.peak_reserved) d.peak_reserved = m.total_reserved, d.peak_reserved_ns = m.time_ns;
        if (m.bytes > 0) {
            ++d.allocations;
            rowOf[e] = static_cast<uint32_t>(view.allocations.size());
            MemoryAllocation& allocation = view.allocations.emplace_back();
            allocation.event = static_cast<uint32_t>(e);
            if (m.thread >= 0 && static_cast<size_t>(m.thread) < operators.size()) {
                OperatorCursor& cursor = operators[static_cast<size_t>(m.thread)];
                if (cursor.lane)
                    if (const std::optional<uint32_t> op = cursor.innermostAt(m.time_ns))
                        allocation.operator_id = cursor.lane->events.name_id[*op];
            }
        } else if (m.bytes < 0) {
            ++d.frees;
        }
    }
    // Each free closes the latest earlier allocation of its block still open (event order is
    // time order): per block a stack of open allocation rows, its top in `open`, each row's next
    // one down in `below`. O(n) expected.
    OpenBlocks open(view.allocations.size());
    std::vector<uint32_t> below(view.allocations.size(), kNoRow);
    for (size_t e = 0; e < events.size(); ++e) {
        const PytorchMemoryEvent& m = events[e];
        if (m.bytes == 0) continue;
        uint32_t& top = open.topOf(uint32_t{m.device_type} << 16 | static_cast<uint16_t>(m.device_id), m.address);
        if (m.bytes > 0) {
            below[rowOf[e]] = std::exchange(top, rowOf[e]);
        } else if (top != kNoRow) {  // none open: allocated before the trace began
            view.allocations[top].freed_ns = m.time_ns;
            top = below[top];
        }
    }
    for (const auto& [device, d] : byDevice) view.devices.push_back(d);
    return view;
}

StatsTable memoryDevicesTable(const MemoryView& view) {
    StatsTable table;
    table.name = "pytorch_memory_devices";
    table.header = {"Device",
                    "Peak Allocated (B)",
                    "Peak Allocated At (ns)",
                    "Peak Reserved (B)",
                    "Peak Reserved At (ns)",
                    "Allocations",
                    "Frees"};
    for (const MemoryDevice& d : view.devices)
        table.rows.push_back({pytorchDeviceLabel(d.device_type, d.device_id), d.peak_allocated, d.peak_allocated_ns,
                              d.peak_reserved, d.peak_reserved_ns, d.allocations, d.frees});
    return table;
}

StatsTable memoryAllocationsTable(const Report& report, const MemoryView& view, size_t maxRows) {
    StatsTable table;
    table.name = "pytorch_memory_allocations";
    table.header = {"Device", "Address", "Bytes", "Allocated At (ns)", "Freed At (ns)", "Lifetime (ns)", "Operator"};
    const size_t rows = std::min(view.allocations.size(), maxRows);
    table.rows.reserve(rows);
    for (size_t r = 0; r < rows; ++r) {
        const MemoryAllocation& a = view.allocations[r];
        const PytorchMemoryEvent& m = report.pytorch_memory[a.event];
        std::vector<StatsTable::Cell>& row = table.rows.emplace_back();
        row.reserve(7);
        row.emplace_back(pytorchDeviceLabel(m.device_type, m.device_id));
        row.emplace_back(addressText(m.address));
        row.emplace_back(m.bytes);
        row.emplace_back(m.time_ns);
        if (a.freed_ns >= 0) {
            row.emplace_back(a.freed_ns);
            row.emplace_back(a.freed_ns - m.time_ns);
        } else {
            row.emplace_back(std::string());
            row.emplace_back(std::string());
        }
        row.emplace_back(a.operator_id == kNoOperator ? std::string() : std::string(report.str(a.operator_id)));
    }
    return table;
}

}  // namespace lanescope
