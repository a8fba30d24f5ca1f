#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "importers/nsys/ReportBuilder.h"

// NVTX extended payloads on their way from either Nsight Systems reader into the report: kept
// as recorded (bytes and schema id) with the event's own NvtxInfo row; finishReport places them
// on their events (model/NvtxPayloadPlacement.h), the decoder reads them when shown.

namespace lanescope::nsys {

// Appends a chunk's payloads and their bytes to the report's, their NvtxInfo rows mapped
// through nvtxToGlobal (ReportBuilder's merge).
void mergePayloads(const EventChunk& chunk, const std::vector<uint32_t>& nvtxToGlobal, NvtxPayloads& into);

// The payloads of an export's NVTX_EVENTS.binaryData (made with --include-blobs=true): a u64
// count, then per payload { u64 schema id, u64 size, u64 offset of its bytes from the blob's
// start }, then the bytes. A blob whose table does not fit is kept whole under schema id 0,
// which the decoder shows as damaged.
void addExportPayloads(EventChunk& chunk, uint32_t nvtxRow, std::span<const uint8_t> blob);

// When a schema has an entry of type 80 (a registered string's handle, which the report records
// as its string id), the report's string of each of the `recordedStrings` recorded ids.
void mapRegisteredStrings(const ReportBuilder& builder, uint64_t recordedStrings, NvtxPayloads& payloads);

}  // namespace lanescope::nsys
