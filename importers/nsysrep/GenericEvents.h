#pragma once
#include <vector>

#include "importers/nsys/ReportBuilder.h"
#include "importers/nsysrep/EventDecoder.h"
#include "importers/nsysrep/RepFile.h"
#include "model/Report.h"

namespace lanescope::nsysrep {

// The generic-event schema of a report (Report::generic_event_sources, _types, _fields: nsys's
// GENERIC_EVENT_* tables) from its index message: 13 sources { 1 source id, 2 time source, 3 name
// string id }, 14 types { 1 type id (its source's id in the high 32 bits), 2 name string id,
// 3 repeated field { 1 name string id, 2 byte offset, 3 byte size, 8 type } }. Kept, as nsys's
// export keeps them: the sources some event of `events` belongs to, with all their types, in the
// index's order. Throws MalformedProto on a damaged index.
void readGenericEventSchema(const RepLayout& layout, const std::vector<GenericEvent>& events,
                            const nsys::ReportBuilder& builder, Report& report);

// GPU metrics, as the SQLite importer reads GPU_METRICS: one counter per (type, field) of the
// generic-event types of the source named "GpuMetrics" (readGenericEventSchema first), named by
// the field ("Metric i" when unnamed), in the order of the samples. A value is the field's
// unsigned little-endian integer in the sample's record.
void buildGpuMetrics(const std::vector<GenericEvent>& samples, Report& report);

}  // namespace lanescope::nsysrep
