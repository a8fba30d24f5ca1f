// The fast reader of a Kineto trace's events (importers/kineto/FastEventReader) against the
// simdjson reader it stands in for: the same Events, field by field, the same non-objects and
// the same errors, on every trace we have, a generated one, hand-made unusual and invalid
// events and randomly damaged pieces.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "TestPaths.h"
#include "importers/kineto/BlockReader.h"
#include "importers/kineto/EventBatch.h"
#include "importers/kineto/EventScan.h"
#include "importers/kineto/FastEventReader.h"
#include "importers/kineto/JsonEventStream.h"
#include "tests/bench/KinetoTraceWriter.h"
#include "tests/support/Rng.h"

using namespace lanescope;
using namespace lanescope::test;
using kineto::Event;
using kineto::EventBatch;

namespace {

// Every field of an Event, as text: two events are equal when their descriptions are.
static_assert(sizeof(Event) == 456, "Event changed: describe() must show every field");
std::string describe(const Event& e) {
    std::ostringstream o;
    o.precision(17);
    auto text = [&](const char* name, std::string_view s) { o << name << "=[" << s << "] "; };
    o << "ph=" << int{e.ph} << ' ';
    text("cat", e.cat);
    text("name", e.name);
    text("pidText", e.pidText);
    text("tidText", e.tidText);
    o << "pid=" << e.pid << " tid=" << e.tid << " ts=" << e.ts << " dur=" << e.dur << " hasTs=" << e.hasTs
      << " hasDur=" << e.hasDur << " device=" << e.device << " stream=" << e.stream << " context=" << e.context
      << " correlation=" << e.correlation << " bytes=" << e.bytes << " registers=" << e.registers
      << " shared=" << e.shared << " sortIndex=" << e.sortIndex << " rank=" << e.rank << " grid=" << e.grid[0] << ','
      << e.grid[1] << ',' << e.grid[2] << " block=" << e.block[0] << ',' << e.block[1] << ',' << e.block[2]
      << " waitOnStream=" << e.waitOnStream << " waitOnRecordCorrelation=" << e.waitOnRecordCorrelation
      << " waitOnEventId=" << e.waitOnEventId << " blocksPerSm=" << e.blocksPerSm << " warpsPerSm=" << e.warpsPerSm
      << " occupancyPct=" << e.occupancyPct << " memory=" << e.memory.bytes << ',' << e.memory.address << ','
      << e.memory.totalAllocated << ',' << e.memory.totalReserved << ',' << e.memory.deviceId << ','
      << e.memory.deviceType << ',' << e.memory.hasMemory << ' ';
    text("comms.name", e.comms.name);
    text("comms.dtype", e.comms.dtype);
    text("comms.groupName", e.comms.groupName);
    text("comms.groupRanks", e.comms.groupRanks);
    o << "comms=" << e.comms.inNelems << ',' << e.comms.outNelems << ',' << e.comms.groupSize << ',' << e.comms.hasComms
      << ' ';
    text("argName", e.argName);
    text("inputDims", e.inputDims);
    o << "counters=";
    for (const auto& [series, value] : e.counterValues) {
        o << '[' << series << "]=" << value;
        if (value == 0) o << (std::signbit(value) ? "(-)" : "(+)");
    }
    return o.str();
}

// A piece in a buffer of its own, simdjson's padding after it (bytes that are not JSON).
struct PaddedPiece {
    std::vector<char> bytes;
    size_t size = 0;
    explicit PaddedPiece(std::string_view piece) : bytes(piece.size() + simdjson::SIMDJSON_PADDING, '\x01') {
        std::memcpy(bytes.data(), piece.data(), piece.size());
        size = piece.size();
    }
    std::string_view view() const { return {bytes.data(), size}; }
};

// How the fast reader read the pieces it was given.
struct Routes {
    uint64_t pieces = 0, events = 0, eventsBySimdjson = 0, piecesBySimdjson = 0, errors = 0;
};

// Reads `piece` with parsePiece (the fast reader) and with simdjson alone; both give the same.
void checkSameReading(std::string_view piece, Routes& routes) {
    const PaddedPiece padded(piece);
    simdjson::ondemand::parser fastParser, simdjsonParser;
    EventBatch fast, expected;
    kineto::parsePiece(fastParser, padded.view(), fast);
    kineto::parsePieceWithSimdjson(simdjsonParser, padded.view(), expected);
    INFO("piece: " << (piece.size() < 3000 ? piece : piece.substr(0, 3000)));
    REQUIRE(fast.events.size() == expected.events.size());
    for (size_t i = 0; i < expected.events.size(); ++i) {
        INFO("event " << i);
        REQUIRE(describe(fast.events[i]) == describe(expected.events[i]));
    }
    CHECK(fast.notObjects == expected.notObjects);
    CHECK(simdjson::error_message(fast.error) == simdjson::error_message(expected.error));
    CHECK(fast.outOfMemory == expected.outOfMemory);
    // In parts, as the pipeline hands them over (PiecePipeline, readPart): the parts' events in
    // order are simdjson's (with an error, less the last part's overCounted), their non-objects
    // add up to simdjson's, the last part has the error.
    for (size_t bytes : {size_t{1}, size_t{300}}) {
        INFO("parts of " << bytes << " bytes");
        simdjson::ondemand::parser partsParser;
        kineto::FastPieceReader reader(partsParser, padded.view());
        kineto::PartsRead read;
        std::vector<std::string> events;
        uint64_t notObjects = 0;
        EventBatch part;
        do {
            kineto::readPart(reader, partsParser, padded.view(), part, read, bytes);
            for (const Event& e : part.events) events.push_back(describe(e));
            notObjects += part.notObjects;
        } while (!part.lastPart);
        REQUIRE(events.size() - part.overCounted == expected.events.size());
        for (size_t i = 0; i < expected.events.size(); ++i) {
            INFO("event " << i);
            REQUIRE(events[i] == describe(expected.events[i]));
        }
        CHECK(simdjson::error_message(part.error) == simdjson::error_message(expected.error));
        if (expected.error == simdjson::SUCCESS) CHECK(notObjects == expected.notObjects);
    }
    ++routes.pieces;
    routes.events += fast.events.size();
    routes.eventsBySimdjson += fast.eventsBySimdjson;
    routes.piecesBySimdjson += fast.pieceBySimdjson;
    routes.errors += fast.error != simdjson::SUCCESS;
}

// The pieces a trace file is cut into (JsonEventStream, pieces of about `pieceBytes`).
std::vector<std::string> piecesOf(const std::filesystem::path& path, size_t pieceBytes) {
    kineto::BlockReader reader;
    REQUIRE(reader.open(path));
    kineto::JsonEventStream stream(reader, {1 << 16, pieceBytes, 64 << 20}, simdjson::SIMDJSON_PADDING);
    std::vector<std::string> pieces;
    while (stream.next() == kineto::JsonEventStream::Status::Piece) pieces.emplace_back(stream.piece());
    return pieces;
}

Routes checkFile(const std::filesystem::path& path, size_t pieceBytes) {
    INFO(path.string() << ", pieces of " << pieceBytes << " bytes");
    Routes routes;
    for (const std::string& piece : piecesOf(path, pieceBytes)) checkSameReading(piece, routes);
    return routes;
}

// The JSON traces (.json, .json.gz) under `dir`, in name order.
std::vector<std::filesystem::path> tracesUnder(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> traces;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && (name.ends_with(".json") || name.ends_with(".json.gz")))
            traces.push_back(entry.path());
    }
    std::sort(traces.begin(), traces.end());
    return traces;
}

