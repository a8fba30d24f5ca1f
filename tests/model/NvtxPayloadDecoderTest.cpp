// The NVTX extended-payload decoder on hand-built schemas and bytes: every kind of entry the
// public header defines that the decoder reads, their layout, and damage of every kind.
#include <bit>
#include <catch2/catch.hpp>
#include <cstring>

#include "model/DiagnosticKinds.h"
#include "model/NvtxPayloadDecoder.h"
#include "model/NvtxPayloadPlacement.h"
#include "support/TinyReport.h"

using namespace lanescope;
using lanescope::test::TinyReport;

namespace {

// Entry flags and types of nvToolsExtPayload.h.
constexpr uint64_t kPointer = 1 << 1, kFixed = 1 << 4, kZeroTerminated = 2 << 4, kLengthIndex = 3 << 4;
constexpr uint64_t kChar = 1, kUint8 = 12, kInt16 = 13, kUint16 = 14, kInt32 = 15, kUint32 = 16, kInt64 = 17,
                   kUint64 = 18, kFloat = 19, kDouble = 20, kSize = 22, kAddress = 23, kChar16 = 26, kByte = 32,
                   kInt128 = 33, kFloat16 = 42, kBf16 = 50, kUnorm8 = 62, kCString = 75, kUtf16 = 77,
                   kRegisteredString = 80, kUnionSelector = 100;
constexpr uint64_t kStatic = 1, kDynamic = 2, kUnion = 3;

// A report with one thread's NVTX lane in domain "Demo", schemas and enums registered there, and
// payloads added to ranges: place() freezes the lane and places them as finishReport does.
struct PayloadReport {
    TinyReport t;
    uint32_t lane = 0;
    uint32_t domain = 0;
    std::vector<uint64_t> starts;  // each range's start, in the order added

    PayloadReport() {
        const int32_t thread = t.thread(t.process(10, "app"), 11, "main");
        lane = t.cpuLane(LaneKind::Nvtx, thread, "NVTX");
        domain = t.r.strings.intern("Demo");
    }
    struct E {
        const char* name;
        uint64_t type;
        uint64_t offset = 0;
        uint64_t flags = 0;
        uint64_t detail = 0;
    };
    void schema(uint64_t id, std::vector<E> entries, uint64_t size = 0, uint64_t type = kStatic,
                const char* name = "") {
        NvtxPayloads& p = t.r.nvtx_payloads;
        NvtxPayloadSchema s;
        s.schema_id = id;
        s.type = uint8_t(type);
        s.payload_size = size;
        s.domain_name_id = domain;
        s.name_id = t.r.strings.intern(name);
        s.process = 0;
        s.first_entry = uint32_t(p.entries.size());
        for (const E& e : entries)
            p.entries.push_back({e.flags, e.type, e.detail, e.offset, t.r.strings.intern(e.name), 0});
        s.entry_count = uint32_t(entries.size());
        p.schemas.push_back(s);
    }
    void enumeration(uint64_t id, std::vector<std::tuple<const char*, uint64_t, bool>> values, uint64_t size = 4) {
        NvtxPayloads& p = t.r.nvtx_payloads;
        NvtxPayloadEnum e;
        e.schema_id = id;
        e.size = size;
        e.domain_name_id = domain;
        e.first_value = uint32_t(p.enum_values.size());
        for (const auto& [name, value, flag] : values) p.enum_values.push_back({value, t.r.strings.intern(name), flag});
        e.value_count = uint32_t(values.size());
        p.enums.push_back(e);
    }
    // A range carrying `bytes` under schema `id`, at its own time (ranges do not overlap).
    void range(uint64_t id, const std::vector<uint8_t>& bytes, uint32_t nvtxDomain = UINT32_MAX) {
        NvtxInfo info;
        info.domain_name_id = nvtxDomain == UINT32_MAX ? domain : nvtxDomain;
        const uint32_t row = t.nvtx(info);
        const int64_t start = 1000 * int64_t(starts.size() + 1);
        t.event(lane, start, start + 10, "range", EventKind::NvtxRange, row);
        starts.push_back(uint64_t(start));
        NvtxPayloads& p = t.r.nvtx_payloads;
        NvtxPayloadRow r;
        r.nvtx = row;
        r.schema_id = id;
        r.offset = p.bytes.size();
        r.length = uint32_t(bytes.size());
        p.rows.push_back(r);
        p.bytes.insert(p.bytes.end(), bytes.begin(), bytes.end());
    }
    void place() {
        t.freeze();
        placeNvtxPayloads(t.r);
    }
    std::vector<NvtxPayloadField> fields(uint32_t event) const { return nvtxPayloadFields(t.r, lane, event); }
    std::vector<std::string> text(uint32_t event) const {
        std::vector<std::string> out;
        for (const NvtxPayloadField& f : fields(event)) out.push_back(f.name + "=" + f.text);
        return out;
    }
    uint64_t diagnostic(Diag d) const {
        auto it = t.r.diagnostics.find(std::string(diagnosticKind(d).name));
        return it == t.r.diagnostics.end() ? 0 : it->second;
    }
};

// Little-endian bytes of a value, appended.
template <typename T>
void put(std::vector<uint8_t>& out, T value) {
    uint8_t raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    out.insert(out.end(), raw, raw + sizeof(T));
}
void pad(std::vector<uint8_t>& out, size_t to) { out.resize(std::max(out.size(), to), 0); }

// NCCL 2.19+'s schemas for collectives and communicator creation (as ddp_rank0.nsys-rep holds them).
void ncclSchemas(PayloadReport& p) {
    p.enumeration(16777236,
                  {{"Sum", 0, false}, {"Product", 1, false}, {"Max", 2, false}, {"Min", 3, false}, {"Avg", 4, false}});
    p.schema(
        16777221,
        {{"NCCL communicator ID", kUint64}, {"Message size [bytes]", kSize, 8}, {"Reduction operation", 16777236, 16}},
        24);
    p.schema(16777227,
             {{"NCCL communicator ID", kUint64}, {"No. of ranks", 5, 8}, {"Rank", 5, 12}, {"CUDA device", 5, 16}}, 24);
}

}  // namespace

