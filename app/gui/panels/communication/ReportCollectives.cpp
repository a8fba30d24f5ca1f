#include "app/gui/panels/communication/ReportCollectives.h"

#include <tuple>

namespace lanescope {
namespace {

// What a report's derived cache keeps: its collectives, analysed alone.
struct OwnCollectives {
    CommunicationAnalysis analysis;
};

}  // namespace

const CommunicationAnalysis& reportCollectives(const Report& report) {
    return report.derived.get<OwnCollectives>([&] { return OwnCollectives{analyzeCommunication({&report})}; }).analysis;
}

std::optional<size_t> collectiveRowOf(const CollectiveRows& rows, uint16_t rank, const Report& report, EventRef event) {
    if (event.lane >= report.lanes.size()) return std::nullopt;
    const IntervalColumns& ev = report.lanes[event.lane].events;
    if (event.index >= ev.size() || ev.kind[event.index] != EventKind::Kernel) return std::nullopt;
    const int64_t start = ev.start_ns[event.index];
    const uint32_t kernel = ev.payload[event.index];
    // The rows are sorted by (rank, start): the first of this rank at this start, then its ties.
    size_t lo = 0, hi = rows.size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (std::tie(rows.rank[mid], rows.start_ns[mid]) < std::tie(rank, start))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < rows.size() && rows.rank[i] == rank && rows.start_ns[i] == start; ++i) {
        if (rows.lane[i] == event.lane && rows.event[i] == event.index) return i;
        if (kernel == kNoPayload || rows.lane[i] >= report.lanes.size()) continue;
        const IntervalColumns& stream = report.lanes[rows.lane[i]].events;
        if (rows.event[i] < stream.size() && stream.payload[rows.event[i]] == kernel) return i;
    }
    return std::nullopt;
}

}  // namespace lanescope
