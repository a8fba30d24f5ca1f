#include "model/FileOrder.h"

#include <algorithm>

#include "model/LaneFreezer.h"

namespace lanescope {
namespace {

template <typename Order, typename Visit>
void forEachList(Order& order, Visit&& visit) {
    visit(order.osrt);
    visit(order.cuda_api);
    visit(order.cpu_samples);
    visit(order.sched);
}

}  // namespace

size_t FileOrder::memoryBytes() const {
    size_t bytes = 0;
    forEachList(*this, [&](const Column<FileOrderRun>& runs) { bytes += runs.capacity() * sizeof(FileOrderRun); });
    return bytes;
}

void appendRun(Column<FileOrderRun>& runs, const FileOrderRun& run) {
    if (run.count == 0) return;
    if (!runs.empty()) {
        FileOrderRun& last = runs.back();
        if (last.lane == run.lane && last.instants == run.instants && last.first + last.count == run.first) {
            last.count += run.count;
            return;
        }
    }
    runs.push_back(run);
}

void renumberLanes(FileOrder& order, const std::vector<uint32_t>& newIndex) {
    forEachList(order, [&](Column<FileOrderRun>& runs) {
        for (FileOrderRun& run : runs) run.lane = newIndex[run.lane];
    });
}

std::vector<bool> lanesInFileOrder(const FileOrder& order, size_t lanes) {
    std::vector<bool> used(lanes);
    forEachList(order, [&](const Column<FileOrderRun>& runs) {
        for (const FileOrderRun& run : runs) used[run.lane] = true;
    });
    return used;
}

void toFrozenOrder(FileOrder& order, const std::vector<FrozenPositions>& positions) {
    forEachList(order, [&](Column<FileOrderRun>& runs) {
        const bool anyMoved = std::any_of(runs.begin(), runs.end(), [&](const FileOrderRun& run) {
            return !(run.instants ? positions[run.lane].instants : positions[run.lane].events).empty();
        });
        if (!anyMoved) {
            // Every lane of the list kept its order, so the runs stand. They are cut to size only
            // where the room past them is worth a copy: a report whose threads' calls alternate
            // has 18 M runs, and a copy held them twice at the import's peak.
            if (runs.capacity() - runs.size() > runs.size() / 8) runs.shrink_to_fit();
            return;
        }
        const uint32_t perEvent = &runs == &order.sched ? 2 : 1;  // rows an event makes
        Column<FileOrderRun> frozen;
        frozen.reserve(runs.size());
        for (const FileOrderRun& run : runs) {
            const FrozenPositions& moved = positions[run.lane];
            const std::vector<uint32_t>& at = run.instants ? moved.instants : moved.events;
            if (at.empty()) {
                appendRun(frozen, run);
                continue;
            }
            for (uint32_t i = run.first; i < run.first + run.count; ++i)
                appendRun(frozen, {run.lane, at[i / perEvent] * perEvent + i % perEvent, 1, run.instants});
        }
        frozen.shrink_to_fit();
        runs = std::move(frozen);
    });
}

}  // namespace lanescope