TEST_CASE("NCCL's payloads: an all-reduce with its reduction by name, a communicator's creation") {
    PayloadReport p;
    ncclSchemas(p);
    std::vector<uint8_t> allReduce, init;
    put<uint64_t>(allReduce, 0xF2CFE53DA0D29575ull);
    put<uint64_t>(allReduce, 4348968);
    put<int32_t>(allReduce, 4);        // Avg
    put<uint32_t>(allReduce, 0x7FC2);  // padding, whatever it holds
    p.range(16777221, allReduce);
    put<uint64_t>(init, 0xF2CFE53DA0D29575ull);
    put<int32_t>(init, 2);
    put<int32_t>(init, 1);
    put<int32_t>(init, 1);
    pad(init, 24);
    p.range(16777227, init);
    p.place();
    CHECK(p.text(0) == std::vector<std::string>{"NCCL communicator ID=17496455130211587445",
                                                "Message size [bytes]=4348968", "Reduction operation=Avg"});
    const auto op = p.fields(0)[2];
    CHECK(op.uint_value == 4u);
    CHECK_FALSE(op.int_value);
    CHECK(p.text(1) == std::vector<std::string>{"NCCL communicator ID=17496455130211587445", "No. of ranks=2", "Rank=1",
                                                "CUDA device=1"});
    CHECK(p.fields(1)[1].int_value == 2);
    CHECK(hasNvtxPayload(p.t.r, p.lane, 1));
    CHECK(p.t.r.diagnostics.empty());
}

