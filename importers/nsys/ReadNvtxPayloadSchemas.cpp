#include <map>
#include <tuple>

#include "importers/nsys/NvtxPayloadStaging.h"
#include "importers/nsys/TableReaders.h"

namespace lanescope::nsys {
namespace {

// The rows of one (domainId, schemaId) of an entries table, in rowid order, cut into one run per
// registration: a run ends where idx stops growing (a process registering it again).
template <typename Row>
using RegistrationRuns = std::map<std::pair<int64_t, int64_t>, std::vector<std::vector<Row>>>;

template <typename Row>
void addToRuns(RegistrationRuns<Row>& runs, int64_t domain, int64_t id, int64_t idx, Row row) {
    auto& all = runs[{domain, id}];
    if (all.empty() || idx <= all.back().back().first) all.emplace_back();
    all.back().push_back(row);
}

// The k-th run of a registration's key, sorted by idx; empty when the table has fewer.
template <typename Row>
std::vector<Row> takeRun(RegistrationRuns<Row>& runs, std::map<std::pair<int64_t, int64_t>, size_t>& taken,
                         int64_t domain, int64_t id) {
    auto it = runs.find({domain, id});
    const size_t k = taken[{domain, id}]++;
    if (it == runs.end() || k >= it->second.size()) return {};
    std::vector<Row> run = std::move(it->second[k]);
    std::stable_sort(run.begin(), run.end(), [](const Row& a, const Row& b) { return a.first < b.first; });
    return run;
}

uint32_t internOrNone(Report& report, const std::optional<std::string_view>& text) {
    return text && !text->empty() ? report.strings.intern(*text) : 0;
}

}  // namespace

// NVTX_PAYLOAD_SCHEMAS, NVTX_PAYLOAD_SCHEMA_ENTRIES, NVTX_PAYLOAD_ENUMS, NVTX_PAYLOAD_ENUM_ENTRIES
// into Report::nvtx_payloads, in the export's row order (NULL = 0; the export writes a 0 as NULL).
// Domains stay nsys's domainIds until ReportBuilder::complete() names them; the export does not
// say which process registered a schema (process -1).
std::optional<ImportError> readNvtxPayloadSchemas(ImportContext& ctx) {
    const SqliteDb& db = ctx.db;
    Report& report = ctx.report;
    NvtxPayloads& payloads = report.nvtx_payloads;
    auto u64 = [](const SqliteStmt& s, int col) { return uint64_t(s.i64OrNull(col).value_or(0)); };

    using Entry = std::pair<int64_t, NvtxPayloadEntry>;  // (idx, entry)
    RegistrationRuns<Entry> entryRuns;
    if (auto sql = selectByName(
            db, "NVTX_PAYLOAD_SCHEMA_ENTRIES",
            {"domainId", "schemaId", "idx", "flags", "type", "name", "description", "arrayOrUnionDetail", "offset"},
            {"domainId", "schemaId", "idx", "type"})) {
        SqliteStmt s(db, *sql + " ORDER BY rowid");
        while (s.step()) {
            NvtxPayloadEntry e{u64(s, 3),
                               u64(s, 4),
                               u64(s, 7),
                               u64(s, 8),
                               internOrNone(report, s.textOrNull(5)),
                               internOrNone(report, s.textOrNull(6))};
            addToRuns(entryRuns, s.i64(0), s.i64(1), s.i64(2), Entry{s.i64(2), e});
        }
    }
    std::map<std::pair<int64_t, int64_t>, size_t> taken;
    if (auto sql = selectByName(db, "NVTX_PAYLOAD_SCHEMAS",
                                {"domainId", "schemaId", "name", "type", "flags", "payloadSize", "alignTo"},
                                {"domainId", "schemaId"})) {
        SqliteStmt s(db, *sql + " ORDER BY rowid");
        while (s.step()) {
            NvtxPayloadSchema schema;
            schema.domain_name_id = static_cast<uint32_t>(s.i64(0));  // nsys's domainId until complete()
            schema.schema_id = u64(s, 1);
            schema.name_id = internOrNone(report, s.textOrNull(2));
            schema.type = static_cast<uint8_t>(u64(s, 3));
            schema.flags = u64(s, 4);
            schema.payload_size = u64(s, 5);
            schema.align_to = u64(s, 6);
            schema.first_entry = static_cast<uint32_t>(payloads.entries.size());
            for (const Entry& e : takeRun(entryRuns, taken, s.i64(0), s.i64(1))) payloads.entries.push_back(e.second);
            schema.entry_count = static_cast<uint32_t>(payloads.entries.size() - schema.first_entry);
            payloads.schemas.push_back(schema);
        }
    }

    using Value = std::pair<int64_t, NvtxPayloadEnumValue>;  // (idx, value)
    RegistrationRuns<Value> valueRuns;
    if (auto sql =
            selectByName(db, "NVTX_PAYLOAD_ENUM_ENTRIES", {"domainId", "schemaId", "idx", "name", "value", "isFlag"},
                         {"domainId", "schemaId", "idx"})) {
        SqliteStmt s(db, *sql + " ORDER BY rowid");
        while (s.step())
            addToRuns(valueRuns, s.i64(0), s.i64(1), s.i64(2),
                      Value{s.i64(2), {u64(s, 4), internOrNone(report, s.textOrNull(3)), u64(s, 5) != 0}});
    }
    taken.clear();
    if (auto sql = selectByName(db, "NVTX_PAYLOAD_ENUMS", {"domainId", "schemaId", "name", "size"},
                                {"domainId", "schemaId"})) {
        SqliteStmt s(db, *sql + " ORDER BY rowid");
        while (s.step()) {
            NvtxPayloadEnum e;
            e.domain_name_id = static_cast<uint32_t>(s.i64(0));
            e.schema_id = u64(s, 1);
            e.name_id = internOrNone(report, s.textOrNull(2));
            e.size = u64(s, 3);
            e.first_value = static_cast<uint32_t>(payloads.enum_values.size());
            for (const Value& v : takeRun(valueRuns, taken, s.i64(0), s.i64(1)))
                payloads.enum_values.push_back(v.second);
            e.value_count = static_cast<uint32_t>(payloads.enum_values.size() - e.first_value);
            payloads.enums.push_back(e);
        }
    }
    // The recorded string ids run from 0 without gaps in every export seen: no more than the rows.
    uint64_t strings = 0;
    if (SqliteStmt s(db, "SELECT min(max(id) + 1, count(*)) FROM StringIds"); s.step())
        strings = uint64_t(std::max<int64_t>(0, s.i64(0)));
    mapRegisteredStrings(ctx.builder, strings, payloads);
    return std::nullopt;
}

}  // namespace lanescope::nsys