// A small event of each kind the reader reads, as PyTorch writes them.
const std::string kKernel =
    R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 14.5, "dur": 3, "args": {"device": 0, )"
    R"("stream": 7, "context": 1, "correlation": 5, "grid": [2, 1, 1], "block": [128, 1, 1], "registers per )"
    R"(thread": 32, "shared memory": 0, "blocks per SM": 0.5, "warps per SM": 4, "est. achieved occupancy %": 25}})";
const std::string kOp =
    R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 8, "ts": 10, "dur": 5, "args": )"
    R"({"External id": 3, "Input Dims": [[64, 10], [10]], "Input type": ["float", "float"]}})";
const std::string kCounter = R"({"ph": "C", "name": "mem", "pid": 7, "ts": 12, "args": {"a": 5, "b": 1.25}})";
const std::string kMemory =
    R"({"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 7, "tid": 8, "ts": 13, "s": "t", )"
    R"("args": {"Total Reserved": 2097152, "Total Allocated": 1024, "Bytes": 512, "Addr": 94000000000, )"
    R"("Device Type": 1, "Device Id": 0}})";

}  // namespace

// Sanitizer builds (ASan, TSan) run 5 to 20 times slower: there the traces over 1 MB are not
// also cut one event a piece (their events are read in pieces of 4 KiB and 1 MiB all the same).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

