// Times 2^62 ns or more from the report's zero are skipped and counted as
// timestamp_out_of_range in every importer, so that the difference of any two times kept fits
// in int64: nsys counters (GPU metrics, CUDA memory usage) and Perfetto track events here; nsys
// event tables in the damaged corpus (tests/robustness).
#include <fstream>

#include "ImportHelpers.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

void runSql(const std::filesystem::path& path, const std::string& sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
}

// Protocol buffer encoding, enough for a hand-made Perfetto trace.
std::string varint(uint64_t v) {
    std::string out;
    do {
        out += static_cast<char>((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return out;
}
std::string field(int number, uint64_t value) { return varint(static_cast<uint64_t>(number) << 3) + varint(value); }
std::string field(int number, const std::string& bytes) {
    return varint(static_cast<uint64_t>(number) << 3 | 2) + varint(bytes.size()) + bytes;
}

// Trace.packet(1) { timestamp(8), trusted_packet_sequence_id(10), track_event(11) { type(9),
// track_uuid(11), name(23) } }.
std::string slicePacket(uint64_t timestamp, int type, const std::string& name) {
    std::string event = field(9, static_cast<uint64_t>(type)) + field(11, 7);
    if (!name.empty()) event += field(23, name);
    return field(1, field(8, timestamp) + field(10, 1) + field(11, event));
}

}  // namespace

TEST_CASE("nsys counter samples beyond 2^62 ns are skipped and counted") {
    const auto dir = tempDir("counterrange");
    const auto path = dir / "metrics.sqlite";
    const auto original = dataFile("nsys-2025.3/train_metrics.sqlite");
    std::filesystem::copy_file(original, path);
    const uint64_t before = importOk(original)->counts().counter_samples;
    runSql(path,
           "UPDATE GPU_METRICS SET timestamp = 9223372036854775807 WHERE rowid % 100 = 0;"
           "UPDATE CUDA_GPU_MEMORY_USAGE_EVENTS SET start = -9223372036854775808, bytes = -9223372036854775808 "
           "WHERE rowid % 10 = 0;");
    const int64_t skipped = sqliteInt(path,
                                      "SELECT (SELECT count(*) FROM GPU_METRICS WHERE rowid % 100 = 0) + "
                                      "(SELECT count(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE rowid % 10 = 0)");
    REQUIRE(skipped > 0);
    const auto report = importOk(path);
    CHECK(report->diagnostics.at("timestamp_out_of_range") == static_cast<uint64_t>(skipped));
    CHECK(report->counts().counter_samples == before - static_cast<uint64_t>(skipped));
    CHECK(report->meta.end_ns - report->meta.begin_ns < (int64_t{1} << 62));
    std::filesystem::remove_all(dir);
}

TEST_CASE("Perfetto events beyond 2^62 ns are skipped and counted") {
    const auto dir = tempDir("perfettorange");
    const auto path = dir / "far.pftrace";
    std::ofstream(path, std::ios::binary)
        << slicePacket(1000, 1, "kept") << slicePacket(2000, 2, "") << slicePacket(UINT64_MAX, 1, "far")
        << slicePacket(uint64_t{1} << 62, 2, "") << slicePacket((uint64_t{1} << 62) - 1, 3, "last instant");
    const auto report = importOk(path);
    CHECK(report->diagnostics.at("timestamp_out_of_range") == 2);
    CHECK(report->counts().slices == 1);
    CHECK(report->counts().instants == 1);
    CHECK(report->meta.end_ns == (int64_t{1} << 62) - 1);
    std::filesystem::remove_all(dir);
}
