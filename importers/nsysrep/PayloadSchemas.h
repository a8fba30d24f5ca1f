#pragma once
#include "importers/nsys/ReportBuilder.h"
#include "importers/nsysrep/RepFile.h"

namespace lanescope::nsysrep {

// The NVTX extended-payload schemas and enums of the report (RepLayout::nvtx_payload_schemas)
// into Report::nvtx_payloads, with the recording machine's sizes of the predefined types and,
// where a schema holds registered strings, the report's string of each recorded id
// (docs/nsys-rep-format.md, "NVTX extended payloads"). Domains stay nsys's domain ids until
// ReportBuilder::complete() names them; a schema's process is the one its globalPid names if
// that process has events. Call once the events are merged. A message that does not decode, or
// a block that did not read, counts nvtx_payload_schemas_damaged and leaves no schema.
void addNvtxPayloadSchemas(const RepLayout& layout, const nsys::ReportBuilder& builder, Report& report);

}  // namespace lanescope::nsysrep
