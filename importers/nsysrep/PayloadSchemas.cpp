#include "importers/nsysrep/PayloadSchemas.h"

#include "importers/nsys/NvtxPayloadStaging.h"
#include "importers/nsysrep/ProtoReader.h"
#include "model/DiagnosticKinds.h"

namespace lanescope::nsysrep {
namespace {

uint32_t internField(Report& report, std::string_view text) { return text.empty() ? 0 : report.strings.intern(text); }

// ENTRY { 1 type, 2 flags, 3 offset, 4 arrayOrUnionDetail, 7 name, 8 description }.
NvtxPayloadEntry schemaEntry(std::string_view message, uint64_t base, Report& report) {
    NvtxPayloadEntry e;
    ProtoReader reader(message, base);
    for (ProtoField f; reader.next(f);) {
        if (f.wire == 0) {
            if (f.number == 1) e.type = f.value;
            if (f.number == 2) e.flags = f.value;
            if (f.number == 3) e.offset = f.value;
            if (f.number == 4) e.array_or_union_detail = f.value;
        } else if (f.wire == 2) {
            if (f.number == 7) e.name_id = internField(report, f.bytes);
            if (f.number == 8) e.description_id = internField(report, f.bytes);
        }
    }
    return e;
}

// SCHEMA { 1 schemaId, 2 type, 3 flags, repeated 4 ENTRY, 5 name, 6 payloadSize, 7 alignTo, 9 domainId }.
void addSchema(std::string_view message, uint64_t base, int32_t process, Report& report) {
    NvtxPayloads& payloads = report.nvtx_payloads;
    NvtxPayloadSchema s;
    s.process = process;
    s.first_entry = static_cast<uint32_t>(payloads.entries.size());
    ProtoReader reader(message, base);
    for (ProtoField f; reader.next(f);) {
        if (f.wire == 0) {
            if (f.number == 1) s.schema_id = f.value;
            if (f.number == 2) s.type = static_cast<uint8_t>(f.value);
            if (f.number == 3) s.flags = f.value;
            if (f.number == 6) s.payload_size = f.value;
            if (f.number == 7) s.align_to = f.value;
            if (f.number == 9) s.domain_name_id = static_cast<uint32_t>(f.value);  // nsys's domainId until complete()
        } else if (f.wire == 2) {
            if (f.number == 4) payloads.entries.push_back(schemaEntry(f.bytes, reader.offsetOf(f.bytes), report));
            if (f.number == 5) s.name_id = internField(report, f.bytes);
        }
    }
    s.entry_count = static_cast<uint32_t>(payloads.entries.size() - s.first_entry);
    payloads.schemas.push_back(s);
}

// ENUM { 1 domainId, 2 schemaId, 3 name, repeated 4 { 1 name, 2 value, 3 isFlag }, 5 size }.
void addEnum(std::string_view message, uint64_t base, int32_t process, Report& report) {
    NvtxPayloads& payloads = report.nvtx_payloads;
    NvtxPayloadEnum e;
    e.process = process;
    e.first_value = static_cast<uint32_t>(payloads.enum_values.size());
    ProtoReader reader(message, base);
    for (ProtoField f; reader.next(f);) {
        if (f.wire == 0) {
            if (f.number == 1) e.domain_name_id = static_cast<uint32_t>(f.value);
            if (f.number == 2) e.schema_id = f.value;
            if (f.number == 5) e.size = f.value;
        } else if (f.wire == 2 && f.number == 3) {
            e.name_id = internField(report, f.bytes);
        } else if (f.wire == 2 && f.number == 4) {
            NvtxPayloadEnumValue v;
            ProtoReader value(f.bytes, reader.offsetOf(f.bytes));
            for (ProtoField g; value.next(g);) {
                if (g.number == 1 && g.wire == 2) v.name_id = internField(report, g.bytes);
                if (g.number == 2 && g.wire == 0) v.value = g.value;
                if (g.number == 3 && g.wire == 0) v.is_flag = g.value != 0;
            }
            payloads.enum_values.push_back(v);
        }
    }
    e.value_count = static_cast<uint32_t>(payloads.enum_values.size() - e.first_value);
    payloads.enums.push_back(e);
}

// { 2 repeated { 1 size, 2 align } of types 1 to 27, 3 repeated PROCESS { 1 globalPid, repeated
// 2 SCHEMA, repeated 4 ENUM } } (fields 1, 4 and 7 unknown).
void readSchemaMessage(std::string_view message, const nsys::ReportBuilder& builder, Report& report) {
    ProtoReader reader(message, 0);
    for (ProtoField f; reader.next(f);) {
        if (f.number == 2 && f.wire == 2) {
            NvtxPayloadTypeInfo info;
            ProtoReader type(f.bytes, reader.offsetOf(f.bytes));
            for (ProtoField g; type.next(g);) {
                if (g.number == 1 && g.wire == 0) info.size = static_cast<uint16_t>(std::min<uint64_t>(g.value, 65535));
                if (g.number == 2 && g.wire == 0)
                    info.align = static_cast<uint16_t>(std::min<uint64_t>(g.value, 65535));
            }
            report.nvtx_payloads.type_info.push_back(info);
        } else if (f.number == 3 && f.wire == 2) {
            int64_t globalPid = 0;
            ProtoReader process(f.bytes, reader.offsetOf(f.bytes));
            for (ProtoField g; process.next(g);)
                if (g.number == 1 && g.wire == 0) globalPid = g.i64();
            const int32_t owner = builder.findProcess(globalPid).value_or(-1);
            ProtoReader parts(f.bytes, reader.offsetOf(f.bytes));
            for (ProtoField g; parts.next(g);) {
                if (g.number == 2 && g.wire == 2) addSchema(g.bytes, parts.offsetOf(g.bytes), owner, report);
                if (g.number == 4 && g.wire == 2) addEnum(g.bytes, parts.offsetOf(g.bytes), owner, report);
            }
        }
    }
}

}  // namespace

void addNvtxPayloadSchemas(const RepLayout& layout, const nsys::ReportBuilder& builder, Report& report) {
    if (layout.nvtx_payload_schemas_damaged) countDiagnostic(report.diagnostics, Diag::NvtxPayloadSchemasDamaged);
    if (layout.nvtx_payload_schemas.empty()) return;
    try {
        readSchemaMessage(layout.nvtx_payload_schemas, builder, report);
    } catch (const MalformedProto&) {
        report.nvtx_payloads.schemas.clear();
        report.nvtx_payloads.entries.clear();
        report.nvtx_payloads.enums.clear();
        report.nvtx_payloads.enum_values.clear();
        report.nvtx_payloads.type_info.clear();
        countDiagnostic(report.diagnostics, Diag::NvtxPayloadSchemasDamaged);
        return;
    }
    nsys::mapRegisteredStrings(builder, layout.strings.size(), report.nvtx_payloads);
}

}  // namespace lanescope::nsysrep
