#include <algorithm>
#include <chrono>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <random>

#include <zlib.h>

#include "Absent.h"
#include "ImportHelpers.h"
#include "importers/perfetto/PerfettoImporter.h"
#include "exporters/perfetto/PerfettoWriter.h"
#include "analysis/Registry.h"
#include "analysis/NvtxProjection.h"
#include "perfetto/perfetto_subset.pb.h"  // generated, in the build tree

using namespace lanescope;
using namespace lanescope::test;

namespace {

// A tiny protobuf encoder for hand-built traces.
struct Msg {
    std::string bytes;
    Msg& varint(uint64_t v) {
        while (v >= 0x80) {
            bytes.push_back(static_cast<char>((v & 0x7F) | 0x80));
            v >>= 7;
        }
        bytes.push_back(static_cast<char>(v));
        return *this;
    }
    Msg& u(int field, uint64_t v) { return varint(uint64_t(field) << 3).varint(v); }
    Msg& s(int field, const std::string& v) {
        varint((uint64_t(field) << 3) | 2).varint(v.size());
        bytes += v;
        return *this;
    }
    Msg& m(int field, const Msg& v) { return s(field, v.bytes); }
};

std::string trace(const std::vector<Msg>& packets) {
    Msg t;
    for (const Msg& p : packets) t.m(1, p);
    return t.bytes;
}

std::filesystem::path writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

struct Span {
    int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
};
Span span(const Report& r) {
    Span s;
    for (const Lane& l : r.lanes) {
        if (l.kind == LaneKind::NvtxGpuProjection) continue;
        for (size_t i = 0; i < l.events.size(); ++i) {
            s.first = std::min(s.first, l.events.start_ns[i]);
            s.last = std::max(s.last, l.events.end_ns[i]);
        }
        for (int64_t t : l.instants.time_ns) {
            s.first = std::min(s.first, t);
            s.last = std::max(s.last, t);
        }
    }
    return s;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("perfetto: the public atrium trace") {
    const auto path = sharedFile("public/vospascal__atrium__trace.pftrace");
    if (path.empty()) {
        LANESCOPE_SKIP_ABSENT("../shared/corpus/public (the atrium trace)");
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto r = importOk(path);
    WARN("atrium import: " << secondsSince(t0) << " s");
    CHECK(r->meta.format == "perfetto");
    CHECK(r->meta.producer == "Perfetto");
    const EventCounts c = r->counts();
    CHECK(c.slices == 20010);
    CHECK(c.instants == 361);
    CHECK(r->diagnostics.count("perfetto_unmatched_end") == 0);
    CHECK(r->diagnostics.count("perfetto_unterminated_slice") == 0);
    CHECK_FALSE(r->threads.empty());
    CHECK(r->meta.begin_ns < r->meta.end_ns);
}

TEST_CASE("perfetto: every corpus report round-trips through an export") {
    const auto dir = tempDir("perfetto-roundtrip");
    for (const char* name : {"nsys-2025.3/train_1gpu.sqlite", "nsys-2025.3/ddp_rank0.sqlite",
                             "nsys-2025.3/ddp_rank1.sqlite", "nsys-2025.3/train_metrics.sqlite",
                             "nsys-2022.4/cpu_nvtx_threads.sqlite", "kineto/train_1gpu_rank0.pt.trace.json",
                             "kineto/ddp_rank0.pt.trace.json.gz", "kineto/ddp_rank1.pt.trace.json.gz"}) {
        INFO(name);
        auto original = importAsViewed(dataFile(name));  // as the viewer has it: derived lanes are not exported
        const auto out = dir / (std::filesystem::path(name).filename().string() + ".pftrace");
        std::string error;
        PerfettoWriteStats stats;
        const auto t0 = std::chrono::steady_clock::now();
        REQUIRE(writePerfetto(*original, out, error, &stats));
        const double writeS = secondsSince(t0);
        const auto t1 = std::chrono::steady_clock::now();
        auto back = importOk(out);
        WARN(name << ": export " << writeS << " s, reimport " << secondsSince(t1) << " s, " << stats.packets
                  << " packets, " << stats.flows << " flows");
        // The same events of every kind (the kind travels as the slice's category).
        const EventCounts a = original->counts(), b = back->counts();
        CHECK(b.kernels == a.kernels);
        CHECK(b.memcpy == a.memcpy);
        CHECK(b.memset == a.memset);
        CHECK(b.cuda_api == a.cuda_api);
        CHECK(b.nvtx == a.nvtx);
        CHECK(b.osrt == a.osrt);
        CHECK(b.sync == a.sync);
        CHECK(b.nccl == a.nccl);
        CHECK(b.slices == a.slices);
        CHECK(b.instants == a.instants);
        CHECK(b.counter_samples == a.counter_samples);
        const Span sa = span(*original), sb = span(*back);
        CHECK(sb.first == sa.first);
        CHECK(sb.last == sa.last);
        CHECK(back->gpus.size() == original->gpus.size());
        // The same rows: a lane split into a track per row on export is one lane again.
        auto rows = [](const Report& r) {
            std::multiset<std::string> out;  // "kind: name"
            for (const Lane& lane : r.lanes)
                if (lane.kind != LaneKind::NvtxGpuProjection && (lane.events.size() > 0 || lane.instants.size() > 0))
                    out.insert(std::string(laneKindName(lane.kind)) + ": " + std::string(r.str(lane.name_id)));
            return out;
        };
        CHECK(rows(*back) == rows(*original));
        CHECK(back->diagnostics.empty());  // nothing unpaired, unnamed, mixed or ignored
        if (a.kernels > 0) CHECK(stats.flows > 0);
        // Details, correlation ids, processes, streams and contexts come back too: every
        // statistic is the same table, and exporting the reimport links the same launches.
        for (const StatsReportEntry& entry : statsReports()) {
            const std::string_view report = entry.name;
            INFO(report);
            CHECK(toCsv(*computeStats(*back, report)) == toCsv(*computeStats(*original, report)));
        }
        PerfettoWriteStats again;
        REQUIRE(writePerfetto(*back, dir / "again.pftrace", error, &again));
        CHECK(again.flows == stats.flows);
        CHECK(again.slices == stats.slices);
    }
}

TEST_CASE("perfetto: interning, incremental state and unpaired events") {
    const auto dir = tempDir("perfetto-handmade");
    auto interned = [](uint64_t iid, const std::string& name) { return Msg().m(2, Msg().u(1, iid).s(2, name)); };
    auto event = [](uint64_t ts, uint64_t type, uint64_t track, uint64_t iid, uint32_t flags) {
        return Msg().u(8, ts).u(10, 7).u(13, flags).m(11, Msg().u(9, type).u(11, track).u(10, iid));
    };
    std::vector<Msg> packets;
    packets.push_back(Msg().u(10, 7).m(60, Msg().u(1, 1).m(3, Msg().u(1, 42).s(6, "proc"))));
    packets.push_back(Msg().u(10, 7).m(60, Msg().u(1, 2).m(4, Msg().u(1, 42).u(2, 43).s(5, "worker"))));
    packets.push_back(Msg(event(100, 1, 2, 1, 1)).m(12, interned(1, "outer")));  // cleared + interned
    packets.push_back(Msg(event(110, 1, 2, 2, 2)).m(12, interned(2, "inner")));
    packets.push_back(event(120, 2, 2, 0, 2));
    packets.push_back(event(130, 3, 2, 1, 2));  // instant "outer"
    packets.push_back(event(200, 2, 2, 0, 2));
    packets.push_back(event(210, 2, 2, 0, 2));       // unmatched end
    packets.push_back(event(300, 1, 2, 2, 1));       // cleared again: iid 2 is gone
    packets.push_back(event(310, 2, 2, 0, 2));
    packets.push_back(event(400, 1, 2, 1, 2));       // never ended (and iid 1 is gone too)
    packets.push_back(Msg().u(10, 7).m(60, Msg().u(1, 3).u(5, 1).s(2, "mem").m(8, Msg().s(6, "bytes"))));
    packets.push_back(Msg().u(8, 150).u(10, 7).u(13, 2).m(11, Msg().u(9, 4).u(11, 3).u(30, 5)));
    const auto path = writeFile(dir / "hand.perfetto-trace", trace(packets));
    auto r = importOk(path);
    CHECK(r->counts().slices == 3);
    CHECK(r->counts().instants == 1);
    CHECK(r->diagnostics["perfetto_unmatched_end"] == 1);
    CHECK(r->diagnostics["perfetto_unterminated_slice"] == 1);
    CHECK(r->diagnostics["perfetto_interned_name_missing"] == 2);  // iids 2 and 1 after the second clear
    REQUIRE(r->lanes.size() == 1);
    const Lane& lane = r->lanes[0];
    CHECK(lane.kind == LaneKind::Nvtx);
    REQUIRE(lane.thread >= 0);
    CHECK(r->str(r->threads[lane.thread].name_id) == "worker");
    CHECK(r->str(r->processes[lane.process].name_id) == "proc");
    CHECK(r->str(lane.events.name_id[0]) == "outer");
    CHECK(r->str(lane.events.name_id[1]) == "inner");
    CHECK(lane.events.depth[1] == 1);
    CHECK(r->nvtx.at(lane.events.payload[0]).has_color == false);
    REQUIRE(r->counters.size() == 1);
    CHECK(r->str(r->counters[0].unit_id) == "bytes");
    CHECK(r->counters[0].process == lane.process);
    CHECK(r->counters[0].value == std::vector<double>{5});
}

TEST_CASE("perfetto: compressed_packets are inflated and read in place") {
    const auto dir = tempDir("perfetto-compressed");
    std::vector<Msg> inner;
    inner.push_back(Msg().u(10, 3).m(60, Msg().u(1, 9).s(2, "async")));
    inner.push_back(Msg().u(8, 10).u(10, 3).m(11, Msg().u(9, 1).u(11, 9).s(23, "work")));
    inner.push_back(Msg().u(8, 20).u(10, 3).m(11, Msg().u(9, 2).u(11, 9)));
    const std::string plain = trace(inner);
    uLongf size = compressBound(plain.size());
    std::string deflated(size, '\0');
    REQUIRE(compress(reinterpret_cast<Bytef*>(deflated.data()), &size, reinterpret_cast<const Bytef*>(plain.data()),
                     plain.size()) == Z_OK);
    deflated.resize(size);
    auto r = importOk(writeFile(dir / "z.pftrace", trace({Msg().u(10, 3).s(50, deflated)})));
    CHECK(r->counts().slices == 1);
    REQUIRE(r->lanes.size() == 1);
    CHECK(r->str(r->lanes[0].name_id) == "async");
    CHECK(r->lanes[0].events.end_ns[0] == 20);
    auto bad = importOk(writeFile(dir / "bad.pftrace", trace({Msg().u(10, 3).s(50, "not deflate")})));
    CHECK(bad->diagnostics["perfetto_compressed_packets_damaged"] == 1);
}

TEST_CASE("perfetto: content detection never claims SQLite or nsys-rep files") {
    const PerfettoImporter importer;
    const std::string sqliteHead = readFile(dataFile("nsys-2025.3/train_1gpu.sqlite")).substr(0, 4096);
    CHECK_FALSE(importer.canRead(sqliteHead, "x.sqlite"));
    const std::string repHead = readFile(dataFile("nsys-2025.3/train_1gpu.nsys-rep")).substr(0, 4096);
    CHECK_FALSE(importer.canRead(repHead, "x.bin"));
    CHECK_FALSE(importer.canRead("\n{\"traceEvents\": []}", "x.txt"));
    CHECK(importer.canRead("", "x.pftrace"));
    const auto path = sharedFile("public/vospascal__atrium__trace.pftrace");
    if (!path.empty()) CHECK(importer.canRead(readFile(path).substr(0, 4096), "trace.bin"));
}

TEST_CASE("perfetto: broken files") {
    const auto dir = tempDir("perfetto-broken");
    auto original = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    std::string error;
    REQUIRE(writePerfetto(*original, dir / "full.pftrace", error));
    const std::string bytes = readFile(dir / "full.pftrace");

    SECTION("cut at half: opens with what came before, and says so") {
        const auto path = writeFile(dir / "half.pftrace", bytes.substr(0, bytes.size() / 2));
        auto r = importOk(path);
        CHECK(r->diagnostics["perfetto_truncated_packet"] == 1);
        CHECK(r->counts().slices > 0);
        CHECK(r->counts().slices < original->counts().slices);
    }
    SECTION("random bytes named .pftrace") {
        std::mt19937 rng(7);
        std::string noise(100000, '\0');
        for (char& c : noise) c = static_cast<char>(rng());
        noise[0] = '\x55';
        const auto e = importError(writeFile(dir / "noise.pftrace", noise));
        CHECK(e.kind == ImportError::Kind::Corrupt);
        CHECK(e.message.find('\n') == std::string::npos);
        CHECK(e.message.find("noise.pftrace") != std::string::npos);
    }
    SECTION("random bytes after a valid first packet") {
        std::mt19937 rng(11);
        std::string noise = bytes.substr(0, 64);
        for (int i = 0; i < 5000; ++i) noise.push_back(static_cast<char>(rng()));
        NullProgress progress;
        ImportResult result = importFile(writeFile(dir / "tail.pftrace", noise), {}, progress);
        if (!result.ok()) {
            CHECK(result.error().kind == ImportError::Kind::Corrupt);
            CHECK(result.error().message.find('\n') == std::string::npos);
        }
    }
}

TEST_CASE("perfetto: exported slices carry their details as interned debug annotations") {
    const auto dir = tempDir("perfetto-args");
    auto original = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    std::string error;
    REQUIRE(writePerfetto(*original, dir / "args.pftrace", error));
    lanescope::perfetto_pb::Trace trace;
    REQUIRE(trace.ParseFromString(readFile(dir / "args.pftrace")));
    std::map<uint64_t, std::string> names;  // interned annotation names, by iid
    std::map<std::string, std::set<std::string>> valuesByName;
    for (const auto& packet : trace.packet()) {
        for (const auto& n : packet.interned_data().debug_annotation_names()) {
            CHECK(names.count(n.iid()) == 0);  // each name interned once
            names[n.iid()] = n.name();
        }
        for (const auto& a : packet.track_event().debug_annotations()) {
            REQUIRE(names.count(a.name_iid()) == 1);  // interned before use
            if (valuesByName[names[a.name_iid()]].size() < 50) valuesByName[names[a.name_iid()]].insert(a.string_value());
        }
    }
    // Kernel launch configurations, memcpy kinds and correlation ids, as the Details panel shows them.
    CHECK(valuesByName.count("Grid") == 1);
    CHECK(valuesByName.count("Block") == 1);
    CHECK(valuesByName.count("Registers/thread") == 1);
    CHECK(valuesByName.count("Correlation id") == 1);
    CHECK(valuesByName["Copy kind"].count("Host-to-Device") == 1);
    CHECK(valuesByName["Bytes"].size() > 1);
    CHECK(valuesByName.count("Domain") == 1);  // NVTX ranges
}