TEST_CASE("numbers of every width and kind, with their values typed") {
    PayloadReport p;
    p.schema(1 << 24, {{"i16", kInt16},
                       {"u16", kUint16, 2},
                       {"i32", kInt32, 4},
                       {"u32", kUint32, 8},
                       {"i64", kInt64, 16},
                       {"f", kFloat, 24},
                       {"d", kDouble, 32},
                       {"half", kFloat16, 40},
                       {"bf16", kBf16, 42},
                       {"unorm", kUnorm8, 44},
                       {"byte", kByte, 45},
                       {"addr", kAddress, 48},
                       {"i128", kInt128, 64}});
    std::vector<uint8_t> b;
    put<int16_t>(b, -2);
    put<uint16_t>(b, 65535);
    put<int32_t>(b, -70000);
    put<uint32_t>(b, 4000000000u);
    pad(b, 16);
    put<int64_t>(b, INT64_MIN);
    put<float>(b, 0.1f);
    pad(b, 32);
    put<double>(b, -2.5);
    put<uint16_t>(b, 0x3C00);  // half 1.0
    put<uint16_t>(b, 0xC040);  // bf16 -3.0
    put<uint8_t>(b, 255);
    put<uint8_t>(b, 0xAB);
    pad(b, 48);
    put<uint64_t>(b, 0x7ffd1234);
    pad(b, 64);
    put<uint64_t>(b, ~uint64_t{0} - 1);  // int128 -2: low half ...
    put<uint64_t>(b, ~uint64_t{0});      // ... high half all ones
    p.range(1 << 24, b);
    p.place();
    CHECK(p.text(0) == std::vector<std::string>{"i16=-2", "u16=65535", "i32=-70000", "u32=4000000000",
                                                "i64=-9223372036854775808", "f=0.1", "d=-2.5", "half=1", "bf16=-3",
                                                "unorm=1", "byte=ab", "addr=0x7ffd1234", "i128=-2"});
    const auto f = p.fields(0);
    CHECK(f[0].int_value == -2);
    CHECK(f[1].uint_value == 65535u);
    CHECK(f[5].float_value == Approx(0.1));
    CHECK(f[6].float_value == -2.5);
    CHECK(f[12].int_value == -2);
}

TEST_CASE("offsets left out are found by natural alignment, or by the schema's packing") {
    PayloadReport p;
    p.schema(1 << 24, {{"a", kUint8}, {"b", kUint32}, {"c", kUint16}, {"d", kUint64}});
    std::vector<uint8_t> b(24, 0);
    b[0] = 1, b[4] = 2, b[8] = 3, b[16] = 4;
    p.range(1 << 24, b);
    p.schema((1 << 24) + 1, {{"a", kUint8}, {"b", kUint32}});
    p.t.r.nvtx_payloads.schemas.back().align_to = 1;  // packed
    p.range((1 << 24) + 1, {7, 8, 0, 0, 0});
    p.place();
    CHECK(p.text(0) == std::vector<std::string>{"a=1", "b=2", "c=3", "d=4"});
    CHECK(p.text(1) == std::vector<std::string>{"a=7", "b=8"});
}