TEST_CASE("kineto fast reader: the traces of tests/data and the shared corpus read as simdjson reads them") {
#if defined(__SANITIZE_THREAD__)
    // The reader runs on one thread: ThreadSanitizer has nothing to find here that the release
    // and ASan runs of this case do not, at 20 times the cost.
    WARN("not run under ThreadSanitizer");
    return;
#endif
    std::vector<std::filesystem::path> traces = tracesUnder(dataFile(""));
    const std::filesystem::path corpus = sharedFile("");
    // The corpus's copies of tests/data's traces (same name and size) are read once.
    auto inTestData = [&](const std::filesystem::path& path) {
        return std::any_of(traces.begin(), traces.end(), [&](const std::filesystem::path& own) {
            return own.filename() == path.filename() &&
                   std::filesystem::file_size(own) == std::filesystem::file_size(path);
        });
    };
    if (corpus.empty())
        WARN("../shared/corpus is absent: only tests/data's traces are compared");
    else
        for (const auto& path : tracesUnder(corpus))
            if (!inTestData(path)) traces.push_back(path);
    uint64_t kinetoTraces = 0;
    for (const auto& path : traces) {
        // Only documents with a traceEvents array (or that are one) give pieces.
        if (piecesOf(path, 1 << 20).empty()) continue;
        ++kinetoTraces;
        const bool eventAPiece = !kSanitized || std::filesystem::file_size(path) < (1u << 20);
        for (size_t pieceBytes : {size_t{1}, size_t{4096}, size_t{1} << 20}) {
            if (pieceBytes == 1 && !eventAPiece) continue;
            const Routes routes = checkFile(path, pieceBytes);
            INFO(path.string());
            // These traces are valid and plain (no escapes, no exponents where numbers are
            // read): the fast reader reads every event itself.
            CHECK(routes.piecesBySimdjson == 0);
            CHECK(routes.errors == 0);
            CHECK(routes.eventsBySimdjson == 0);
        }
    }
    CHECK(kinetoTraces >= 10);
}

