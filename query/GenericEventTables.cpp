#include "query/GenericEventTables.h"

#include <string>

#include "query/FunctionTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;
constexpr auto T = ColumnType::Text;

// The columns of `names`, each of `type`, after `first`.
std::vector<ColumnDef> withColumns(std::vector<ColumnDef> first, ColumnType type,
                                   std::initializer_list<const char*> names) {
    for (const char* name : names) first.push_back({name, type});
    return first;
}

}  // namespace

void addGenericEventTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    const Report& r = report;
    // Columns after the known ones are NULL.
    std::vector<ColumnDef> sources = {{"sourceId", I},
                                      {"nameId", I},
                                      {"timeSourceId", I},
                                      {"sourceGroupId", I},
                                      {"hyperType", T},
                                      {"hyperVersion", T},
                                      {"hyperStructPrefix", T},
                                      {"hyperMacroPrefix", T},
                                      {"hyperFilterFlags", I},
                                      {"hyperDomain", T},
                                      {"data", T}};
    tables.push_back(std::make_unique<FunctionTable>(
        "GENERIC_EVENT_SOURCES", std::move(sources), [&r] { return uint32_t(r.generic_event_sources.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const GenericEventSource& s = r.generic_event_sources[row];
            switch (column) {
                case 0:
                    return resultInt(ctx, int64_t(s.source_id));
                case 1:
                    return resultStringId(ctx, r, s.name_id);
                case 2:
                    return resultInt(ctx, s.time_source);
                case 3:
                    return resultInt(ctx, 0);  // sourceGroupId: 0 in the only export that has one
                default:
                    return resultNull(ctx);
            }
        }));
    std::vector<ColumnDef> types =
        withColumns({{"typeId", I}, {"sourceId", I}, {"nameId", I}, {"hyperComment", T}, {"ftraceFormat", T}}, I,
                    {"etwProviderId", "etwProviderNameId", "etwTaskId", "etwTaskNameId", "etwEventId", "etwVersion",
                     "etwGuidHigh", "etwGuidLow"});
    types.push_back({"etwGuid", T});
    types.push_back({"data", T});
    tables.push_back(std::make_unique<FunctionTable>(
        "GENERIC_EVENT_TYPES", std::move(types), [&r] { return uint32_t(r.generic_event_types.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const GenericEventType& t = r.generic_event_types[row];
            switch (column) {
                case 0:
                    return resultInt(ctx, int64_t(t.type_id));
                case 1:
                    return resultInt(ctx, int64_t(t.type_id & ~uint64_t{0xFFFFFFFF}));
                case 2:
                    return resultStringId(ctx, r, t.name_id);
                default:
                    return resultNull(ctx);
            }
        }));
    std::vector<ColumnDef> fields =
        withColumns({{"typeId", I}, {"fieldIdx", I}, {"fieldNameId", I}, {"offset", I}, {"size", I}, {"type", I}}, T,
                    {"hyperTypeName", "hyperFormat", "hyperComment", "ftracePrefix", "ftraceSuffix"});
    fields = withColumns(std::move(fields), I,
                         {"etwFlags", "etwCountFieldIndex", "etwLengthFieldIndex", "etwType", "etwMapInfoFlags",
                          "etwOrderedFieldIndex"});
    tables.push_back(std::make_unique<FunctionTable>(
        "GENERIC_EVENT_TYPE_FIELDS", std::move(fields), [&r] { return uint32_t(r.generic_event_fields.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const GenericEventField& f = r.generic_event_fields[row];
            switch (column) {
                case 0:
                    return resultInt(ctx, int64_t(f.type_id));
                case 1:
                    return resultInt(ctx, f.index);
                case 2:
                    return resultStringId(ctx, r, f.name_id);
                case 3:
                    return resultInt(ctx, f.offset);
                case 4:
                    return resultInt(ctx, f.size);
                case 5:
                    return resultInt(ctx, f.type);
                default:
                    return resultNull(ctx);
            }
        }));
}

}  // namespace lanescope::sql
