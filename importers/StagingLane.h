#pragma once
// One lane's events while an importer reads them, before the model's columns are sized: the
// columns of IntervalColumns and InstantColumns as StagingColumns, whose pages the model's
// columns take at the end (intoColumns) instead of a copy.
#include <cstdint>
#include <utility>
#include <vector>

#include "importers/StagingColumn.h"
#include "model/Lane.h"

namespace lanescope {

// Interval events in arrival order; units and meanings as in IntervalColumns (times in ns,
// long durations beside the column as there, by index).
struct StagingIntervals {
    StagingColumn<int64_t> start_ns;
    StagingColumn<uint32_t> duration_ns;
    std::vector<LongDuration> long_durations;
    StagingColumn<uint32_t> name_id, payload;
    StagingColumn<EventKind> kind;

    size_t size() const { return start_ns.size(); }
    void append(int64_t start, int64_t end, uint32_t name, uint32_t payloadValue, EventKind kindValue) {
        start_ns.push_back(start);
        pushDuration(duration_ns, long_durations, end - start);
        name_id.push_back(name);
        payload.push_back(payloadValue);
        kind.push_back(kindValue);
    }
    // The events as model columns (depth left empty, for freezing to fill), and these empty.
    IntervalColumns intoColumns() {
        IntervalColumns columns;
        columns.start_ns = start_ns.intoColumn();
        columns.duration_ns = duration_ns.intoColumn();
        columns.long_durations = std::exchange(long_durations, {});
        columns.name_id = name_id.intoColumn();
        columns.payload = payload.intoColumn();
        columns.kind = kind.intoColumn();
        return columns;
    }
};

// Instants in arrival order; as InstantColumns.
struct StagingInstants {
    StagingColumn<int64_t> time_ns;
    StagingColumn<uint32_t> name_id, payload;

    size_t size() const { return time_ns.size(); }
    void append(int64_t time, uint32_t name, uint32_t payloadValue) {
        time_ns.push_back(time);
        name_id.push_back(name);
        payload.push_back(payloadValue);
    }
    InstantColumns intoColumns() {
        InstantColumns columns;
        columns.time_ns = time_ns.intoColumn();
        columns.name_id = name_id.intoColumn();
        columns.payload = payload.intoColumn();
        return columns;
    }
};

}  // namespace lanescope
