// NVTX extended payloads read by both Nsight Systems readers: the native .nsys-rep reader gives
// every NCCL range the same decoded fields as nsys's export made with --include-blobs=true; an
// export without blobs has the schemas and no values; damaged blobs are shown as bytes.
#include <sqlite3.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

#include "ImportHelpers.h"
#include "model/NvtxPayloadDecoder.h"

namespace lanescope {
namespace {

using test::dataFile;
using test::importOk;

// One NVTX range or mark carrying a payload, found the same way in any reader's report: its
// thread, times and name, with its decoded fields as "name=text|uint|int|float" lines.
struct PayloadEvent {
    int64_t tid = 0;
    int64_t start = 0, end = 0;
    std::string name;
    std::vector<std::string> fields;
    auto key() const { return std::tie(tid, start, end, name); }
    bool operator<(const PayloadEvent& o) const { return key() < o.key(); }
};

std::string fieldLine(const NvtxPayloadField& f) {
    auto opt = [](const auto& v) { return v ? std::to_string(*v) : std::string("-"); };
    return f.name + "=" + f.text + "|" + opt(f.uint_value) + "|" + opt(f.int_value) + "|" + opt(f.float_value);
}

std::vector<std::string> payloadLines(const std::vector<NvtxPayloadField>& fields) {
    std::vector<std::string> out;
    for (const NvtxPayloadField& f : fields) out.push_back(fieldLine(f));
    return out;
}

// The payload-carrying ranges and marks of the threads' NVTX lanes, sorted.
std::vector<PayloadEvent> payloadEvents(const Report& r) {
    std::vector<PayloadEvent> all;
    for (uint32_t l = 0; l < r.lanes.size(); ++l) {
        const Lane& lane = r.lanes[l];
        if (lane.kind != LaneKind::Nvtx && lane.kind != LaneKind::NvtxStartEnd) continue;
        const int64_t tid = r.threads[size_t(lane.thread)].tid;
        for (uint32_t e = 0; e < lane.events.size(); ++e)
            if (hasNvtxPayload(r, l, e))
                all.push_back({tid, lane.events.start_ns[e], lane.events.endNs(e),
                               std::string(r.str(lane.events.name_id[e])), payloadLines(nvtxPayloadFields(r, l, e))});
        for (uint32_t i = 0; i < lane.instants.size(); ++i)
            if (hasNvtxMarkPayload(r, l, i))
                all.push_back({tid, lane.instants.time_ns[i], lane.instants.time_ns[i],
                               std::string(r.str(lane.instants.name_id[i])),
                               payloadLines(nvtxMarkPayloadFields(r, l, i))});
    }
    std::sort(all.begin(), all.end());
    return all;
}

// The schemas as text, in the report's order, for comparing readers.
std::vector<std::string> schemaLines(const Report& r) {
    std::vector<std::string> out;
    const NvtxPayloads& p = r.nvtx_payloads;
    for (const NvtxPayloadSchema& s : p.schemas) {
        std::string line = std::string(r.str(s.domain_name_id)) + " " + std::to_string(s.schema_id) + " '" +
                           std::string(r.str(s.name_id)) + "' type " + std::to_string(s.type) + " flags " +
                           std::to_string(s.flags) + " size " + std::to_string(s.payload_size) + " align " +
                           std::to_string(s.align_to) + ":";
        for (uint32_t k = 0; k < s.entry_count; ++k) {
            const NvtxPayloadEntry& e = p.entries[s.first_entry + k];
            line += " [" + std::string(r.str(e.name_id)) + "/" + std::string(r.str(e.description_id)) + " " +
                    std::to_string(e.type) + " " + std::to_string(e.flags) + " " +
                    std::to_string(e.array_or_union_detail) + " @" + std::to_string(e.offset) + "]";
        }
        out.push_back(line);
    }
    for (const NvtxPayloadEnum& e : p.enums) {
        std::string line = "enum " + std::string(r.str(e.domain_name_id)) + " " + std::to_string(e.schema_id) + " '" +
                           std::string(r.str(e.name_id)) + "' size " + std::to_string(e.size) + ":";
        for (uint32_t k = 0; k < e.value_count; ++k) {
            const NvtxPayloadEnumValue& v = p.enum_values[e.first_value + k];
            line += " " + std::string(r.str(v.name_id)) + "=" + std::to_string(v.value) + (v.is_flag ? "f" : "");
        }
        out.push_back(line);
    }
    return out;
}

// Runs `sql` on a SQLite file; fails the test when it does not.
void execSql(const std::filesystem::path& file, const std::string& sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    INFO((error ? error : ""));
    sqlite3_free(error);
    sqlite3_close(db);
    REQUIRE(rc == SQLITE_OK);
}

uint64_t payloadDiagnostic(const Report& r, const std::string& name) {
    auto it = r.diagnostics.find(name);
    return it == r.diagnostics.end() ? 0 : it->second;
}

}  // namespace

TEST_CASE("every NCCL range of ddp_rank0 and ddp_rank1 decodes natively as from the export with blobs") {
    for (const char* rank : {"ddp_rank0", "ddp_rank1"}) {
        INFO(rank);
        const auto native = importOk(dataFile(std::string("nsys-2025.3/") + rank + ".nsys-rep"));
        const auto blobs = importOk(dataFile(std::string("nsys-2025.3/") + rank + ".blobs.sqlite"));
        CHECK(schemaLines(*native) == schemaLines(*blobs));
        const std::vector<PayloadEvent> a = payloadEvents(*native), b = payloadEvents(*blobs);
        REQUIRE(a.size() == 48);
        REQUIRE(b.size() == a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            INFO(a[i].name << " at " << a[i].start);
            CHECK(a[i].key() == b[i].key());
            CHECK(a[i].name.starts_with("nccl"));
            CHECK(a[i].fields.size() == 3);
            CHECK(a[i].fields == b[i].fields);
        }
        for (const Report* r : {native.get(), blobs.get()}) {
            CHECK(payloadDiagnostic(*r, "nvtx_payload_unknown_schema") == 0);
            CHECK(payloadDiagnostic(*r, "nvtx_payload_damaged") == 0);
            CHECK(payloadDiagnostic(*r, "nvtx_payload_unsupported_type") == 0);
        }
    }
}

TEST_CASE("nccl_payloads: a communicator's creation and destruction, every reduction, natively as from the export") {
    const auto native = importOk(dataFile("nsys-2025.3/nccl_payloads.nsys-rep"));
    const auto blobs = importOk(dataFile("nsys-2025.3/nccl_payloads.blobs.sqlite"));
    CHECK(schemaLines(*native) == schemaLines(*blobs));
    const std::vector<PayloadEvent> a = payloadEvents(*native), b = payloadEvents(*blobs);
    REQUIRE(a.size() == 10);
    REQUIRE(b.size() == a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].key() == b[i].key());
        CHECK(a[i].fields == b[i].fields);
    }
    const std::string comm = "NCCL communicator ID=17023047401672497576|17023047401672497576|-|-";
    CHECK(a[0].name == "ncclCommInitRankConfig");
    CHECK(a[0].fields == std::vector<std::string>{comm, "No. of ranks=1|-|1|-", "Rank=0|-|0|-", "CUDA device=0|-|0|-"});
    std::vector<std::string> reductions;
    for (const PayloadEvent& e : a)
        if (e.name == "ncclAllReduce") reductions.push_back(e.fields[2]);
    CHECK(reductions == std::vector<std::string>{"Reduction operation=Sum|0|-|-", "Reduction operation=Product|1|-|-",
                                                 "Reduction operation=Max|2|-|-", "Reduction operation=Min|3|-|-",
                                                 "Reduction operation=Avg|4|-|-"});
    CHECK(a[7].name == "ncclAllGather");
    CHECK(a[7].fields == std::vector<std::string>{comm, "Message size [bytes]=4096|4096|-|-"});
    CHECK(a[8].name == "ncclCommFinalize");
    CHECK(a[8].fields == std::vector<std::string>{comm});
    CHECK(a[9].name == "ncclCommDestroy");
    CHECK(native->diagnostics.empty());
}

