#pragma once
#include <cstdint>
#include <vector>

#include "model/Report.h"

namespace lanescope::sql {

// NVTX_EVENTS.binaryData of range `event` of lane `lane` (or of its instant `event` when `mark`):
// its extended payloads as nsys's export writes them with --include-blobs=true (docs/nsys-rep-format.md):
// a u64 count, then per payload { u64 schemaId, u64 size, u64 offset of its bytes from the blob's
// start }, then the payloads' bytes end to end, every number little-endian. Empty when the event
// carries no payload.
std::vector<uint8_t> nvtxBinaryData(const Report& report, uint32_t lane, uint32_t event, bool mark);

}  // namespace lanescope::sql