TEST_CASE("nested structs, arrays of each kind, strings of each kind, enums of flags") {
    PayloadReport p;
    p.enumeration(100 << 24, {{"READ", 1, true}, {"WRITE", 2, true}, {"EXEC", 4, true}, {"NONE", 0, false}}, 1);
    p.schema(1 << 25, {{"x", kInt32}, {"y", kInt32, 4}}, 8, kStatic, "point");
    p.t.r.nvtx_payloads.registered_strings = {kNoRegisteredString, p.t.r.strings.intern("registered!")};
    p.schema(1ull << 32,
             {{"count", kUint32},
              {"mode", 100 << 24, 4},
              {"origin", 1 << 25, 8},
              {"points", 1 << 25, 16, kLengthIndex, 0},
              {"fixed", kUint16, 0, kFixed, 3},
              {"name", kChar, 0, kFixed, 8},
              {"label", kCString, 0, kZeroTerminated},
              {"wide", kChar16, 0, kZeroTerminated},
              {"utf16", kUtf16, 0, 0, 3},
              {"handle", kRegisteredString},
              {"ptr", kUint32, 0, kPointer},
              {"ids", kUint8, 0, kZeroTerminated},
              {"tail", kUint8}},
             0, kDynamic);
    std::vector<uint8_t> b;
    put<uint32_t>(b, 2);
    put<uint8_t>(b, 3);  // READ | WRITE
    pad(b, 8);
    put<int32_t>(b, -1), put<int32_t>(b, 1);                                             // origin
    put<int32_t>(b, 10), put<int32_t>(b, 20), put<int32_t>(b, 30), put<int32_t>(b, 40);  // points[2]
    put<uint16_t>(b, 5), put<uint16_t>(b, 6), put<uint16_t>(b, 7);                       // fixed[3]
    for (char c : std::string("abc\0\0\0\0\0", 8)) b.push_back(uint8_t(c));              // name[8]
    for (char c : std::string("hello\0", 6)) b.push_back(uint8_t(c));                    // label
    put<uint16_t>(b, 'h'), put<uint16_t>(b, 'i'), put<uint16_t>(b, 0);                   // wide, zero-terminated
    put<uint16_t>(b, 0xD83D), put<uint16_t>(b, 0xDE00), put<uint16_t>(b, 'x');           // utf16[3]: U+1F600, x
    pad(b, (b.size() + 7) / 8 * 8);
    put<uint64_t>(b, 1);                             // handle
    put<uint64_t>(b, 0xdeadbeef);                    // ptr
    b.push_back(9), b.push_back(8), b.push_back(0);  // ids, zero-terminated
    b.push_back(77);                                 // tail
    p.range(1ull << 32, b);
    p.place();
    CHECK(p.text(0) == std::vector<std::string>{"count=2",
                                                "mode=READ | WRITE",
                                                "origin.x=-1",
                                                "origin.y=1",
                                                "points[0].x=10",
                                                "points[0].y=20",
                                                "points[1].x=30",
                                                "points[1].y=40",
                                                "fixed[0]=5",
                                                "fixed[1]=6",
                                                "fixed[2]=7",
                                                "name=abc",
                                                "label=hello",
                                                "wide=hi",
                                                "utf16=\xF0\x9F\x98\x80x",
                                                "handle=registered!",
                                                "ptr=0xdeadbeef",
                                                "ids[0]=9",
                                                "ids[1]=8",
                                                "tail=77"});
    CHECK(p.fields(0)[1].uint_value == 3u);
    CHECK(p.t.r.diagnostics.empty());
}

TEST_CASE("a char* inside a struct is a pointer: its address, and the struct its size") {
    PayloadReport p;
    p.schema(1 << 27, {{"label", kCString}, {"n", kUint32}}, 0, kStatic, "item");  // { char*; uint32_t } = 16 bytes
    p.schema((1 << 27) + 1, {{"items", 1 << 27, 0, kFixed, 2}, {"after", kUint8}});
    std::vector<uint8_t> b;
    put<uint64_t>(b, 0x1000), put<uint32_t>(b, 1), pad(b, 16);
    put<uint64_t>(b, 0x2000), put<uint32_t>(b, 2), pad(b, 32);
    b.push_back(9);
    p.range((1 << 27) + 1, b);
    p.place();
    CHECK(p.text(0) == std::vector<std::string>{"items[0].label=0x1000", "items[0].n=1", "items[1].label=0x2000",
                                                "items[1].n=2", "after=9"});
}