TEST_CASE("an NCCL all-reduce's payload: communicator, message size and the reduction's name") {
    const auto r = importOk(dataFile("nsys-2025.3/ddp_rank0.nsys-rep"));
    const std::vector<PayloadEvent> all = payloadEvents(*r);
    const auto allReduce = std::find_if(
        all.begin(), all.end(), [](const PayloadEvent& e) { return e.name == "ncclAllReduce" && e.start == 51222795; });
    REQUIRE(allReduce != all.end());
    CHECK(allReduce->fields ==
          std::vector<std::string>{"NCCL communicator ID=17496455130211587445|17496455130211587445|-|-",
                                   "Message size [bytes]=4348968|4348968|-|-", "Reduction operation=Sum|0|-|-"});
    const auto broadcast = std::find_if(
        all.begin(), all.end(), [](const PayloadEvent& e) { return e.name == "ncclBroadcast" && e.start == 46255421; });
    REQUIRE(broadcast != all.end());
    CHECK(broadcast->fields ==
          std::vector<std::string>{"NCCL communicator ID=17496455130211587445|17496455130211587445|-|-",
                                   "Message size [bytes]=512|512|-|-", "Root=0|-|0|-"});
}

TEST_CASE("the Nccl lane's copies of the NCCL ranges carry the originals' payloads") {
    for (const char* file : {"nsys-2025.3/ddp_rank0.nsys-rep", "nsys-2025.3/ddp_rank1.blobs.sqlite"}) {
        INFO(file);
        const auto r = importOk(dataFile(file));
        size_t copies = 0;
        for (uint32_t l = 0; l < r->lanes.size(); ++l) {
            const Lane& nccl = r->lanes[l];
            if (nccl.kind != LaneKind::Nccl) continue;
            for (uint32_t e = 0; e < nccl.events.size(); ++e) {
                if (nccl.events.kind[e] != EventKind::NvtxRange) {
                    CHECK_FALSE(hasNvtxPayload(*r, l, e));  // a kernel
                    continue;
                }
                REQUIRE(hasNvtxPayload(*r, l, e));
                ++copies;
                // The original: the thread lane's range of the same NvtxInfo row.
                bool found = false;
                for (const NvtxPayloadRow& row : r->nvtx_payloads.rows) {
                    if (row.nvtx != nccl.events.payload[e] || r->lanes[row.lane].kind == LaneKind::Nccl) continue;
                    found = true;
                    CHECK(payloadLines(nvtxPayloadFields(*r, row.lane, row.event)) ==
                          payloadLines(nvtxPayloadFields(*r, l, e)));
                    CHECK(r->lanes[row.lane].events.start_ns[row.event] == nccl.events.start_ns[e]);
                }
                CHECK(found);
            }
        }
        CHECK(copies == 48);
    }
}

