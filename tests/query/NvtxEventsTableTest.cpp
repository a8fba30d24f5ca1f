// NVTX_EVENTS as nsys 2025.3's export with --include-blobs=true writes it: registered names as
// textId (the StringIds id nsys gives them), nsys's domainId, and the extended payloads'
// binaryData byte for byte, read natively and from the export.
#include <catch2/catch.hpp>
#include <string>

#include "TestPaths.h"
#include "importers/ImportHelpers.h"
#include "query/ReportSql.h"
#include "tests/query/SqlRows.h"

namespace lanescope::test {
namespace {

// Every column nsys writes for these reports' NVTX events, the blob in hex.
constexpr const char* kEveryColumn =
    "SELECT rowid, start, end, eventType, category, color, text, globalTid, textId, domainId, hex(binaryData) "
    "FROM NVTX_EVENTS";

}  // namespace

TEST_CASE("NVTX_EVENTS equals the blobs export: NCCL's registered names as textId, domainId, binaryData", "[sql]") {
    for (const char* name : {"ddp_rank0", "ddp_rank1", "nccl_payloads"}) {
        const std::string base = std::string("nsys-2025.3/") + name;
        const auto blobs = dataFile(base + ".blobs.sqlite");
        const auto expected = exportRows(blobs, kEveryColumn);
        REQUIRE(expected);
        for (const auto& input : {dataFile(base + ".nsys-rep"), blobs}) {
            INFO(input.filename().string());
            const auto model = importOk(input);
            auto session = openSqlOk(*model);
            const Rows got = lanescopeRows(*session, kEveryColumn);
            INFO("only in Lanescope's: " << onlyIn(got, *expected)
                                         << "\nonly in the export's: " << onlyIn(*expected, got));
            CHECK(got == *expected);
        }
    }
}

TEST_CASE("the NCCL ranges of ddp_rank0 name ncclAllReduce and ncclBroadcast by textId, text NULL", "[sql]") {
    const auto model = importOk(dataFile("nsys-2025.3/ddp_rank0.nsys-rep"));
    auto session = openSqlOk(*model);
    const std::string query =
        "SELECT e.textId, s.value, e.domainId, count(*) FROM NVTX_EVENTS e JOIN StringIds s ON s.id = e.textId "
        "WHERE e.text IS NULL GROUP BY 1, 2, 3";
    CHECK(lanescopeRows(*session, query) == Rows{"20|ncclAllReduce|1|24|", "23|ncclBroadcast|1|24|"});
    CHECK(lanescopeRows(*session, query) == *exportRows(dataFile("nsys-2025.3/ddp_rank0.sqlite"), query));
    // The domains: nsys's numbers, named by their creations.
    CHECK(lanescopeRows(*session, "SELECT domainId, text FROM NVTX_EVENTS WHERE eventType = 75") ==
          Rows{"1|NCCL|", "2|cuBLAS|"});
}

}  // namespace lanescope::test
