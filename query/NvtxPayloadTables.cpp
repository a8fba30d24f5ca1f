#include "query/NvtxPayloadTables.h"

#include <algorithm>
#include <string>

#include "analysis/NvtxRangeIds.h"
#include "model/NvtxPayloadDecoder.h"
#include "query/BuiltOnce.h"
#include "query/SortedFunctionTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;
constexpr auto T = ColumnType::Text;

// nsys's export writes a value of 0 (a field absent from the report) as NULL; ids as integers
// (a schema id above 2^63 would wrap, as in nsys's own columns).
void resultOrNull(sqlite3_context* ctx, uint64_t v) {
    if (v == 0) return resultNull(ctx);
    resultInt(ctx, int64_t(v));
}
void nameOrNull(const Report& r, sqlite3_context* ctx, uint32_t id) {
    if (id == 0 || id >= r.strings.size()) return resultNull(ctx);
    resultText(ctx, r.str(id));
}

// The registration a row of a table of entries (or enum values) belongs to: the last one whose
// first row is at or before it (the rows lie registration after registration).
template <typename Registration, typename First>
const Registration& ownerOf(const Column<Registration>& all, uint32_t row, First first) {
    const auto after =
        std::upper_bound(all.begin(), all.end(), row, [&](uint32_t r, const Registration& s) { return r < first(s); });
    return *(after - 1);
}

// One decoded field of NVTX_PAYLOAD_VALUES, the text owned here.
struct ValueRow {
    int64_t event = 0;
    std::string field;
    std::string value;
};

// Every field of every NVTX range and mark of the threads' lanes carrying a payload (not the
// Nccl lanes' copies, which NVTX_EVENTS does not list), by event id, each event's in order.
std::vector<ValueRow> payloadValues(const Report& r) {
    std::vector<ValueRow> rows;
    if (r.nvtx_payloads.rows.empty()) return rows;
    const NvtxEventIds ids = nvtxEventIds(r);
    const auto& payloads = r.nvtx_payloads.rows;
    for (size_t k = 0; k < payloads.size(); ++k) {
        const NvtxPayloadRow& p = payloads[k];
        if (k > 0 && std::tie(p.lane, p.mark, p.event) ==
                         std::tie(payloads[k - 1].lane, payloads[k - 1].mark, payloads[k - 1].event))
            continue;  // an event's payloads come together: decoded with its first
        const auto& lanesIds = p.mark ? ids.marks : ids.ranges;
        if (p.lane >= lanesIds.size() || p.event >= lanesIds[p.lane].size()) continue;  // a copy
        const int64_t event = lanesIds[p.lane][p.event];
        const auto fields = p.mark ? nvtxMarkPayloadFields(r, p.lane, p.event) : nvtxPayloadFields(r, p.lane, p.event);
        for (const NvtxPayloadField& f : fields) rows.push_back({event, f.name, f.text});
    }
    std::stable_sort(rows.begin(), rows.end(), [](const ValueRow& a, const ValueRow& b) { return a.event < b.event; });
    return rows;
}

}  // namespace

