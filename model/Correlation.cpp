#include "model/Correlation.h"

#include <algorithm>
#include <tuple>

namespace lanescope {
namespace {

using Entry = CorrelationIndex::Entry;

bool less(const Entry& a, const Entry& b) {
    return std::tie(a.correlation, a.event) < std::tie(b.correlation, b.event);
}

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

CorrelationIndex::CorrelationIndex(const Report& report) : report_(&report) {
    // Event ids lane after lane; the lanes whose ids would pass 2^32 are left out.
    first_event_.reserve(report.lanes.size() + 1);
    uint64_t total = 0;
    for (const Lane& lane : report.lanes) {
        first_event_.push_back(total);
        total += lane.events.size();
    }
    first_event_.push_back(total);

    const size_t buckets = report.processes.size() + 1;  // the last: lanes of no process
    auto bucketOf = [&](int32_t process) {
        return process >= 0 && size_t(process) < report.processes.size() ? size_t(process) : buckets - 1;
    };
    std::vector<size_t> callCount(buckets, 0), opCount(buckets, 0);
    for (const Lane& lane : report.lanes) {
        if (holdsDerivedEvents(lane.kind)) continue;
        for (EventKind k : lane.events.kind) {
            callCount[bucketOf(lane.process)] += k == EventKind::CudaApiCall;
            opCount[bucketOf(lane.process)] += isGpuOp(k);
        }
    }
    calls_.resize(buckets);
    ops_.resize(buckets);
    for (size_t b = 0; b < buckets; ++b) {
        calls_[b].reserve(callCount[b]);
        ops_[b].reserve(opCount[b]);
    }
    for (size_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (holdsDerivedEvents(lane.kind)) continue;  // copies of events indexed in their own lanes
        if (first_event_[li + 1] > UINT32_MAX) break;
        const size_t bucket = bucketOf(lane.process);
        for (size_t i = 0; i < lane.events.size(); ++i) {
            const EventKind k = lane.events.kind[i];
            if (k != EventKind::CudaApiCall && !isGpuOp(k)) continue;
            const EventRef ref{static_cast<uint32_t>(li), static_cast<uint32_t>(i)};
            const std::optional<uint32_t> correlation = correlationIdOf(report, ref);
            if (!correlation || *correlation == 0) continue;
            const Entry e{*correlation, static_cast<uint32_t>(first_event_[li] + i)};
            (k == EventKind::CudaApiCall ? calls_ : ops_)[bucket].push_back(e);
        }
    }
    // Event ids ascend as lanes and events are visited, so each bucket is already in event
    // order: a stable sort by correlation would do; a full sort keeps the order explicit.
    for (size_t b = 0; b < buckets; ++b) {
        std::sort(calls_[b].begin(), calls_[b].end(), less);
        std::sort(ops_[b].begin(), ops_[b].end(), less);
    }
}

size_t CorrelationIndex::count(const Buckets& buckets) {
    size_t n = 0;
    for (const auto& b : buckets) n += b.size();
    return n;
}

size_t CorrelationIndex::lowerBoundFrom(const std::vector<Entry>& entries, size_t hint, uint32_t correlation) {
    const size_t n = entries.size();
    hint = std::min(hint, n);
    // Bracket [lo, hi) around the answer by doubling steps from the hint, then bisect it.
    size_t lo = hint, hi = hint;
    if (hint < n && entries[hint].correlation < correlation) {
        size_t step = 1;
        lo = hint + 1;
        hi = hint + 1;
        while (hi < n && entries[hi].correlation < correlation) {
            lo = hi + 1;
            hi = std::min(n, hi + step);
            step *= 2;
        }
    } else {
        size_t step = 1;
        while (lo > 0 && entries[lo - 1].correlation >= correlation) {
            hi = lo - 1;
            lo = lo > step ? lo - step : 0;
            step *= 2;
        }
    }
    hi = std::min(n, std::max(hi, lo));
    return size_t(std::partition_point(entries.begin() + std::ptrdiff_t(lo), entries.begin() + std::ptrdiff_t(hi),
                                       [&](const Entry& e) { return e.correlation < correlation; }) -
                  entries.begin());
}

std::optional<std::pair<size_t, uint32_t>> CorrelationIndex::callKey(EventRef apiCall) const {
    if (apiCall.lane >= report_->lanes.size()) return std::nullopt;
    const Lane& lane = report_->lanes[apiCall.lane];
    if (apiCall.index >= lane.events.size() || lane.events.kind[apiCall.index] != EventKind::CudaApiCall)
        return std::nullopt;
    const std::optional<uint32_t> correlation = correlationIdOf(*report_, apiCall);
    if (!correlation || *correlation == 0) return std::nullopt;
    const size_t bucket =
        lane.process >= 0 && size_t(lane.process) < report_->processes.size() ? size_t(lane.process) : ops_.size() - 1;
    return std::pair(bucket, *correlation);
}

EventRef CorrelationIndex::refOf(uint32_t event) const {
    // The lane holding the event: the last whose first event id is at or before it.
    const auto lane =
        std::upper_bound(first_event_.begin(), first_event_.end(), uint64_t{event}) - first_event_.begin() - 1;
    return {static_cast<uint32_t>(lane), static_cast<uint32_t>(event - first_event_[size_t(lane)])};
}

std::vector<EventRef> CorrelationIndex::find(const Buckets& buckets, int32_t process, uint32_t correlation) const {
    std::vector<EventRef> out;
    const size_t bucket =
        process >= 0 && size_t(process) < report_->processes.size() ? size_t(process) : buckets.size() - 1;
    const std::vector<Entry>& entries = buckets[bucket];
    auto first = std::partition_point(entries.begin(), entries.end(),
                                      [&](const Entry& e) { return e.correlation < correlation; });
    for (auto it = first; it != entries.end() && it->correlation == correlation; ++it) out.push_back(refOf(it->event));
    return out;
}

std::optional<EventRef> CorrelationIndex::launcherOf(EventRef gpuOp) const {
    if (gpuOp.lane >= report_->lanes.size()) return std::nullopt;
    const Lane& lane = report_->lanes[gpuOp.lane];
    if (gpuOp.index >= lane.events.size() || !isGpuOp(lane.events.kind[gpuOp.index])) return std::nullopt;
    const std::optional<uint32_t> correlation = correlationIdOf(*report_, gpuOp);
    if (!correlation || *correlation == 0) return std::nullopt;
    const std::vector<EventRef> calls = find(calls_, lane.process, *correlation);
    if (calls.empty()) return std::nullopt;
    return calls.front();
}

std::vector<EventRef> CorrelationIndex::launchedBy(EventRef apiCall) const {
    std::vector<EventRef> out;
    Cursor cursor;
    forEachLaunched(apiCall, cursor, [&](EventRef op) { out.push_back(op); });
    return out;
}

size_t CorrelationIndex::memoryBytes() const {
    size_t bytes = sizeof(*this) + first_event_.capacity() * sizeof(uint64_t);
    for (const Buckets* buckets : {&calls_, &ops_}) {
        bytes += buckets->capacity() * sizeof(std::vector<Entry>);
        for (const auto& b : *buckets) bytes += b.capacity() * sizeof(Entry);
    }
    return bytes;
}

const CorrelationIndex& correlationIndex(const Report& report) {
    return report.derived.get<CorrelationIndex>([&] { return CorrelationIndex(report); });
}

}  // namespace lanescope
