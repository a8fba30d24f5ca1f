#pragma once
// What the Perfetto reader gathers per track before lanes are built: the track's descriptor,
// and its slices, instants and counter samples in the order the trace gives them (slices
// in the order they end, which is not by start time when slices nest); and the threads that
// core runs name.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "importers/perfetto/PerfettoSliceDetails.h"
#include "model/Report.h"

namespace lanescope::perfetto_import {

// A slice begun and not yet ended on its track.
struct OpenSlice {
    int64_t start;
    uint32_t name;
    EventKind kind;
    uint32_t payload;  // kNoPayload on a plain range: the shared row is set when the lane is made
};

// A track: its descriptor's fields and the events on it, times in ns as the trace gives them.
struct Track {
    uint64_t uuid = 0;
    uint64_t parent = 0;
    bool described = false;
    std::string name;
    bool isProcess = false, isThread = false, isCounter = false;
    int64_t pid = 0, tid = 0;
    std::string processName, threadName;
    std::string unit;
    int64_t multiplier = 1;
    bool incremental = false;
    double incrementalValue = 0;
    IntervalColumns events;
    InstantColumns instants;
    Column<int64_t> counterTime;  // becomes its Counter's columns
    Column<double> counterValue;
    std::vector<OpenSlice> stack;
    std::optional<LaneKind> instantLane;  // the lane kind its first instant's category names, if any
};

// Every track met (by descriptor or event), in the order first met, and where each uuid is.
struct TrackSet {
    std::vector<Track> tracks;
    std::unordered_map<uint64_t, size_t> index;  // uuid -> tracks[]
    // The thread of each core run, in the order read: a CoreRun slice's payload indexes it
    // until the lanes are built, which resolve it to a Report::threads index.
    std::vector<TraceThreadId> runThreads;

    Track& get(uint64_t uuid) {
        auto [it, inserted] = index.try_emplace(uuid, tracks.size());
        if (inserted) {
            tracks.emplace_back();
            tracks.back().uuid = uuid;
        }
        return tracks[it->second];
    }
};

}  // namespace lanescope::perfetto_import