TEST_CASE("kineto fast reader: a generated trace is read without simdjson") {
    const auto dir = tempDir("kineto-fast");
    const auto path = dir / "generated.json";
    bench::writeKinetoTrace(path, 20000);
    for (size_t pieceBytes : {size_t{1} << 15, size_t{8} << 20}) {
        const Routes routes = checkFile(path, pieceBytes);
        CHECK(routes.events > 20000);
        CHECK(routes.eventsBySimdjson == 0);
        CHECK(routes.piecesBySimdjson == 0);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("kineto fast reader: unusual and invalid events read as simdjson reads them") {
    // Each case as the middle event of a piece between two plain ones, then first and last.
    struct Case {
        const char* what;
        std::string event;
    };
    const std::vector<Case> cases = {
        // Escapes: in keys, in strings read and skipped, \u escapes, surrogates.
        {"escaped key", R"({"p\u0068": "X", "n\u0061me": "a", "ts": 1, "na\"me": "b"})"},
        {"escaped args key", R"({"ph": "X", "ts": 1, "args": {"devic\u0065": 3, "stre\"am": 4}})"},
        {"escaped counter key", R"({"ph": "C", "name": "c", "ts": 1, "args": {"v\u00e9": 3}})"},
        {"escaped name", R"({"ph": "X", "cat": "cpu_op", "name": "a\"b\\c\/d\b\f\n\r\t", "ts": 1, "dur": 2})"},
        {"escaped cat and ph", R"({"ph": "\u0058", "cat": "cpu\u005fop", "name": "x", "ts": 1})"},
        {"escaped pid text", R"({"ph": "X", "name": "x", "pid": "\u0031\u0032", "tid": "t\"1", "ts": 1})"},
        {"escapes skipped", R"({"ph": "X", "name": "x", "ts": 1, "args": {"Call stack": "a\"b\\\u1234"}})"},
        {"valid surrogate pair", R"({"ph": "X", "name": "\ud83d\ude00", "ts": 1})"},
        {"lone high surrogate read", R"({"ph": "X", "name": "a\ud800", "ts": 1})"},
        {"lone low surrogate read", R"({"ph": "X", "name": "a\udc00b", "ts": 1})"},
        {"lone surrogate skipped", R"({"ph": "X", "name": "x", "ts": 1, "other": "\ud800"})"},
        {"escaped arg string", R"({"ph": "X", "cat": "kernel", "ts": 1, "args": {"Collective name": "all\u005freduce",)"
                               R"( "dtype": "F\"", "Process Group Name": "\\0", "Process Group Ranks": "[0, 1]"}})"},
        {"escaped metadata name",
         R"({"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "a\tb"}})"},
        {"escapes in Input Dims", R"({"ph": "X", "cat": "cpu_op", "ts": 1, "args": {"Input Dims": ["a\"]", [1]]}})"},
        {"invalid escape", R"({"ph": "X", "name": "a\x", "ts": 1})"},
        {"invalid escape skipped", R"({"ph": "X", "name": "x", "ts": 1, "o": "\q"})"},
        {"short \\u escape", R"({"ph": "X", "name": "\u12", "ts": 1})"},
        // Non-ASCII text, valid and not.
        {"UTF-8 name",
         "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"\xE5\x90\x8D\xE5\x89\x8D \xC3\xA9 "
         "\xF0\x9F\x98\x80\", \"ts\": 1}"},
        {"UTF-8 key", "{\"ph\": \"C\", \"name\": \"c\", \"ts\": 1, \"args\": {\"\xC3\xA9t\xC3\xA9\": 2}}"},
        {"UTF-8 skipped", "{\"ph\": \"X\", \"name\": \"x\", \"ts\": 1, \"o\": [\"\xE2\x82\xAC\"]}"},
        {"invalid UTF-8 read", "{\"ph\": \"X\", \"name\": \"\xC3\x28\", \"ts\": 1}"},
        {"invalid UTF-8 skipped", "{\"ph\": \"X\", \"name\": \"x\", \"ts\": 1, \"o\": \"\x80\"}"},
        {"overlong UTF-8", "{\"ph\": \"X\", \"name\": \"\xC0\xAF\", \"ts\": 1}"},
        {"UTF-8 surrogate", "{\"ph\": \"X\", \"name\": \"\xED\xA0\x80\", \"ts\": 1}"},
        {"byte 0xFF outside strings", "{\"ph\": \"X\", \"ts\": 1, \"o\": \xFF}"},
        {"control character", "{\"ph\": \"X\", \"name\": \"a\tb\", \"ts\": 1}"},
        {"NUL in string", std::string("{\"ph\": \"X\", \"name\": \"a\0b\", \"ts\": 1}", 35)},
        {"DEL in string", "{\"ph\": \"X\", \"name\": \"a\x7F\", \"ts\": 1}"},
        // Numbers: exponents, long, negative, fractions, as strings.
        {"exponent ts and dur", R"({"ph": "X", "name": "x", "ts": 1.5e3, "dur": 2E-1, "args": {"device": 1e0}})"},
        {"exponent args", R"({"ph": "X", "cat": "kernel", "ts": 1, "args": {"blocks per SM": 1e400, "warps per SM": )"
                          R"(1e-400, "est. achieved occupancy %": 2.5E+1, "stream": -1e2, "grid": [1e1, 2, 3]}})"},
        {"counter exponent", R"({"ph": "C", "name": "c", "ts": 1, "args": {"a": 1e3, "b": 2.5e-3}})"},
        {"counter out of range", R"({"ph": "C", "name": "c", "ts": 1, "args": {"a": 1e400}})"},
        {"counter huge integer", R"({"ph": "C", "name": "c", "ts": 1, "args": {"a": 123456789012345678901234567890}})"},
        {"counter long decimal",
         R"({"ph": "C", "name": "c", "ts": 1, "args": {"a": 0.1000000000000000055511151231257827, )"
         R"("b": 0.000000000000000000000000123, "c": 1234567890.12345678, "d": -0, "e": -0.0}})"},
        {"big integers", R"({"ph": "X", "cat": "kernel", "ts": 1, "args": {"device": 123456789012345678, )"
                         R"("stream": 1234567890123456789, "context": 9223372036854775807, "correlation": )"
                         R"(-9223372036854775808, "bytes": 18446744073709551616, "registers per thread": 1e19}})"},
        {"fractions as integers", R"({"ph": "X", "cat": "kernel", "ts": 1, "args": {"device": 1.9, "stream": -1.5, )"
                                  R"("context": -0.5, "correlation": 0.0, "bytes": 12345678901234.5678}})"},
        {"numbers as strings", R"({"ph": "X", "cat": "kernel", "pid": "123", "tid": "12x", "ts": "5", "dur": "6", )"
                               R"("args": {"device": "7", "stream": "-5", "context": "", "correlation": " 4", )"
                               R"("bytes": "9x", "grid": ["1", "2", "x"], "blocks per SM": "1"}})"},
        {"pid forms", R"({"ph": "X", "name": "x", "pid": "", "tid": "-3", "ts": 1})"},
        {"pid as object", R"({"ph": "X", "name": "x", "pid": {"a": 1}, "tid": [1], "ts": 1})"},
        {"pid text then number", R"({"ph": "X", "name": "x", "pid": "abc", "pid": 5, "tid": 7, "tid": "8", "ts": 1})"},
        {"pid decimal", R"({"ph": "X", "name": "x", "pid": 3.75, "tid": -0, "ts": 1})"},
        {"ts forms", R"({"ph": "X", "name": "x", "ts": -3, "dur": 0.0005, "args": {}})"},
        {"ts long fraction", R"({"ph": "X", "name": "x", "ts": 4459284064454.0595, "dur": 99999999999999999999})"},
        {"ts too large", R"({"ph": "X", "name": "x", "ts": 92233720368547758070, "dur": 1e300})"},
        {"ts not a number", R"({"ph": "X", "name": "x", "ts": null, "dur": true})"},
        // Duplicate keys (the last wins, the args add up), phases, order.
        {"duplicate keys", R"({"ph": "B", "ph": "X", "name": "a", "name": "b", "ts": 1, "ts": 2, "cat": "x", )"
                           R"("cat": "kernel", "args": {"device": 1, "device": 2}, "args": {"stream": 3}})"},
        {"args before C", R"({"args": {"a": 1}, "ph": "C", "name": "c", "ts": 1, "args": {"b": 2, "device": "x"}})"},
        {"C then not C", R"({"ph": "C", "name": "c", "ts": 1, "args": {"a": 1, "s": "x", "o": [1]}, "ph": "X"})"},
        {"empty ph", R"({"ph": "", "name": "x", "ts": 1})"},
        {"ph not a string", R"({"ph": 88, "cat": 1, "name": ["x"], "ts": 1})"},
        {"empty event", R"({})"},
        {"args not an object", R"({"ph": "X", "name": "x", "ts": 1, "args": [1, 2]})"},
        {"triples", R"({"ph": "X", "cat": "kernel", "ts": 1, "args": {"grid": [1, 2, 3, 4], "block": [5], )"
                    R"("grid": [-1, 5000000000, {"a": 1}], "block": "x"}})"},
        {"occupancy forms", R"({"ph": "X", "cat": "kernel", "ts": 1, "args": {"blocks per SM": -1, )"
                            R"("warps per SM": "2", "est. achieved occupancy %": null}})"},
        {"comms", R"({"ph": "X", "cat": "kernel", "ts": 1, "args": {"Collective name": 5, "dtype": "Float", )"
                  R"("In msg nelems": 10, "Out msg nelems": "20", "Group size": 8, "Collective name": "allreduce"}})"},
        {"Input Dims forms", R"({"ph": "X", "cat": "cpu_op", "ts": 1, "args": {"Input Dims":  [ [64 ,10] ,[ ] , )"
                             "\n[\t1 ]\r] , \"Input Dims\": [[1], [2]]}}"},
        {"Input Dims not an array", R"({"ph": "X", "cat": "cpu_op", "ts": 1, "args": {"Input Dims": "[1]"}})"},
        {"whitespace everywhere", " {\n\t\"ph\" :\r\n \"X\" ,\"name\":\"x\"  ,  \"ts\"\t:\t1\n, \"args\" : { } } "},
        {"deep nesting", "{\"ph\": \"X\", \"ts\": 1, \"o\": " + std::string(63, '[') + std::string(63, ']') + "}"},
        {"deeper nesting", "{\"ph\": \"X\", \"ts\": 1, \"o\": " + std::string(200, '[') + std::string(200, ']') + "}"},
        {"too deep for simdjson", "{\"ph\": \"X\", \"o\": " + std::string(1100, '[') + std::string(1100, ']') + "}"},
        {"literals", R"({"ph": "X", "name": "x", "ts": 1, "a": true, "b": false, "c": null, "d": [true, null]})"},
        // Not objects.
        {"number element", R"(42)"},
        {"string element", R"("x")"},
        {"array element", R"([{"ph": "X"}])"},
        {"null element", R"(null)"},
        // Invalid JSON.
        {"missing colon", R"({"ph" "X", "ts": 1})"},
        {"missing comma", R"({"ph": "X" "ts": 1})"},
        {"trailing comma", R"({"ph": "X", "ts": 1,})"},
        {"trailing comma in args", R"({"ph": "X", "ts": 1, "args": {"device": 1,}})"},
        {"trailing comma in array", R"({"ph": "X", "ts": 1, "o": [1, 2,]})"},
        {"leading zero", R"({"ph": "X", "ts": 01})"},
        {"leading zero skipped", R"({"ph": "X", "ts": 1, "o": 00})"},
        {"bare minus", R"({"ph": "X", "ts": -})"},
        {"plus sign", R"({"ph": "X", "ts": +1})"},
        {"dot without digits", R"({"ph": "X", "ts": 1., "o": .5})"},
        {"exponent without digits", R"({"ph": "X", "ts": 1e})"},
        {"NaN", R"({"ph": "X", "ts": NaN})"},
        {"bad literal", R"({"ph": "X", "ts": 1, "o": tru})"},
        {"bad literal read", R"({"ph": nul, "ts": 1})"},
        {"unquoted key", R"({ph: "X"})"},
        {"single quotes", R"({'ph': 'X'})"},
        {"unclosed array", R"({"ph": "X", "o": [1, 2})"},
        {"number then letters", R"({"ph": "X", "ts": 12ab})"},
        {"two values", R"({"ph": "X", "ts": 1 2})"},
        {"object as key", R"({{"a": 1}: 2})"},
        {"bare word element", R"(hello)"},
        {"empty element", R"()"},
    };
    Routes routes;
    for (const Case& c : cases) {
        INFO(c.what);
        for (const std::string& piece :
             {"[" + kOp + ",\n" + c.event + ",\n" + kKernel + "]", "[" + c.event + ", " + kCounter + "]",
              "[" + kMemory + "," + c.event + "]", "[" + c.event + "]"})
            checkSameReading(piece, routes);
    }
    // Each way was taken: events read by the fast reader, events handed to simdjson, pieces
    // handed to simdjson, errors.
    CHECK(routes.events > routes.eventsBySimdjson);
    CHECK(routes.eventsBySimdjson > 50);
    CHECK(routes.piecesBySimdjson > 100);
    CHECK(routes.errors > 10);

    SECTION("where each case goes") {
        auto routesOf = [](const std::string& event) {
            Routes r;
            checkSameReading("[" + kOp + ", " + event + ", " + kKernel + "]", r);
            return r;
        };
        // Plain events: the fast reader alone.
        for (const std::string& e : {kOp, kKernel, kCounter, kMemory}) {
            const Routes r = routesOf(e);
            CHECK(r.eventsBySimdjson == 0);
            CHECK(r.piecesBySimdjson == 0);
        }
        // Valid but not read here: that event by simdjson.
        for (const char* e : {R"({"ph": "X", "name": "a\"b", "ts": 1})",
                              R"({"ph": "X", "ts": 1, "args": {"device": 1e0}})", R"({"n\u0061me": "x"})"}) {
            const Routes r = routesOf(e);
            CHECK(r.eventsBySimdjson == 1);
            CHECK(r.piecesBySimdjson == 0);
        }
        // Invalid: the piece by simdjson.
        for (const char* e : {R"({"ph": "X", "ts": 01})", "{\"name\": \"\xC3\x28\"}", R"({"a": [1,]})"}) {
            const Routes r = routesOf(e);
            CHECK(r.piecesBySimdjson == 1);
        }
        // An error in an event read by simdjson stops the piece there, as in simdjson's reading
        // of the whole piece: the events before it are kept.
        const Routes surrogate = routesOf(R"({"ph": "X", "name": "a\ud800", "ts": 1})");
        CHECK(surrogate.errors == 1);
        CHECK(surrogate.events == 1);
        CHECK(surrogate.piecesBySimdjson == 0);
    }
}

