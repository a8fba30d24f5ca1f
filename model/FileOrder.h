#pragma once
#include <cstdint>
#include <vector>

#include "model/Column.h"

namespace lanescope {

struct FrozenPositions;

// A stretch of a table's rows in the report file's order: `count` events of lane `lane` (or its
// instants, when `instants`; or its context switches, FileOrder::sched), those at indexes first ..
// first + count - 1 of the lane's frozen order, in that order. 16 bytes.
struct FileOrderRun {
    uint32_t lane = 0;  // into Report::lanes
    uint32_t first = 0;
    uint32_t count = 0;
    bool instants = false;
    bool operator==(const FileOrderRun&) const = default;
};

// The order in which Nsight Systems' export lists the rows of some tables: the report file's
// (its event blocks in file order, the events in their order inside a block), which is neither
// time nor lane order. Each list holds runs (FileOrderRun), in file order, so that nothing is
// kept per event: in the common case one run per buffer a thread flushed. Every event (instant)
// of the lanes a list covers lies in exactly one of its runs. Filled by the Nsight Systems
// readers, both alike (an export's rowid order is the file's); empty for formats without a file
// order, whose tables list lane by lane. Until finishReport freezes the lanes, `first` counts a
// lane's events in the order they were appended.
struct FileOrder {
    Column<FileOrderRun> osrt;         // OsRuntime lanes: calls (events) and tracing marks (instants)
    Column<FileOrderRun> cuda_api;     // CudaApi lanes: CUDA runtime and driver calls
    Column<FileOrderRun> cpu_samples;  // CpuSamples lanes: CPU samples (instants)
    // CpuCore lanes: their context switches, two per event (a thread's run on the core): 2i the
    // switch-in that began event i, 2i + 1 the switch-out that ended it. A switch the file does not
    // hold (where a run was closed by the next switch-in or by the end of the data) is in no run,
    // and so is a switch-out that began no run.
    Column<FileOrderRun> sched;

    size_t memoryBytes() const;
};

// Adds `run` after the last run of `runs`, into it where it continues it (the same lane and part,
// from where the last run ends).
void appendRun(Column<FileOrderRun>& runs, const FileOrderRun& run);

// The runs' lanes renumbered after Report::lanes moved: lane l is now newIndex[l].
void renumberLanes(FileOrder& order, const std::vector<uint32_t>& newIndex);

// The lanes the runs refer to, by lane index (lanes: Report::lanes.size()).
std::vector<bool> lanesInFileOrder(const FileOrder& order, size_t lanes);

// The runs in the lanes' frozen order: each run through where freezing put its lane's events
// (positions, by lane index, as freezeLane gave them; empty where it kept their order), split
// where consecutive events of the file came apart.
void toFrozenOrder(FileOrder& order, const std::vector<FrozenPositions>& positions);

}  // namespace lanescope
