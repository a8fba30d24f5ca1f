#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/DeferredLane.h"
#include "model/Report.h"

namespace lanescope {

// A process's built NVTX-on-GPU lanes (projectDeferredLanes) as bytes, to keep beside the report's
// saved model so that a reopen reads them instead of projecting again: a format tag, the lane
// count, then per lane its index and event count and, per event in index order, its start and end
// (int64 ns) and the range it stands for (lane and index, uint32). Names and payloads are the
// ranges' own, so they are not kept. Little-endian, as analysis/ByteCodec.h writes.
std::string encodeDeferredLanes(const std::vector<DeferredLaneEvents>& lanes);
// The lanes encodeDeferredLanes wrote for `report`'s process `process`, built again, or nullopt
// for bytes that do not describe them (a wrong tag, bytes short or left over, a lane that is
// not a deferred lane of that process, a range that is not an NVTX range of it, an end before
// its start): never reads outside `bytes` or the report.
std::optional<std::vector<DeferredLaneEvents>> decodeDeferredLanes(const Report& report, int32_t process,
                                                                   std::string_view bytes);

// The ranges a built NVTX-on-GPU lane's events stand for (DeferredLaneEvents::sources), as bytes
// kept beside a saved model that holds the lane itself (app/gui/import/SaveModel.h): a format
// tag, the event count, then per event the range's lane and index (uint32), 8 bytes an event.
std::string encodeProjectedSources(const std::vector<EventRef>& sources);
// The range event `event` of `report`'s NVTX-on-GPU lane `lane` stands for, read from bytes
// encodeProjectedSources wrote for that lane, or nullopt where they do not describe it (a wrong
// tag, an event count other than the lane's, a source that is not an NVTX range of the lane's
// process with the event's name and row of Report::nvtx): reads 8 bytes of them, never outside.
std::optional<EventRef> decodeProjectedSource(const Report& report, size_t lane, uint32_t event,
                                              std::string_view bytes);

}  // namespace lanescope