TEST_CASE("kineto fast reader: numbers of every form read as simdjson reads them") {
    // Random JSON numbers (integers of 1 to 25 digits, fractions of up to 25 digits, leading
    // zeros, signs, exponents), each alone where a number is read (an event per field, so that
    // no other field sends the event to simdjson): ts, pid, an integer arg, a float arg, a
    // counter value, a grid element.
    bench::Rng rng(5);
    auto digits = [&](int n, bool leading) {
        std::string s;
        for (int i = 0; i < n; ++i) s += static_cast<char>('0' + rng.between(i == 0 && !leading ? 1 : 0, 9));
        return s;
    };
    std::string piece = "[";
    for (int i = 0; i < 3000; ++i) {
        std::string n = rng.between(0, 3) == 0 ? "-" : "";
        const int form = static_cast<int>(rng.between(0, 9));
        if (form <= 1) {
            n += rng.between(0, 5) == 0 ? "0" : digits(static_cast<int>(rng.between(1, 25)), false);
        } else {
            n += rng.between(0, 2) == 0 ? "0" : digits(static_cast<int>(rng.between(1, 20)), false);
            n += "." + digits(static_cast<int>(rng.between(1, 25)), true);
            if (form == 9)
                n += std::string(rng.between(0, 1) ? "e" : "E") + (rng.between(0, 1) ? "-" : "") +
                     std::to_string(rng.between(0, 250));
        }
        if (i) piece += ",\n";
        piece += R"({"ph": "C", "name": "c", "ts": 1, "args": {"v": )" + n + "}},\n";
        piece += R"({"ph": "X", "name": "x", "ts": )" + n + R"(, "dur": )" + n + "},\n";
        piece += R"({"ph": "X", "name": "x", "pid": )" + n + R"(, "ts": 1},)" + "\n";
        piece += R"({"ph": "X", "cat": "kernel", "ts": 1, "args": {"correlation": )" + n + "}},\n";
        piece += R"({"ph": "X", "cat": "kernel", "ts": 1, "args": {"blocks per SM": )" + n + "}},\n";
        piece += R"({"ph": "X", "cat": "kernel", "ts": 1, "args": {"grid": [)" + n + "]}}";
    }
    piece += "]";
    Routes routes;
    checkSameReading(piece, routes);
    CHECK(routes.events == 18000);
    CHECK(routes.eventsBySimdjson > 1000);  // long numbers and exponents
    CHECK(routes.eventsBySimdjson < 12000);
    CHECK(routes.piecesBySimdjson == 0);
}

