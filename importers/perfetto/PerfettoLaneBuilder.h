#pragma once
// Builds the report's processes, threads, GPUs, lanes and counters from the tracks the packet
// reader gathered (the mapping is described at the top of PerfettoImporter.cpp).
#include "importers/perfetto/PerfettoTracks.h"

namespace lanescope::perfetto_import {

// Moves the tracks' events into the report; the tracks are left empty.
void buildLanes(Report& report, TrackSet& tracks);

}  // namespace lanescope::perfetto_import
