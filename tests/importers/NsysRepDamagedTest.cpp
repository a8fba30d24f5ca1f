// Damaged .nsys-rep files: every one is refused as Corrupt with one line that names the file,
// what is wrong and where; none crashes, hangs or allocates what a size field claims.
#include <fstream>

#include "ImportHelpers.h"
#include "importers/nsysrep/EventDecoder.h"
#include "importers/nsysrep/ProtoReader.h"
#include "importers/nsysrep/RepFile.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Imports `bytes` as a .nsys-rep; requires a Corrupt error on one line, naming the file, that
// contains `what`.
void checkCorrupt(const std::filesystem::path& dir, const std::string& label, const std::string& bytes,
                  const std::string& what) {
    INFO(label);
    const auto path = dir / (label + ".nsys-rep");
    writeBytes(path, bytes);
    const ImportError e = importError(path);
    INFO(e.message);
    CHECK(e.kind == ImportError::Kind::Corrupt);
    CHECK(e.message.starts_with(path.string() + ": "));
    CHECK(e.message.find(what) != std::string::npos);
    CHECK(e.message.find('\n') == std::string::npos);
}

size_t varintSize(uint64_t v) {
    size_t n = 1;
    while (v >= 0x80) v >>= 7, ++n;
    return n;
}

uint64_t u64At(const std::string& bytes, size_t at) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(bytes[at + static_cast<size_t>(i)]);
    return v;
}

}  // namespace

