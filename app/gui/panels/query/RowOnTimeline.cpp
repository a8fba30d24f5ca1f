#include "app/gui/panels/query/RowOnTimeline.h"

#include <algorithm>
#include <cctype>

#include "query/SqlValues.h"

namespace lanescope {
namespace {

bool sameName(const std::string& a, const char* b) {
    const std::string_view bv(b);
    return a.size() == bv.size() && std::equal(a.begin(), a.end(), bv.begin(), [](char x, char y) {
               return std::tolower((unsigned char)x) == std::tolower((unsigned char)y);
           });
}

// The event of `lane` starting at `start` and ending at `end`, if any (events sorted by start).
std::optional<uint32_t> eventWithTimes(const Lane& lane, int64_t start, int64_t end) {
    const auto& starts = lane.events.start_ns;
    for (auto it = std::lower_bound(starts.begin(), starts.end(), start); it != starts.end() && *it == start; ++it) {
        const auto index = uint32_t(it - starts.begin());
        if (lane.events.endNs(index) == end) return index;
    }
    return std::nullopt;
}

}  // namespace

PlaceColumns::PlaceColumns(const std::vector<std::string>& names) {
    // The first column of each name: in a join the first table's.
    auto find = [&](const char* name) {
        for (size_t c = 0; c < names.size(); ++c)
            if (sameName(names[c], name)) return int(c);
        return -1;
    };
    start = find("start");
    end = find("end");
    lane = find("laneId");
    device = find("deviceId");
    stream = find("streamId");
    process = find("globalPid");
    thread = find("globalTid");
}

std::optional<RowPlace> placeRow(const Report& report, const QueryResult& result, const PlaceColumns& columns,
                                 size_t row) {
    RowPlace place;
    if (columns.start < 0 || !result.asInteger(row, size_t(columns.start), place.start_ns)) return std::nullopt;
    place.end_ns = place.start_ns;
    if (columns.end >= 0) result.asInteger(row, size_t(columns.end), place.end_ns);
    place.end_ns = std::max(place.end_ns, place.start_ns);
    auto value = [&](int column) -> std::optional<int64_t> {
        int64_t v = 0;
        if (column < 0 || !result.asInteger(row, size_t(column), v)) return std::nullopt;
        return v;
    };
    const std::optional<int64_t> laneId = value(columns.lane), device = value(columns.device),
                                 stream = value(columns.stream), process = value(columns.process),
                                 thread = value(columns.thread);
    // The lanes the row names: its lane, else its GPU stream, else its thread's lanes.
    auto names = [&](uint32_t li) {
        const Lane& lane = report.lanes[li];
        if (laneId) return *laneId == int64_t(li);
        if (device && stream)
            return lane.gpu >= 0 && report.gpus[size_t(lane.gpu)].device_id == *device && lane.stream_id == *stream &&
                   !holdsDerivedEvents(lane.kind) && (!process || sql::globalPidOf(report, lane.process) == *process);
        if (thread)
            return lane.thread >= 0 && !holdsDerivedEvents(lane.kind) &&
                   sql::globalTidOf(report, lane.thread) == *thread;
        return false;
    };
    for (uint32_t li = 0; li < report.lanes.size() && !place.event; ++li)
        if (names(li))
            if (const auto event = eventWithTimes(report.lanes[li], place.start_ns, place.end_ns))
                place.event = EventRef{li, *event};
    return place;
}

}  // namespace lanescope