TEST_CASE("an export without blobs imports cleanly: the schemas without values") {
    const auto r = importOk(dataFile("nsys-2025.3/ddp_rank0.sqlite"));
    const auto native = importOk(dataFile("nsys-2025.3/ddp_rank0.nsys-rep"));
    CHECK(schemaLines(*r) == schemaLines(*native));
    CHECK(r->nvtx_payloads.schemas.size() == 4);
    CHECK(r->nvtx_payloads.enums.size() == 1);
    CHECK(r->nvtx_payloads.rows.empty());
    CHECK(r->nvtx_payloads.bytes.empty());
    CHECK(payloadEvents(*r).empty());
    for (const auto& [name, count] : r->diagnostics) CHECK(name.find("payload") == std::string::npos);
}

TEST_CASE("the native reader keeps the recording machine's type sizes and the schemas' processes") {
    const auto r = importOk(dataFile("nsys-2025.3/ddp_both_ranks.nsys-rep"));
    const NvtxPayloads& p = r->nvtx_payloads;
    REQUIRE(p.type_info.size() == 27);
    CHECK(p.type_info[7 - 1].size == 8);    // long
    CHECK(p.type_info[21 - 1].size == 16);  // long double
    REQUIRE(p.schemas.size() == 8);         // each of the two processes registered NCCL's four
    CHECK(p.schemas[0].process != p.schemas[4].process);
    CHECK(p.schemas[0].process >= 0);
    CHECK(r->str(p.schemas[0].domain_name_id) == "NCCL");
    const auto exported = importOk(dataFile("nsys-2025.3/ddp_both_ranks.sqlite"));
    CHECK(schemaLines(*exported) == schemaLines(*r));
    CHECK(exported->nvtx_payloads.schemas[0].process == -1);  // the export does not say
    // Each process's ranges decode through its own registration.
    const std::vector<PayloadEvent> all = payloadEvents(*r);
    CHECK(all.size() == 48);  // 24 in each process
    for (const PayloadEvent& e : all) CHECK(e.fields.size() == 3);
}

TEST_CASE("Python sampling marks (cpu_1gpu) decode through nested schemas, an enum, arrays and registered strings") {
    const auto r = importOk(dataFile("nsys-2025.3/cpu_1gpu.nsys-rep"));
    const std::vector<PayloadEvent> all = payloadEvents(*r);
    CHECK(all.size() == 1301);
    CHECK(payloadDiagnostic(*r, "nvtx_payload_unknown_schema") == 0);
    CHECK(payloadDiagnostic(*r, "nvtx_payload_damaged") == 0);
    // The file's first: thread 485's at 16696245 ns (several threads are sampled at once).
    const auto first =
        std::find_if(all.begin(), all.end(), [](const PayloadEvent& e) { return e.start == 16696245 && e.tid == 485; });
    REQUIRE(first != all.end());
    REQUIRE(first->fields.size() >= 6);
    CHECK(first->fields[1] == "Thread state=Blocking Wait|2|-|-");
    CHECK(first->fields[2] == "Frames count=5|5|-|-");
    CHECK(first->fields[3] == "Frames[0].Function=wait|66|-|-");
    CHECK(first->fields[4] == "Frames[0].File=/usr/lib/python3.12/threading.py|67|-|-");
    CHECK(first->fields[5] == "Frames[0].Line=355|-|355|-");
    CHECK(first->fields.size() == 3 + 5 * 3);
}

