#include "query/BacktraceChains.h"

#include <algorithm>

#include "query/FileOrderRows.h"

namespace lanescope::sql {
namespace {

// The row of Report::backtraces of call `event` of a lane, found by (thread, lane kind, start).
std::optional<uint32_t> backtraceRow(const Report& report, const Lane& lane, uint32_t event) {
    if (lane.thread < 0) return std::nullopt;
    const CallBacktrace wanted{lane.thread, uint8_t(lane.kind), lane.events.start_ns[event], kNoStack};
    const auto& all = report.backtraces;
    const auto it = std::lower_bound(all.begin(), all.end(), wanted,
                                     [](const CallBacktrace& a, const CallBacktrace& b) { return a.key() < b.key(); });
    if (it == all.end() || it->key() != wanted.key()) return std::nullopt;
    return uint32_t(it - all.begin());
}

BacktraceChains numbered(const Report& report) {
    BacktraceChains chains;
    chains.number.assign(report.backtraces.size(), BacktraceChains::kNoChain);
    auto number = [&](const Column<FileOrderRun>& runs, LaneKind kind, std::vector<uint32_t>& rows) {
        const FileOrderRows calls(
            report, runs, [kind](const Lane& l) { return l.kind == kind; }, FileOrderRows::Parts::Events);
        for (size_t s = 0; s < calls.segmentCount(); ++s) {
            if (calls.instants(s)) continue;
            for (uint32_t row = 0; row < calls.segmentSize(s); ++row) {
                const auto b = backtraceRow(report, calls.lane(s), calls.event(s, row));
                if (!b || chains.number[*b] != BacktraceChains::kNoChain) continue;
                chains.number[*b] = uint32_t(rows.size());
                rows.push_back(*b);
            }
        }
    };
    number(report.file_order.osrt, LaneKind::OsRuntime, chains.osrt);
    number(report.file_order.cuda_api, LaneKind::CudaApi, chains.cuda);
    return chains;
}

}  // namespace

const BacktraceChains& backtraceChains(const Report& report) {
    return report.derived.get<BacktraceChains>([&] { return numbered(report); });
}

std::optional<int64_t> callchainIdOf(const Report& report, const Lane& lane, uint32_t event) {
    const auto b = backtraceRow(report, lane, event);
    if (!b) return std::nullopt;
    const uint32_t n = backtraceChains(report).number[*b];
    if (n == BacktraceChains::kNoChain) return std::nullopt;
    return int64_t{n} +
           (lane.kind == LaneKind::OsRuntime ? BacktraceChains::kFirstOsrtId : BacktraceChains::kFirstCudaId);
}

}  // namespace lanescope::sql