TEST_CASE("kineto fast reader: randomly damaged pieces read as simdjson reads them") {
    // Pieces of a small trace with a few bytes changed, removed, repeated or inserted: the
    // characters JSON gives meaning to, digits, and bytes that are not ASCII.
    const std::vector<std::string> pieces = piecesOf(dataFile("fuzz/small_profiled.json"), 2048);
    REQUIRE(pieces.size() > 5);
    const std::string interesting = "\"\\{}[],:0123456789eE.-+ \ntfnu\x80\xC3\xA9\xFF\x01x";
    bench::Rng rng(20261206);
    Routes routes;
    for (int round = 0; round < 3000; ++round) {
        std::string piece = pieces[static_cast<size_t>(rng.between(0, static_cast<int64_t>(pieces.size()) - 1))];
        const int changes = static_cast<int>(rng.between(1, 3));
        for (int k = 0; k < changes; ++k) {
            const auto at = static_cast<size_t>(rng.between(1, static_cast<int64_t>(piece.size()) - 2));
            const char c =
                interesting[static_cast<size_t>(rng.between(0, static_cast<int64_t>(interesting.size()) - 1))];
            switch (rng.between(0, 3)) {
                case 0:
                    piece[at] = c;
                    break;
                case 1:
                    piece.erase(at, static_cast<size_t>(rng.between(1, 8)));
                    break;
                case 2:
                    piece.insert(at, 1, c);
                    break;
                default:
                    piece.insert(at, piece.substr(at, static_cast<size_t>(rng.between(1, 40))));
                    break;
            }
        }
        if (piece.size() < 2) continue;
        piece.front() = '[';  // a piece as the stream cuts it
        piece.back() = ']';
        checkSameReading(piece, routes);
    }
    CHECK(routes.pieces > 2900);
    CHECK(routes.piecesBySimdjson > 100);
    CHECK(routes.eventsBySimdjson > 0);
}

