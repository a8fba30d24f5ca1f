#include "model/Correlation.h"

#include <algorithm>
#include <tuple>

namespace lanescope {
namespace {

using Entry = CorrelationIndex::Entry;

bool less(const Entry& a, const Entry& b) {
    return std::tie(a.process, a.correlation, a.lane, a.index) < std::tie(b.process, b.correlation, b.lane, b.index);
}

bool isGpuOp(EventKind kind) {
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset ||
           kind == EventKind::GraphExecution;
}

// The entries of `entries` with this process and correlation id.
std::pair<std::vector<Entry>::const_iterator, std::vector<Entry>::const_iterator> range(
    const std::vector<Entry>& entries, uint32_t process, uint32_t correlation) {
    auto key = [](const Entry& e) { return std::pair(e.process, e.correlation); };
    const auto wanted = std::pair(process, correlation);
    auto first = std::partition_point(entries.begin(), entries.end(), [&](const Entry& e) { return key(e) < wanted; });
    auto last = std::partition_point(first, entries.end(), [&](const Entry& e) { return key(e) == wanted; });
    return {first, last};
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
    size_t calls = 0, ops = 0;
    for (const Lane& lane : report.lanes) {
        if (holdsDerivedEvents(lane.kind)) continue;
        for (EventKind k : lane.events.kind) {
            calls += k == EventKind::CudaApiCall;
            ops += isGpuOp(k);
        }
    }
    calls_.reserve(calls);
    ops_.reserve(ops);
    for (size_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (holdsDerivedEvents(lane.kind)) continue;  // copies of events indexed in their own lanes
        const auto process = static_cast<uint32_t>(lane.process);
        for (size_t i = 0; i < lane.events.size(); ++i) {
            const EventKind k = lane.events.kind[i];
            if (k != EventKind::CudaApiCall && !isGpuOp(k)) continue;
            const EventRef ref{static_cast<uint32_t>(li), static_cast<uint32_t>(i)};
            const std::optional<uint32_t> correlation = correlationIdOf(report, ref);
            if (!correlation || *correlation == 0) continue;
            const Entry e{process, *correlation, ref.lane, ref.index};
            (k == EventKind::CudaApiCall ? calls_ : ops_).push_back(e);
        }
    }
    // Lanes are visited in order and events in order within a lane, so (lane, index) is
    // already ascending: a stable sort by (process, correlation) would do, but a full sort
    // keeps the invariant explicit and costs the same.
    std::sort(calls_.begin(), calls_.end(), less);
    std::sort(ops_.begin(), ops_.end(), less);
}

std::optional<EventRef> CorrelationIndex::launcherOf(EventRef gpuOp) const {
    if (gpuOp.lane >= report_->lanes.size()) return std::nullopt;
    const Lane& lane = report_->lanes[gpuOp.lane];
    if (gpuOp.index >= lane.events.size() || !isGpuOp(lane.events.kind[gpuOp.index])) return std::nullopt;
    const std::optional<uint32_t> correlation = correlationIdOf(*report_, gpuOp);
    if (!correlation || *correlation == 0) return std::nullopt;
    auto [first, last] = range(calls_, static_cast<uint32_t>(lane.process), *correlation);
    if (first == last) return std::nullopt;
    return EventRef{first->lane, first->index};
}

std::vector<EventRef> CorrelationIndex::launchedBy(EventRef apiCall) const {
    std::vector<EventRef> out;
    if (apiCall.lane >= report_->lanes.size()) return out;
    const Lane& lane = report_->lanes[apiCall.lane];
    if (apiCall.index >= lane.events.size() || lane.events.kind[apiCall.index] != EventKind::CudaApiCall) return out;
    const std::optional<uint32_t> correlation = correlationIdOf(*report_, apiCall);
    if (!correlation || *correlation == 0) return out;
    auto [first, last] = range(ops_, static_cast<uint32_t>(lane.process), *correlation);
    for (auto it = first; it != last; ++it) out.push_back({it->lane, it->index});
    return out;
}

size_t CorrelationIndex::memoryBytes() const {
    return sizeof(*this) + (calls_.capacity() + ops_.capacity()) * sizeof(Entry);
}

const CorrelationIndex& correlationIndex(const Report& report) {
    return report.derived.get<CorrelationIndex>([&] { return CorrelationIndex(report); });
}

}  // namespace lanescope