TEST_CASE("damaged .nsys-rep files are refused as Corrupt with one line naming what and where") {
    const auto source = dataFile("nsys-2025.3/train_1gpu.nsys-rep");
    const std::string good = readFile(source);
    const auto dir = tempDir("nsysrep-damaged");
    const nsysrep::RepLayout layout = nsysrep::readLayout(source);
    REQUIRE(layout.event_blocks.size() >= 1);
    const nsysrep::BlockRef first = layout.event_blocks.front();
    // The block's framing: its two size varints, just before its compressed bytes.
    const size_t framing = first.offset - varintSize(first.compressed) - varintSize(first.raw);
    const uint64_t toc = u64At(good, good.size() - 16);

    SECTION("cut short anywhere") {
        checkCorrupt(dir, "cut-40", good.substr(0, 40), "too short");
        for (uint64_t keep : {uint64_t{1000}, first.offset + 10, good.size() / 2, toc + 3, good.size() - 9})
            checkCorrupt(dir, "cut-" + std::to_string(keep), good.substr(0, keep), "end marker is missing");
    }
    SECTION("the end marker damaged") {
        std::string bad = good;
        bad[bad.size() - 3] = 'X';
        checkCorrupt(dir, "marker", bad, "end marker is missing");
    }
    SECTION("the table of contents offset outside the file") {
        std::string bad = good;
        bad[bad.size() - 10] = '\x7f';  // a high byte of the u64 offset
        checkCorrupt(dir, "toc-offset", bad, "table of contents offset");
    }
    SECTION("a section that claims more bytes than the file has") {
        // The TOC's entries are { 1 name, 2 offset, 3 length }: the first length's varint becomes
        // the largest 10-byte value, the lengths around it grown to match.
        std::string tocBytes = good.substr(toc, good.size() - 16 - toc);
        const size_t lengthTag = tocBytes.find('\x18');
        REQUIRE(lengthTag != std::string::npos);
        size_t end = lengthTag + 1;
        while (static_cast<uint8_t>(tocBytes[end]) & 0x80) ++end;
        const std::string huge = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01";
        const size_t grow = huge.size() - (end + 1 - (lengthTag + 1));
        tocBytes.replace(lengthTag + 1, end + 1 - (lengthTag + 1), huge);
        tocBytes[1] = static_cast<char>(static_cast<uint8_t>(tocBytes[1]) + grow);  // the entry's length (< 128)
        checkCorrupt(dir, "section-size", good.substr(0, toc) + tocBytes + good.substr(good.size() - 16),
                     "beyond the file");
    }
    SECTION("an event block that claims more than it holds") {
        std::string bad = good;
        const std::string claim = "\xff\xff\xff\x0f";  // 32 M compressed bytes
        bad.replace(framing, claim.size(), claim);
        checkCorrupt(dir, "block-size", bad, "at byte " + std::to_string(framing));
    }
    SECTION("an endless varint in the block framing") {
        std::string bad = good;
        for (size_t i = 0; i < 11; ++i) bad[framing + i] = '\xff';
        checkCorrupt(dir, "endless-varint", bad, "does not end");
    }
    SECTION("LZ4 data that does not decode") {
        std::string bad = good;
        for (uint64_t i = first.offset; i < first.offset + 64; ++i) bad[i] = '\xff';
        checkCorrupt(dir, "bad-lz4", bad, "byte " + std::to_string(first.offset));
    }
    SECTION("random byte flips never crash, and errors stay one line") {
        uint64_t seed = 12345;
        for (int round = 0; round < 60; ++round) {
            std::string bad = good;
            for (int k = 0; k < 4; ++k) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                bad[(seed >> 17) % bad.size()] ^= static_cast<char>(1 + (seed >> 7) % 255);
            }
            const auto path = dir / ("flip-" + std::to_string(round) + ".nsys-rep");
            writeBytes(path, bad);
            NullProgress progress;
            ImportResult result = importFile(path, {}, progress);
            if (result.ok()) continue;  // a flip in a string or a value is not damage it can see
            INFO(result.error().message);
            CHECK(result.error().message.find('\n') == std::string::npos);
            CHECK(result.error().message.starts_with(path.string() + ": "));
        }
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("the wire reader names malformed varints, wrong wire types and lengths past the end") {
    using nsysrep::MalformedProto;
    using nsysrep::ProtoField;
    auto readAll = [](std::string_view bytes) {
        nsysrep::ProtoReader reader(bytes, 1000);
        for (ProtoField f; reader.next(f);) {
        }
    };
    CHECK_NOTHROW(readAll(std::string("\x08\x96\x01\x12\x02hi\x1d\x01\x02\x03\x04", 12)));
    CHECK_THROWS_WITH(readAll(std::string("\x08\xff\xff", 3)), "a varint that does not end at byte 1000");
    CHECK_THROWS_WITH(readAll(std::string(11, '\xff')), "a field tag that does not end at byte 1000");
    CHECK_THROWS_WITH(readAll(std::string("\x08\x01\x12\x05hi", 5)), "a field longer than its message at byte 1002");
    CHECK_THROWS_WITH(readAll(std::string("\x0b", 1)), "a field of unknown wire type 3 at byte 1000");
    CHECK_THROWS_WITH(readAll(std::string("\x09\x01\x02", 3)), "a fixed-size field cut short at byte 1000");
    CHECK_THROWS_AS(readAll(std::string("\x0b", 1)), MalformedProto);
}

TEST_CASE("native reader: progress by blocks and cancellation") {
    struct Recording final : ProgressSink {
        std::vector<std::pair<uint64_t, uint64_t>> blocks;
        std::mutex mutex;
        void progress(std::string_view stage, uint64_t done, uint64_t total) override {
            std::lock_guard lock(mutex);
            if (stage == "decoding event blocks") blocks.emplace_back(done, total);
        }
    };
    const auto path = dataFile("nsys-2025.3/cpu_1gpu.nsys-rep");
    Recording progress;
    ImportResult result = importFile(path, {}, progress);
    REQUIRE(result.ok());
    REQUIRE(!progress.blocks.empty());
    const uint64_t total = progress.blocks.front().second;
    CHECK(total == nsysrep::readLayout(path).event_blocks.size());
    uint64_t most = 0;
    for (const auto& [done, all] : progress.blocks) most = std::max(most, done);
    CHECK(most == total);

    std::stop_source stop;
    stop.request_stop();
    ImportResult cancelled = importFile(path, {}, progress, stop.get_token());
    REQUIRE_FALSE(cancelled.ok());
    CHECK(cancelled.error().kind == ImportError::Kind::Cancelled);
}

namespace {

// A protobuf message written by hand: varint fields and length-delimited ones.
struct Proto {
    std::string bytes;
    static void varint(std::string& out, uint64_t v) {
        for (; v >= 0x80; v >>= 7) out += char(0x80 | (v & 0x7F));
        out += char(v);
    }
    Proto& v(uint32_t field, uint64_t value) {
        varint(bytes, uint64_t{field} << 3);
        varint(bytes, value);
        return *this;
    }
    Proto& s(uint32_t field, const std::string& value) {
        varint(bytes, (uint64_t{field} << 3) | 2);
        varint(bytes, value.size());
        bytes += value;
        return *this;
    }
    Proto& m(uint32_t field, const Proto& value) { return s(field, value.bytes); }
};

// Decodes one block holding `events` (each a whole event message) into a fresh report.
struct Decoded {
    Report report;
    nsys::ReportBuilder builder{report};
    nsysrep::TableChunks chunks;
    nsysrep::BlockExtras extras;
};
void decode(Decoded& d, const std::vector<Proto>& events) {
    Proto block;
    for (const Proto& e : events) block.m(1, e);
    std::string framed;
    Proto::varint(framed, block.bytes.size());
    framed += block.bytes;
    nsysrep::decodeBlock(framed, 0, d.builder, nsysrep::quirksFor("2025.3.1.0"), d.chunks, d.extras);
}

uint64_t diagnostic(const nsysrep::TableChunks& c, const char* name) {
    uint64_t n = 0;
    for (const nsys::EventChunk* chunk :
         {&c.graphs, &c.cuda_events, &c.gpu_faults, &c.cpu_faults, &c.graph_events, &c.messages, &c.osrt, &c.kernels})
        if (auto it = chunk->diagnostics.find(name); it != chunk->diagnostics.end()) n += it->second;
    return n;
}

}  // namespace

TEST_CASE("damaged events of the new kinds get a diagnostic or a one-line error, never a crash") {
    const uint64_t pid = uint64_t{485} << 24;
    SECTION("a graph execution and GPU page faults without an end are skipped and counted") {
        Decoded d;
        decode(d, {Proto().v(1, 130).m(107, Proto().v(1, 100).v(7, 7).v(8, pid).m(107, Proto().v(1, 3))),
                   Proto().v(1, 120).m(125, Proto().v(1, 100).v(4, pid).v(6, 2))});
        CHECK(diagnostic(d.chunks, "graph_execution_without_end") == 1);
        CHECK(diagnostic(d.chunks, "gpu_page_fault_without_end") == 1);
        CHECK(d.chunks.graphs.graphExecutions.empty());
        CHECK(d.chunks.gpu_faults.gpuPageFaults.empty());
    }
    SECTION("a graph execution ending before it starts is skipped and counted") {
        Decoded d;
        decode(d, {Proto().v(1, 130).m(107, Proto().v(1, 200).v(2, 100).v(7, 7).v(8, pid))});
        CHECK(diagnostic(d.chunks, "negative_duration") == 1);
    }
    SECTION("sub-messages cut short are a one-line MalformedProto") {
        for (uint32_t type : {130u, 127u, 119u, 49u}) {
            INFO(type);
            Proto event;
            event.v(1, type);
            // The payload claims 50 bytes and holds 3.
            std::string payload = Proto().v(1, 5).bytes;
            const uint32_t field = type == 119 ? 124 : type == 49 ? 110 : 107;
            Proto::varint(event.bytes, (uint64_t{field} << 3) | 2);
            Proto::varint(event.bytes, 50);
            event.bytes += payload;
            Decoded d;
            try {
                decode(d, {event});
                FAIL("no error");
            } catch (const nsysrep::MalformedProto& e) {
                CHECK(std::string(e.what()).find('\n') == std::string::npos);
            }
        }
    }
    SECTION("wrong wire types in a graph event's ids are read as absent, the event kept") {
        Decoded d;
        decode(d, {Proto().v(1, 132).m(108, Proto().v(1, 50).v(2, 50).v(6, 95).v(7, 0).v(13, pid | 485).v(38, 7))});
        REQUIRE(d.chunks.graph_events.graphApiEvents.size() == 1);
        CHECK(d.chunks.graph_events.graphApiEvents[0].event.graph_id == kNoGraphId);
    }
    SECTION("a CUDA event record whose call is absent is counted, not shown") {
        Decoded d;
        d.builder.setStrings({""});
        decode(d, {Proto().v(1, 127).m(107, Proto().v(3, 99).v(4, 0).v(5, 1).v(6, 7).v(7, 6).v(8, pid).m(
                                                106, Proto().v(1, 1).v(2, 1)))});
        std::vector<nsys::EventChunk> chunks;
        chunks.push_back(std::move(d.chunks.cuda_events));
        d.builder.merge(chunks);
        d.builder.complete();
        CHECK(d.report.diagnostics.at("cuda_event_record_without_call") == 1);
        CHECK(d.report.cuda_events.empty());
    }
}
