#include "analysis/ranks/GpuShares.h"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/ranks/Collectives.h"

namespace lanescope {
namespace {

using Intervals = std::vector<std::pair<int64_t, int64_t>>;  // [start, end) in ns

// Adds [start, end) to a disjoint list sorted by start, where start is not before the last
// interval's start: merged with the last one when they overlap or touch.
void extend(Intervals& united, int64_t start, int64_t end) {
    if (!united.empty() && start <= united.back().second)
        united.back().second = std::max(united.back().second, end);
    else
        united.emplace_back(start, end);
}

// Merges overlapping or touching intervals: the result is disjoint and sorted. Linear when `v`
// is sorted by start already (a lane's events are), else a sort first.
Intervals unite(Intervals v) {
    if (!std::is_sorted(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; }))
        std::sort(v.begin(), v.end());
    Intervals out;
    for (const auto& [s, e] : v) extend(out, s, e);
    return out;
}

// The union of two disjoint sorted lists, in one merge.
Intervals unite(const Intervals& a, const Intervals& b) {
    Intervals out;
    out.reserve(a.size() + b.size());
    size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const auto& next = j == b.size() || (i < a.size() && a[i].first <= b[j].first) ? a[i++] : b[j++];
        extend(out, next.first, next.second);
    }
    return out;
}

// The union of several disjoint sorted lists, merged in pairs: O(n log lists).
Intervals uniteAll(std::vector<Intervals> lists) {
    if (lists.empty()) return {};
    while (lists.size() > 1) {
        std::vector<Intervals> merged;
        for (size_t k = 0; k + 1 < lists.size(); k += 2) merged.push_back(unite(lists[k], lists[k + 1]));
        if (lists.size() % 2) merged.push_back(std::move(lists.back()));
        lists = std::move(merged);
    }
    return std::move(lists.front());
}

int64_t length(const Intervals& disjoint) {
    int64_t total = 0;
    for (const auto& [s, e] : disjoint) total += e - s;
    return total;
}

// Length of the intersection of two disjoint sorted interval lists.
int64_t overlap(const Intervals& a, const Intervals& b) {
    int64_t total = 0;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const int64_t s = std::max(a[i].first, b[j].first), e = std::min(a[i].second, b[j].second);
        if (e > s) total += e - s;
        (a[i].second < b[j].second) ? ++i : ++j;
    }
    return total;
}

}  // namespace

GpuShares gpuShares(const Report& report, int32_t process) {
    struct PerGpu {
        std::vector<Intervals> compute, communication;  // per stream, each united
    };
    std::unordered_map<int32_t, PerGpu> gpus;
    std::unordered_map<uint32_t, bool> isNccl;  // by kernel name id
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::GpuStream || (process >= 0 && lane.process != process)) continue;
        Intervals compute, communication;
        const IntervalColumns& ev = lane.events;
        for (size_t i = 0; i < ev.size(); ++i) {
            bool nccl = false;
            if (ev.kind[i] == EventKind::Kernel) {
                auto known = isNccl.find(ev.name_id[i]);
                if (known == isNccl.end())
                    known = isNccl.emplace(ev.name_id[i], !collectiveKind(report.str(ev.name_id[i])).empty()).first;
                nccl = known->second;
            } else if (ev.kind[i] != EventKind::Memcpy && ev.kind[i] != EventKind::Memset) {
                continue;
            }
            (nccl ? communication : compute).emplace_back(ev.start_ns[i], ev.endNs(i));
        }
        PerGpu& gpu = gpus[lane.gpu];
        gpu.compute.push_back(unite(std::move(compute)));
        gpu.communication.push_back(unite(std::move(communication)));
    }
    GpuShares shares;
    for (auto& [index, gpu] : gpus) {
        const Intervals compute = uniteAll(std::move(gpu.compute)),
                        communication = uniteAll(std::move(gpu.communication));
        if (compute.empty() && communication.empty()) continue;
        const Intervals all = unite(compute, communication);
        const int64_t window = all.back().second - all.front().first;
        shares.window_ns += window;
        shares.compute_ns += length(compute);
        shares.communication_ns += length(communication);
        shares.overlap_ns += overlap(compute, communication);
        shares.idle_ns += window - length(all);
    }
    return shares;
}

}  // namespace lanescope
