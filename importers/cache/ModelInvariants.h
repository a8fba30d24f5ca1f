#pragma once
#include <string>

#include "model/Report.h"

namespace lanescope::cache {

// The first broken invariant of a finished report that its readers rely on without checking,
// as one line ("lanes[3].events.payload[17]: 912 is not a row of kernels (40 rows)"); empty
// when there is none. Checked: every index into the strings, processes, threads, GPUs,
// counters, side tables and call stacks is in range (or the table's "none"); the columns of a
// lane, a counter and the call stacks have equal lengths; lane and event kinds are known ones;
// a lane is frozen (depth_begin, depth_order and depths agree with its events); long durations
// name events of their lane in order; call stack parents come before their children; every
// bool member of the side tables is a 0 or 1 byte. O(events), on `threads` threads (0: every
// core), a lane or the rest of the report on each at a time; the answer is the same on any
// number. For a report read from a model file, which is not trusted before this says so.
std::string brokenInvariant(const Report& report, unsigned threads = 1);

// The first broken invariant of what a report's rows need, before their events are read: the
// processes', threads' and GPUs' names and owners, and each lane's kind, name and owners; the
// report's string ids may name `strings` strings (its pool may be empty still).
std::string brokenRowInvariant(const Report& report, size_t strings);

}  // namespace lanescope::cache
