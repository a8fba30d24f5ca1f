#include "importers/nsysrep/GenericEvents.h"

#include <algorithm>
#include <map>
#include <set>

#include "importers/nsys/TableScan.h"
#include "importers/nsysrep/ProtoReader.h"
#include "model/DiagnosticKinds.h"

namespace lanescope::nsysrep {
namespace {

constexpr uint64_t kTypeBits = 0xFFFFFFFF;  // a type id's own part; the source's id is above

uint64_t sourceOfType(uint64_t typeId) { return typeId & ~kTypeBits; }

// A type of the index with its fields, before the sources to keep are known.
struct IndexedType {
    GenericEventType type;
    std::vector<GenericEventField> fields;
};

}  // namespace

void readGenericEventSchema(const RepLayout& layout, const std::vector<GenericEvent>& events,
                            const nsys::ReportBuilder& builder, Report& report) {
    std::vector<GenericEventSource> sources;
    std::vector<IndexedType> types;
    ProtoReader index(layout.index, 0);
    for (ProtoField f; index.next(f);) {
        if (f.wire != 2 || (f.number != 13 && f.number != 14)) continue;
        ProtoReader entry(f.bytes, 0);
        if (f.number == 13) {
            GenericEventSource source;
            for (ProtoField e; entry.next(e);) {
                if (e.wire != 0) continue;
                if (e.number == 1) source.source_id = e.value;
                if (e.number == 2) source.time_source = static_cast<uint32_t>(std::min<uint64_t>(e.value, UINT32_MAX));
                if (e.number == 3) source.name_id = builder.stringOrEmpty(e.i64());
            }
            sources.push_back(source);
            continue;
        }
        IndexedType indexed;
        for (ProtoField e; entry.next(e);) {
            if (e.number == 1 && e.wire == 0) indexed.type.type_id = e.value;
            if (e.number == 2 && e.wire == 0) indexed.type.name_id = builder.stringOrEmpty(e.i64());
            if (e.number != 3 || e.wire != 2) continue;
            GenericEventField field;
            field.index = static_cast<uint32_t>(indexed.fields.size());
            ProtoReader fieldReader(e.bytes, 0);
            for (ProtoField d; fieldReader.next(d);) {
                if (d.wire != 0) continue;
                const auto value = static_cast<uint32_t>(std::min<uint64_t>(d.value, UINT32_MAX));
                if (d.number == 1) field.name_id = builder.stringOrEmpty(d.i64());
                if (d.number == 2) field.offset = value;
                if (d.number == 3) field.size = value;
                if (d.number == 8) field.type = value;
            }
            indexed.fields.push_back(field);
        }
        for (GenericEventField& field : indexed.fields) field.type_id = indexed.type.type_id;
        types.push_back(std::move(indexed));
    }

    std::set<uint64_t> used;  // the sources some event belongs to
    for (const GenericEvent& e : events) used.insert(sourceOfType(e.type_id));
    for (const GenericEventSource& s : sources)
        if (used.contains(s.source_id)) report.generic_event_sources.push_back(s);
    for (const IndexedType& t : types) {
        if (!used.contains(sourceOfType(t.type.type_id))) continue;
        report.generic_event_types.push_back(t.type);
        report.generic_event_fields.insert(report.generic_event_fields.end(), t.fields.begin(), t.fields.end());
    }
}

void buildGpuMetrics(const std::vector<GenericEvent>& samples, Report& report) {
    std::set<uint64_t> metricSources;
    for (const GenericEventSource& s : report.generic_event_sources)
        if (report.str(s.name_id) == "GpuMetrics") metricSources.insert(s.source_id);
    std::map<uint64_t, std::vector<GenericEventField>> fieldsOfType;
    for (const GenericEventField& field : report.generic_event_fields)
        if (metricSources.contains(sourceOfType(field.type_id))) fieldsOfType[field.type_id].push_back(field);

    std::map<std::pair<uint64_t, size_t>, size_t> counterOf;  // (type, field) -> counter
    const int32_t onlyGpu = report.gpus.size() == 1 ? 0 : -1;
    for (const GenericEvent& e : samples) {
        auto type = fieldsOfType.find(e.type_id);
        if (type == fieldsOfType.end()) continue;
        for (size_t i = 0; i < type->second.size(); ++i) {
            if (!nsys::validTime(report.diagnostics, e.time_ns)) continue;
            const GenericEventField& field = type->second[i];
            if (field.size > 8 || field.offset > e.record.size() || field.size > e.record.size() - field.offset) {
                countDiagnostic(report.diagnostics, Diag::NsysRepGpuMetricOutsideRecord);
                continue;
            }
            uint64_t value = 0;
            for (uint64_t b = field.size; b-- > 0;)
                value = (value << 8) | static_cast<uint8_t>(e.record[field.offset + b]);
            auto [it, inserted] = counterOf.try_emplace({e.type_id, i}, report.counters.size());
            if (inserted) {
                Counter c;
                c.name_id = report.str(field.name_id).empty() ? report.strings.intern("Metric " + std::to_string(i))
                                                              : field.name_id;
                c.unit_id = report.strings.intern("");
                c.gpu = onlyGpu;
                report.counters.push_back(std::move(c));
            }
            Counter& c = report.counters[it->second];
            c.time_ns.push_back(e.time_ns);
            c.value.push_back(static_cast<double>(value));
        }
    }
}

}  // namespace lanescope::nsysrep