TEST_CASE("kineto scan: the AVX2 scanner cuts where the portable one cuts") {
    if (!kineto::haveAvx2Scan()) {
        WARN("no AVX2 scanner on this processor or build: nothing to compare");
        return;
    }
    // A generated trace and randomly damaged copies of a small one (quotes, backslashes,
    // brackets and commas moved about), scanned to their ends with several piece sizes.
    std::vector<std::string> documents;
    {
        const auto dir = tempDir("kineto-scan");
        bench::writeKinetoTrace(dir / "generated.json", 3000);
        documents.push_back(readFile(dir / "generated.json"));
        std::filesystem::remove_all(dir);
    }
    const std::string small = readFile(dataFile("fuzz/small_profiled.json"));
    bench::Rng rng(7);
    const std::string interesting = "\"\\{}[],x ";
    for (int i = 0; i < 200; ++i) {
        std::string text = small;
        for (int k = 0; k < 8; ++k)
            text[static_cast<size_t>(rng.between(0, static_cast<int64_t>(text.size()) - 1))] =
                interesting[static_cast<size_t>(rng.between(0, static_cast<int64_t>(interesting.size()) - 1))];
        documents.push_back(text);
    }
    for (const std::string& text : documents) {
        for (size_t piece : {size_t{1}, size_t{100}, size_t{4096}}) {
            kineto::EventScan portable, avx2;
            portable.data = avx2.data = text.data();
            portable.end = avx2.end = text.size();
            portable.piece = avx2.piece = piece;
            portable.fileEnded = avx2.fileEnded = true;
            while (true) {
                const size_t a = kineto::scanEventsPortable(portable), b = kineto::scanEventsAvx2(avx2);
                REQUIRE(a == b);
                CHECK(portable.depth == avx2.depth);
                CHECK(portable.inString == avx2.inString);
                CHECK(portable.escapeCarry == avx2.escapeCarry);
                if (a == SIZE_MAX || text[a] != ',') break;
                portable.start = avx2.start = a;
            }
        }
    }
}
