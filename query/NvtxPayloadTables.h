#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// NVTX extended payloads over a report (model/NvtxPayload.h): nsys's NVTX_PAYLOAD_SCHEMAS,
// NVTX_PAYLOAD_SCHEMA_ENTRIES, NVTX_PAYLOAD_ENUMS and NVTX_PAYLOAD_ENUM_ENTRIES with the columns
// of Nsight Systems 2025.3's export (a 0 written NULL, as nsys writes it; domainId the domain
// name's string id, as in NVTX_EVENTS), and NVTX_PAYLOAD_VALUES, Lanescope's: one row per decoded
// field of each NVTX range or mark carrying a payload (event = its NVTX_EVENTS rowid, field,
// value as text), decoded when first read. docs/sql.md gives the columns.
void addNvtxPayloadTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