TEST_CASE("damaged payloads and unknown schemas are bytes in hex, each counted once") {
    PayloadReport p;
    ncclSchemas(p);
    p.schema(1 << 26, {{"self", 1 << 26}});                                                         // nests itself
    p.schema((1 << 26) + 1, {{"n", kUint8}, {"items", kUint64, 1, kLengthIndex, 0}}, 0, kDynamic);  // too long
    p.schema((1 << 26) + 2, {{"selector", kUnionSelector}});                                        // not decoded
    p.schema((1 << 26) + 3, {{"u", kUint32}}, 4, kUnion);                                  // a union on its own
    p.schema((1 << 26) + 4, {{"missing", (1 << 26) + 99}});                                // names an absent schema
    p.range(16777221, {1, 2, 3});                                                          // shorter than its schema
    p.range(0x1234567, {0xAA});                                                            // unknown schema
    p.range(16777221, std::vector<uint8_t>(24, 0), p.t.r.strings.intern("other domain"));  // its domain has none
    p.range(1 << 26, {1, 2, 3, 4});
    p.range((1 << 26) + 1, {200, 0, 0, 0, 0, 0, 0, 0, 1, 2});
    p.range((1 << 26) + 2, {1, 2, 3, 4});
    p.range((1 << 26) + 3, {1, 2, 3, 4});
    p.range((1 << 26) + 4, {1, 2, 3, 4});
    p.range(0, {5, 6});     // a container a reader could not take apart
    p.range(1023, {0xFF});  // raw bytes: known
    p.range(1022, {0xFF});  // referenced by another: not shown
    p.place();
    const std::vector<std::pair<uint32_t, std::string>> asBytes = {
        {0, "010203"},   {1, "aa"},       {2, std::string(48, '0')}, {3, "01020304"}, {4, "c8000000000000000102"},
        {5, "01020304"}, {6, "01020304"}, {7, "01020304"},           {8, "0506"},     {9, "ff"}};
    for (const auto& [event, hex] : asBytes) {
        INFO("event " << event);
        const auto f = p.fields(event);
        REQUIRE(f.size() == 1);
        CHECK(f[0].name == "bytes");
        CHECK(f[0].text == hex);
        CHECK_FALSE(f[0].uint_value);
    }
    CHECK(p.fields(10).empty());
    CHECK(hasNvtxPayload(p.t.r, p.lane, 10));
    CHECK(p.diagnostic(Diag::NvtxPayloadDamaged) == 4);        // short, nesting, too long, container
    CHECK(p.diagnostic(Diag::NvtxPayloadUnknownSchema) == 3);  // unknown, other domain, missing nested
    CHECK(p.diagnostic(Diag::NvtxPayloadUnsupportedType) == 2);
}

TEST_CASE("placing payloads: sorted by event, copies in an Nccl lane, unheld ones dropped with their bytes") {
    PayloadReport p;
    ncclSchemas(p);
    std::vector<uint8_t> a(24, 1), b(24, 2);
    p.range(16777221, a);
    p.range(16777221, b);
    // A payload whose event no lane holds (its range was moved to an MPI lane): dropped.
    const uint32_t orphan = p.t.nvtx(NvtxInfo{});
    p.t.r.nvtx_payloads.rows.push_back({0, 0, orphan, 3, 16777221, p.t.r.nvtx_payloads.bytes.size(), false});
    p.t.r.nvtx_payloads.bytes.insert(p.t.r.nvtx_payloads.bytes.end(), {9, 9, 9});
    // The Nccl lane holds a copy of the second range.
    const uint32_t secondRow = p.t.r.lanes[p.lane].events.payload[1];
    const uint32_t nccl = p.t.gpuLane(LaneKind::Nccl, 0, -1, -1, "NCCL");
    p.t.event(nccl, 2000, 2010, "range", EventKind::NvtxRange, secondRow);
    p.place();
    const NvtxPayloads& placed = p.t.r.nvtx_payloads;
    REQUIRE(placed.rows.size() == 3);
    CHECK(placed.bytes.size() == 48);
    CHECK(placed.rows[0].lane == p.lane);
    CHECK(placed.rows[0].event == 0);
    CHECK(placed.rows[1].event == 1);
    CHECK(placed.rows[2].lane == nccl);
    CHECK(placed.rows[2].offset == placed.rows[1].offset);  // the copy shares the bytes
    CHECK(nvtxPayloadFields(p.t.r, nccl, 0)[1].text == nvtxPayloadFields(p.t.r, p.lane, 1)[1].text);
    CHECK_FALSE(hasNvtxPayload(p.t.r, p.lane, 2));
    CHECK(nvtxPayloadFields(p.t.r, 99, 0).empty());
}
