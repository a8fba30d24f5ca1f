#include "analysis/ranks/GpuShares.h"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/ranks/Collectives.h"

namespace lanescope {
namespace {

using Intervals = std::vector<std::pair<int64_t, int64_t>>;  // [start, end) in ns

// Sorts and merges overlapping or touching intervals: the result is disjoint and sorted.
Intervals unite(Intervals v) {
    std::sort(v.begin(), v.end());
    Intervals out;
    for (const auto& iv : v) {
        if (!out.empty() && iv.first <= out.back().second)
            out.back().second = std::max(out.back().second, iv.second);
        else
            out.push_back(iv);
    }
    return out;
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

GpuShares gpuShares(const Report& report) {
    struct PerGpu {
        Intervals compute, communication;
    };
    std::unordered_map<int32_t, PerGpu> gpus;
    std::unordered_map<uint32_t, bool> isNccl;  // by kernel name id
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::GpuStream) continue;
        PerGpu& gpu = gpus[lane.gpu];
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
            (nccl ? gpu.communication : gpu.compute).emplace_back(ev.start_ns[i], ev.end_ns[i]);
        }
    }
    GpuShares shares;
    for (auto& [index, gpu] : gpus) {
        const Intervals compute = unite(std::move(gpu.compute)), communication = unite(std::move(gpu.communication));
        if (compute.empty() && communication.empty()) continue;
        Intervals all = compute;
        all.insert(all.end(), communication.begin(), communication.end());
        all = unite(std::move(all));
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
