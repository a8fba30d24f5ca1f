#include "model/Correlation.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <thread>

namespace lanescope {
namespace {

bool isGpuOp(EventKind kind) {
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset ||
           kind == EventKind::GraphExecution;
}

}  // namespace

std::optional<uint32_t> correlationIdOf(const Report& report, EventRef ref) {
    if (ref.lane >= report.lanes.size()) return std::nullopt;
    const IntervalColumns& ev = report.lanes[ref.lane].events;
    if (ref.index >= ev.size()) return std::nullopt;
    const uint32_t p = ev.payload[ref.index];
    switch (ev.kind[ref.index]) {
        case EventKind::CudaApiCall:
            if (p == kNoPayload) return std::nullopt;
            return p;
        case EventKind::Kernel:
            if (p >= report.kernels.size()) return std::nullopt;
            return report.kernels[p].correlation_id;
        case EventKind::Memcpy:
            if (p >= report.memcpys.size()) return std::nullopt;
            return report.memcpys[p].correlation_id;
        case EventKind::Memset:
            if (p >= report.memsets.size()) return std::nullopt;
            return report.memsets[p].correlation_id;
        case EventKind::Sync:
            if (p >= report.syncs.size()) return std::nullopt;
            return report.syncs[p].correlation_id;
        case EventKind::GraphExecution:
            if (p >= report.graph_executions.size()) return std::nullopt;
            return report.graph_executions[p].correlation_id;
        case EventKind::OsRuntimeCall:
        case EventKind::NvtxRange:
        case EventKind::ThreadState:
        case EventKind::CoreRun:
        case EventKind::MpiCall:
        case EventKind::OpenMpEvent:
        case EventKind::ProfilerOverhead:
        case EventKind::GpuPageFault:
            return std::nullopt;
    }
    return std::nullopt;
}

namespace {

// One lane's CUDA API calls (or GPU operations) with a correlation id in correlation order;
// nullopt when it has none. Copies in derived lanes are not indexed.
std::optional<CorrelationIndex::LaneOrder> orderOf(const Report& report, uint32_t li, bool calls) {
    const Lane& lane = report.lanes[li];
    if (holdsDerivedEvents(lane.kind)) return std::nullopt;  // copies of events indexed in their own lanes
    const IntervalColumns& ev = lane.events;
    auto idOf = [&](uint32_t i) -> uint32_t {
        const EventKind k = ev.kind[i];
        if (calls ? k != EventKind::CudaApiCall : !isGpuOp(k)) return 0;
        return correlationIdOf(report, {li, i}).value_or(0);
    };
    // How many there are, and whether their ids ascend.
    uint32_t count = 0, last = 0;
    bool ascending = true;
    for (uint32_t i = 0; i < ev.size(); ++i) {
        const uint32_t correlation = idOf(i);
        if (correlation == 0) continue;
        ascending = ascending && correlation >= last;
        last = correlation;
        ++count;
    }
    if (count == 0) return std::nullopt;
    CorrelationIndex::LaneOrder order{li, count, {}};
    if (!ascending || count != ev.size()) {
        // Only here a second pass gathers them: event indexes ascend already, so a stable sort
        // by id gives (id, index) order.
        order.order.reserve(count);
        for (uint32_t i = 0; i < ev.size(); ++i)
            if (idOf(i) != 0) order.order.push_back(i);
        std::stable_sort(order.order.begin(), order.order.end(),
                         [&](uint32_t a, uint32_t b) { return idOf(a) < idOf(b); });
    }
    return order;
}

}  // namespace

CorrelationIndex::CorrelationIndex(const Report& report, unsigned threads) : report_(&report) {
    // Each lane's two orders (calls, operations), lanes taken largest first by `threads`
    // threads, then put in their buckets in lane order.
    const size_t laneCount = report.lanes.size();
    std::vector<std::optional<LaneOrder>> calls(laneCount), ops(laneCount);
    std::vector<uint32_t> largestFirst(laneCount);
    std::iota(largestFirst.begin(), largestFirst.end(), 0u);
    std::sort(largestFirst.begin(), largestFirst.end(),
              [&](uint32_t a, uint32_t b) { return report.lanes[a].events.size() > report.lanes[b].events.size(); });
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t k = next++; k < laneCount; k = next++) {
            const uint32_t li = largestFirst[k];
            calls[li] = orderOf(report, li, true);
            ops[li] = orderOf(report, li, false);
        }
    };
    {
        std::vector<std::jthread> helpers;
        for (unsigned t = 1; t < std::min<size_t>(std::max(1u, threads), laneCount); ++t) helpers.emplace_back(work);
        work();
    }
    buckets_.resize(report.processes.size() + 1);
    for (uint32_t li = 0; li < laneCount; ++li) {
        Bucket& bucket = buckets_[bucketOf(report.lanes[li].process)];
        if (calls[li]) bucket.calls.push_back(std::move(*calls[li]));
        if (ops[li]) bucket.ops.push_back(std::move(*ops[li]));
    }
}

