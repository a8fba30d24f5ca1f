// The NVTX payload tables: nsys's NVTX_PAYLOAD_SCHEMAS, _SCHEMA_ENTRIES, _ENUMS and _ENUM_ENTRIES
// give the rows sqlite3 gives on nsys 2025.3's export (nsys's domainId too), read natively
// and from the export; NVTX_PAYLOAD_VALUES numbers its events as NVTX_EVENTS does, holds the
// model's decoded fields, and its message sizes add up to what the export's blobs hold.
#include <catch2/catch.hpp>
#include <string>

#include "TestPaths.h"
#include "importers/ImportHelpers.h"
#include "model/NvtxPayloadDecoder.h"
#include "query/ReportSql.h"
#include "query/SqliteExport.h"
#include "tests/query/SqlRows.h"

namespace lanescope::test {
namespace {

// Each schema table's columns, its domainId (nsys's number of the domain, in both) first.
struct SchemaTable {
    const char* table;
    const char* columns;  // the columns after domainId
};
constexpr SchemaTable kSchemaTables[] = {
    {"NVTX_PAYLOAD_SCHEMAS", "schemaId, name, type, flags, numEntries, payloadSize, alignTo"},
    {"NVTX_PAYLOAD_SCHEMA_ENTRIES", "schemaId, idx, flags, type, name, description, arrayOrUnionDetail, offset"},
    {"NVTX_PAYLOAD_ENUMS", "schemaId, name, numEntries, size"},
    {"NVTX_PAYLOAD_ENUM_ENTRIES", "schemaId, idx, name, value, isFlag"},
};

void checkSchemaTables(const std::filesystem::path& report, const std::filesystem::path& exported) {
    const auto model = importOk(report);
    auto session = openSqlOk(*model);
    for (const SchemaTable& t : kSchemaTables) {
        INFO(report.filename().string() << " " << t.table);
        const std::string query = std::string("SELECT domainId, ") + t.columns + " FROM " + t.table;
        const Rows ours = lanescopeRows(*session, query);
        const auto theirs = exportRows(exported, query);
        REQUIRE(theirs);
        CHECK(!ours.empty());
        CHECK(ours == *theirs);
    }
}

// The SQL of the little-endian u32 at 1-based byte `at` of a blob column, from its hex digits.
std::string blobU32(const std::string& blob, int at) {
    std::string sum;
    for (int k = 0; k < 4; ++k) {
        const std::string hex = "hex(substr(" + blob + ", " + std::to_string(at + k) + ", 1))";
        const std::string byte = "((instr('0123456789ABCDEF', substr(" + hex +
                                 ", 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(" + hex + ", 2, 1)) - 1)";
        sum += (k ? " + " : "") + byte + " * " + std::to_string(1u << (8 * k));
    }
    return "(" + sum + ")";
}

}  // namespace

TEST_CASE("the payload schema tables give the export's rows, natively and from the export", "[sql]") {
    for (const char* name : {"ddp_rank0", "ddp_rank1", "ddp_both_ranks", "cpu_1gpu", "nccl_payloads"}) {
        const std::string base = std::string("nsys-2025.3/") + name;
        const auto exported = dataFile(base + ".sqlite");
        checkSchemaTables(dataFile(base + ".nsys-rep"), exported);
        checkSchemaTables(exported, exported);
    }
}

TEST_CASE("NVTX_PAYLOAD_VALUES: NVTX_EVENTS' rowids, the model's fields, the export's message sizes", "[sql]") {
    const auto blobs = dataFile("nsys-2025.3/ddp_rank0.blobs.sqlite");
    for (const auto& file : {dataFile("nsys-2025.3/ddp_rank0.nsys-rep"), blobs}) {
        INFO(file.filename().string());
        const auto model = importOk(file);
        auto session = openSqlOk(*model);
        // The events are the export's rows that carry a blob.
        CHECK(lanescopeRows(*session, "SELECT DISTINCT event FROM NVTX_PAYLOAD_VALUES") ==
              *exportRows(blobs, "SELECT rowid FROM NVTX_EVENTS WHERE binaryData IS NOT NULL"));
        CHECK(lanescopeRows(*session, "SELECT count(*) FROM NVTX_PAYLOAD_VALUES") == Rows{"144|"});
        // Joined to their NVTX_EVENTS row: the NCCL ranges, three fields each.
        CHECK(lanescopeRows(*session,
                            "SELECT coalesce(e.text, (SELECT value FROM StringIds WHERE id = e.textId)), count(*) "
                            "FROM NVTX_PAYLOAD_VALUES v JOIN NVTX_EVENTS e ON e.rowid = v.event "
                            "GROUP BY 1") == Rows{"ncclAllReduce|72|", "ncclBroadcast|72|"});
        // The message sizes add up to the blobs' (bytes 41 to 44 of each: the header is 32).
        const Rows sizes = lanescopeRows(
            *session,
            "SELECT sum(CAST(value AS INTEGER)) FROM NVTX_PAYLOAD_VALUES WHERE field = 'Message size [bytes]'");
        CHECK(sizes == *exportRows(blobs, "SELECT sum(" + blobU32("binaryData", 41) +
                                              ") FROM NVTX_EVENTS WHERE binaryData IS NOT NULL"));
        CHECK(lanescopeRows(*session,
                            "SELECT value, count(*) FROM NVTX_PAYLOAD_VALUES WHERE field = "
                            "'Reduction operation' GROUP BY 1") == Rows{"Sum|24|"});
        // Every row is the model's field of that event, in order.
        sql::SqlResult rows;
        REQUIRE(session
                    ->query("SELECT e.start, v.field, v.value FROM NVTX_PAYLOAD_VALUES v JOIN NVTX_EVENTS e ON "
                            "e.rowid = v.event",
                            rows)
                    .empty());
        std::vector<std::string> expected, got;
        for (const auto& row : rows.rows)
            got.push_back(cellText(row[0]) + " " + cellText(row[1]) + "=" + cellText(row[2]));
        for (uint32_t l = 0; l < model->lanes.size(); ++l) {
            const Lane& lane = model->lanes[l];
            if (lane.kind != LaneKind::Nvtx) continue;
            for (uint32_t e = 0; e < lane.events.size(); ++e)
                for (const NvtxPayloadField& f : nvtxPayloadFields(*model, l, e))
                    expected.push_back(std::to_string(lane.events.start_ns[e]) + " " + f.name + "=" + f.text);
        }
        std::sort(expected.begin(), expected.end());
        std::sort(got.begin(), got.end());
        CHECK(got == expected);
    }
}

TEST_CASE("NVTX_PAYLOAD_VALUES of nccl_payloads: the communicator's creation and every reduction", "[sql]") {
    const auto model = importOk(dataFile("nsys-2025.3/nccl_payloads.nsys-rep"));
    auto session = openSqlOk(*model);
    CHECK(lanescopeRows(*session, "SELECT DISTINCT event FROM NVTX_PAYLOAD_VALUES") ==
          *exportRows(dataFile("nsys-2025.3/nccl_payloads.blobs.sqlite"),
                      "SELECT rowid FROM NVTX_EVENTS WHERE binaryData IS NOT NULL"));
    CHECK(lanescopeRows(*session,
                        "SELECT v.field, v.value FROM NVTX_PAYLOAD_VALUES v JOIN NVTX_EVENTS e ON e.rowid = v.event "
                        "WHERE (SELECT value FROM StringIds WHERE id = e.textId) = 'ncclCommInitRankConfig'") ==
          Rows{"CUDA device|0|", "NCCL communicator ID|17023047401672497576|", "No. of ranks|1|", "Rank|0|"});
    CHECK(lanescopeRows(*session, "SELECT value FROM NVTX_PAYLOAD_VALUES WHERE field = 'Reduction operation'") ==
          Rows{"Avg|", "Max|", "Min|", "Product|", "Sum|"});
}

TEST_CASE("a report without payloads has empty payload tables; the SQLite export keeps the schemas", "[sql]") {
    const auto plain = importOk(dataFile("nsys-2025.3/train_1gpu.nsys-rep"));
    auto session = openSqlOk(*plain);
    for (const char* table : {"NVTX_PAYLOAD_SCHEMAS", "NVTX_PAYLOAD_SCHEMA_ENTRIES", "NVTX_PAYLOAD_ENUMS",
                              "NVTX_PAYLOAD_ENUM_ENTRIES", "NVTX_PAYLOAD_VALUES"})
        CHECK(lanescopeRows(*session, std::string("SELECT count(*) FROM ") + table) == Rows{"0|"});

    const auto model = importOk(dataFile("nsys-2025.3/ddp_rank0.nsys-rep"));
    auto withPayloads = openSqlOk(*model);
    const auto dir = tempDir("payload-export");
    const auto out = dir / "ddp_rank0.lanescope.sqlite";
    REQUIRE(sql::exportSqlite(*withPayloads, *model, out, {}) == "");
    CHECK(exportRows(out, "SELECT count(*) FROM NVTX_PAYLOAD_SCHEMAS") == Rows{"4|"});
    // NVTX_PAYLOAD_VALUES is Lanescope's: written only with --with-lanescope-tables.
    CHECK(exportRows(out, "SELECT count(*) FROM sqlite_schema WHERE name = 'NVTX_PAYLOAD_VALUES'") == Rows{"0|"});
    const auto withOwn = dir / "ddp_rank0.own-tables.sqlite";
    REQUIRE(sql::exportSqlite(*withPayloads, *model, withOwn, {.lanescope_tables = true}) == "");
    CHECK(exportRows(withOwn, "SELECT count(*) FROM NVTX_PAYLOAD_VALUES") == Rows{"144|"});
    // Read back, the schemas are the same, in the same domain.
    const auto again = importOk(out);
    REQUIRE(again->nvtx_payloads.schemas.size() == 4);
    CHECK(again->str(again->nvtx_payloads.schemas[0].domain_name_id) == "NCCL");
    CHECK(again->nvtx_payloads.entries.size() == model->nvtx_payloads.entries.size());
    std::filesystem::remove_all(dir);
}

}  // namespace lanescope::test