void addNvtxPayloadTables(const Report& r, std::vector<std::unique_ptr<TableSpec>>& tables) {
    const NvtxPayloads& p = r.nvtx_payloads;
    enum { DomainId, SchemaId, Name, Type, Flags, NumEntries, PayloadSize, AlignTo };
    tables.push_back(std::make_unique<FunctionTable>(
        "NVTX_PAYLOAD_SCHEMAS",
        std::vector<ColumnDef>{{"domainId", I},
                               {"schemaId", I},
                               {"name", T},
                               {"type", I},
                               {"flags", I},
                               {"numEntries", I},
                               {"payloadSize", I},
                               {"alignTo", I}},
        [&p] { return uint32_t(p.schemas.size()); },
        [&r, &p](uint32_t row, int column, sqlite3_context* ctx) {
            const NvtxPayloadSchema& s = p.schemas[row];
            switch (column) {
                case DomainId:
                    return resultInt(ctx, s.domain_id);
                case SchemaId:
                    return resultInt(ctx, int64_t(s.schema_id));
                case Name:
                    return nameOrNull(r, ctx, s.name_id);
                case Type:
                    return resultOrNull(ctx, s.type);
                case Flags:
                    return resultOrNull(ctx, s.flags);
                case NumEntries:
                    return resultInt(ctx, s.entry_count);
                case PayloadSize:
                    return resultOrNull(ctx, s.payload_size);
                default:
                    return resultOrNull(ctx, s.align_to);
            }
        }));

    enum { EDomainId, ESchemaId, Idx, EFlags, EType, EName, Description, Detail, Offset };
    tables.push_back(std::make_unique<FunctionTable>(
        "NVTX_PAYLOAD_SCHEMA_ENTRIES",
        std::vector<ColumnDef>{{"domainId", I},
                               {"schemaId", I},
                               {"idx", I},
                               {"flags", I},
                               {"type", I},
                               {"name", T},
                               {"description", T},
                               {"arrayOrUnionDetail", I},
                               {"offset", I}},
        // Entries no schema lists (none from the readers) are left out.
        [&p] {
            return p.schemas.empty() ? 0u
                                     : std::min(uint32_t(p.entries.size()),
                                                p.schemas.back().first_entry + p.schemas.back().entry_count);
        },
        [&r, &p](uint32_t row, int column, sqlite3_context* ctx) {
            const NvtxPayloadSchema& s =
                ownerOf(p.schemas, row, [](const NvtxPayloadSchema& x) { return x.first_entry; });
            const NvtxPayloadEntry& e = p.entries[row];
            switch (column) {
                case EDomainId:
                    return resultInt(ctx, s.domain_id);
                case ESchemaId:
                    return resultInt(ctx, int64_t(s.schema_id));
                case Idx:
                    return resultInt(ctx, row - s.first_entry);
                case EFlags:
                    return resultOrNull(ctx, e.flags);
                case EType:
                    return resultInt(ctx, int64_t(e.type));
                case EName:
                    return nameOrNull(r, ctx, e.name_id);
                case Description:
                    return nameOrNull(r, ctx, e.description_id);
                case Detail:
                    return resultOrNull(ctx, e.array_or_union_detail);
                default:
                    return resultOrNull(ctx, e.offset);
            }
        }));

    enum { NDomainId, NSchemaId, NName, NNumEntries, NSize };
    tables.push_back(std::make_unique<FunctionTable>(
        "NVTX_PAYLOAD_ENUMS",
        std::vector<ColumnDef>{{"domainId", I}, {"schemaId", I}, {"name", T}, {"numEntries", I}, {"size", I}},
        [&p] { return uint32_t(p.enums.size()); },
        [&r, &p](uint32_t row, int column, sqlite3_context* ctx) {
            const NvtxPayloadEnum& e = p.enums[row];
            switch (column) {
                case NDomainId:
                    return resultInt(ctx, e.domain_id);
                case NSchemaId:
                    return resultInt(ctx, int64_t(e.schema_id));
                case NName:
                    return nameOrNull(r, ctx, e.name_id);
                case NNumEntries:
                    return resultInt(ctx, e.value_count);
                default:
                    return resultOrNull(ctx, e.size);
            }
        }));

    enum { VDomainId, VSchemaId, VIdx, VName, Value, IsFlag };
    tables.push_back(std::make_unique<FunctionTable>(
        "NVTX_PAYLOAD_ENUM_ENTRIES",
        std::vector<ColumnDef>{{"domainId", I}, {"schemaId", I}, {"idx", I}, {"name", T}, {"value", I}, {"isFlag", I}},
        [&p] {
            return p.enums.empty() ? 0u
                                   : std::min(uint32_t(p.enum_values.size()),
                                              p.enums.back().first_value + p.enums.back().value_count);
        },
        [&r, &p](uint32_t row, int column, sqlite3_context* ctx) {
            const NvtxPayloadEnum& e = ownerOf(p.enums, row, [](const NvtxPayloadEnum& x) { return x.first_value; });
            const NvtxPayloadEnumValue& v = p.enum_values[row];
            switch (column) {
                case VDomainId:
                    return resultInt(ctx, e.domain_id);
                case VSchemaId:
                    return resultInt(ctx, int64_t(e.schema_id));
                case VIdx:
                    return resultInt(ctx, row - e.first_value);
                case VName:
                    return nameOrNull(r, ctx, v.name_id);
                case Value:
                    return resultOrNull(ctx, v.value);
                default:
                    return resultOrNull(ctx, v.is_flag);
            }
        }));

    // NVTX_PAYLOAD_VALUES, sorted by event: an equality on it is a binary search.
    enum { Event, Field, FieldValue };
    auto values = std::make_shared<BuiltOnce<std::vector<ValueRow>>>();
    auto all = [&r, values]() -> const std::vector<ValueRow>& {
        return values->get([&r] { return payloadValues(r); });
    };
    tables.push_back(std::make_unique<SortedFunctionTable>(
        "NVTX_PAYLOAD_VALUES", std::vector<ColumnDef>{{"event", I}, {"field", T}, {"value", T}},
        [&p, all] { return p.rows.empty() ? 0u : uint32_t(all().size()); },
        [all](uint32_t row, int column, sqlite3_context* ctx) {
            const ValueRow& v = all()[row];
            switch (column) {
                case Event:
                    return resultInt(ctx, v.event);
                case Field:
                    return resultText(ctx, v.field);
                default:
                    return resultText(ctx, v.value);
            }
        },
        Event, [all](uint32_t row) { return all()[row].event; }));
}

}  // namespace lanescope::sql