size_t CorrelationIndex::bucketOf(int32_t process) const {
    return process >= 0 && size_t(process) < report_->processes.size() ? size_t(process) : buckets_.size() - 1;
}

uint32_t CorrelationIndex::correlationAt(const LaneOrder& lane, size_t position) const {
    return correlationIdOf(*report_, {lane.lane, lane.eventAt(position)}).value_or(0);
}

size_t CorrelationIndex::lowerBoundFrom(const LaneOrder& lane, size_t hint, uint32_t correlation) const {
    const size_t n = lane.count;
    hint = std::min(hint, n);
    auto below = [&](size_t position) { return correlationAt(lane, position) < correlation; };
    // Bracket [lo, hi) around the answer by doubling steps from the hint, then bisect it.
    size_t lo = hint, hi = hint;
    if (hint < n && below(hint)) {
        size_t step = 1;
        lo = hint + 1;
        hi = hint + 1;
        while (hi < n && below(hi)) {
            lo = hi + 1;
            hi = std::min(n, hi + step);
            step *= 2;
        }
    } else {
        size_t step = 1;
        while (lo > 0 && !below(lo - 1)) {
            hi = lo - 1;
            lo = lo > step ? lo - step : 0;
            step *= 2;
        }
    }
    hi = std::min(n, std::max(hi, lo));
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (below(mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

std::optional<std::pair<size_t, uint32_t>> CorrelationIndex::callKey(EventRef apiCall) const {
    if (apiCall.lane >= report_->lanes.size()) return std::nullopt;
    const Lane& lane = report_->lanes[apiCall.lane];
    if (apiCall.index >= lane.events.size() || lane.events.kind[apiCall.index] != EventKind::CudaApiCall)
        return std::nullopt;
    const std::optional<uint32_t> correlation = correlationIdOf(*report_, apiCall);
    if (!correlation || *correlation == 0) return std::nullopt;
    return std::pair(bucketOf(lane.process), *correlation);
}

std::optional<EventRef> CorrelationIndex::launcherOf(EventRef gpuOp) const {
    if (gpuOp.lane >= report_->lanes.size()) return std::nullopt;
    const Lane& lane = report_->lanes[gpuOp.lane];
    if (gpuOp.index >= lane.events.size() || !isGpuOp(lane.events.kind[gpuOp.index])) return std::nullopt;
    const std::optional<uint32_t> correlation = correlationIdOf(*report_, gpuOp);
    if (!correlation || *correlation == 0) return std::nullopt;
    // The calls' lanes are in lane order, and each lane's calls of one id in index order.
    for (const LaneOrder& calls : buckets_[bucketOf(lane.process)].calls) {
        const size_t at = lowerBoundFrom(calls, 0, *correlation);
        if (at < calls.count && correlationAt(calls, at) == *correlation)
            return EventRef{calls.lane, calls.eventAt(at)};
    }
    return std::nullopt;
}

std::vector<EventRef> CorrelationIndex::launchedBy(EventRef apiCall) const {
    std::vector<EventRef> out;
    Cursor cursor;
    forEachLaunched(apiCall, cursor, [&](EventRef op) { out.push_back(op); });
    return out;
}

size_t CorrelationIndex::apiCallCount() const {
    size_t n = 0;
    for (const Bucket& b : buckets_)
        for (const LaneOrder& l : b.calls) n += l.count;
    return n;
}

size_t CorrelationIndex::gpuOpCount() const {
    size_t n = 0;
    for (const Bucket& b : buckets_)
        for (const LaneOrder& l : b.ops) n += l.count;
    return n;
}

size_t CorrelationIndex::memoryBytes() const {
    size_t bytes = sizeof(*this) + buckets_.capacity() * sizeof(Bucket);
    for (const Bucket& b : buckets_)
        for (const std::vector<LaneOrder>* lanes : {&b.calls, &b.ops}) {
            bytes += lanes->capacity() * sizeof(LaneOrder);
            for (const LaneOrder& l : *lanes) bytes += l.order.capacity() * sizeof(uint32_t);
        }
    return bytes;
}

const CorrelationIndex& correlationIndex(const Report& report, unsigned threads) {
    return report.derived.get<CorrelationIndex>([&] { return CorrelationIndex(report, threads); });
}

}  // namespace lanescope
