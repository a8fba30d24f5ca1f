#pragma once
#include "model/Report.h"

namespace lanescope {

// Places the payloads an importer read (NvtxPayloads::rows with only nvtx, schema_id, offset and
// length set) on the events of the frozen lanes that point at their NvtxInfo row: the ranges of
// the threads' Nvtx and NvtxStartEnd lanes, their marks, and the copies an Nccl lane holds (a row
// each, sharing the bytes). Rows are then sorted by (lane, mark, event); payloads no event holds
// (of ranges moved to MPI lanes) are dropped with their bytes. Each payload is decoded once, and
// one that cannot be counts nvtx_payload_unknown_schema, nvtx_payload_unsupported_type or
// nvtx_payload_damaged. O(NVTX events + payloads); nothing when the report has no payloads.
// finishReport runs it once every lane is frozen.
void placeNvtxPayloads(Report& report);

}  // namespace lanescope
