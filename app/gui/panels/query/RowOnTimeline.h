#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/panels/query/QueryResult.h"
#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// The columns of a result that place its rows on the timeline, found by name (any case) as
// nsys's export and Lanescope's tables name them; -1 where the result has none.
struct PlaceColumns {
    int start = -1, end = -1;                    // ns on the report's own timeline
    int lane = -1;                               // laneId: an index into Report::lanes
    int device = -1, stream = -1, process = -1;  // deviceId, streamId (and globalPid): a GPU stream
    int thread = -1;                             // globalTid: a thread's lanes
    explicit PlaceColumns(const std::vector<std::string>& names);
    bool placesRows() const { return start >= 0; }
};

// Where a result row lies on its report's timeline: [start_ns, end_ns] (end_ns = start_ns for
// a row without an end), and the event there when the row's lane columns name lanes holding
// one that starts and ends exactly then.
struct RowPlace {
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    std::optional<EventRef> event;
};

// nullopt when the row has no integer start.
std::optional<RowPlace> placeRow(const Report& report, const QueryResult& result, const PlaceColumns& columns,
                                 size_t row);

}  // namespace lanescope