TEST_CASE("hand-damaged blobs of an export are shown as bytes and counted, the others decoded") {
    const auto dir = test::tempDir("payload-blobs");
    const auto file = dir / "ddp_rank0.damaged.sqlite";
    std::filesystem::copy_file(dataFile("nsys-2025.3/ddp_rank0.blobs.sqlite"), file);
    std::filesystem::permissions(file, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    // The blob: u64 count, { u64 schema id, u64 size, u64 offset }, then 24 bytes of payload.
    execSql(file,
            "UPDATE NVTX_EVENTS SET binaryData = substr(binaryData, 1, 40) WHERE rowid = 7;"  // cut short
            "UPDATE NVTX_EVENTS SET binaryData = substr(binaryData, 1, 8) || X'FFFF000100000000' || "
            "substr(binaryData, 17) WHERE rowid = 8;"  // a schema id nobody registered
            "UPDATE NVTX_EVENTS SET binaryData = substr(binaryData, 1, 16) || X'0800000000000000' || "
            "substr(binaryData, 25) WHERE rowid = 12;"  // 8 bytes where the schema needs 24
            "UPDATE NVTX_EVENTS SET binaryData = X'0000000000000010' || substr(binaryData, 9) "
            "WHERE rowid = 13;");  // a count of 2^60 payloads
    const auto r = importOk(file);
    CHECK(payloadDiagnostic(*r, "nvtx_payload_damaged") == 3);
    CHECK(payloadDiagnostic(*r, "nvtx_payload_unknown_schema") == 1);
    const std::vector<PayloadEvent> all = payloadEvents(*r);
    REQUIRE(all.size() == 48);
    std::map<int64_t, std::string> bytes;  // start -> the hex shown
    for (const PayloadEvent& e : all)
        if (e.fields.size() == 1)
            bytes[e.start] = e.fields[0];
        else
            CHECK(e.fields.size() == 3);
    CHECK(bytes.size() == 4);
    // rowid 7 (ncclBroadcast at 46255421): the 40 bytes left, whole.
    CHECK(bytes[46255421] ==
          "bytes=01000000000000000600000100000000180000000000000020000000000000007595d2a03de5cff2|-|-|-");
    // rowid 8 (at 46340223): its 24 bytes, of a schema the report does not hold.
    CHECK(bytes[46340223] == "bytes=7595d2a03de5cff208000000000000000000000000000000|-|-|-");
    // rowid 12: the 8 bytes its table gives, too few for its schema.
    CHECK(bytes[51222795] == "bytes=7595d2a03de5cff2|-|-|-");
    // rowid 13: a table that cannot fit, so the blob whole.
    CHECK(bytes[52022465] ==
          "bytes=00000000000000100500000100000000180000000000000020000000000000007595d2a03de5cff200a4"
          "04000000000000000000c27f0000|-|-|-");
    std::filesystem::remove_all(dir);
}

TEST_CASE("a damaged schema block of a .nsys-rep leaves the events and shows every payload as bytes") {
    const auto dir = test::tempDir("payload-rep");
    const auto file = dir / "ddp_rank0.damaged.nsys-rep";
    std::string bytes = test::readFile(dataFile("nsys-2025.3/ddp_rank0.nsys-rep"));
    // The schema block (LZ4) holds the entries' names as literals: spoil the bytes around one.
    const size_t at = bytes.find("NCCL communicator ID");
    REQUIRE(at != std::string::npos);
    REQUIRE(bytes.find("NCCL communicator ID", at + 1) == std::string::npos);
    std::fill(bytes.begin() + std::ptrdiff_t(at) - 60, bytes.begin() + std::ptrdiff_t(at) + 20, '\xFF');
    {
        std::ofstream out(file, std::ios::binary);
        out << bytes;
    }
    const auto r = importOk(file);
    CHECK(payloadDiagnostic(*r, "nvtx_payload_schemas_damaged") == 1);
    CHECK(r->nvtx_payloads.schemas.empty());
    CHECK(payloadDiagnostic(*r, "nvtx_payload_unknown_schema") == 48);
    const std::vector<PayloadEvent> all = payloadEvents(*r);
    REQUIRE(all.size() == 48);
    for (const PayloadEvent& e : all) {
        REQUIRE(e.fields.size() == 1);
        CHECK(e.fields[0].starts_with("bytes=7595d2a03de5cff2"));
    }
    std::filesystem::remove_all(dir);
}

}  // namespace lanescope
