#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>

#include "Absent.h"
#include "ImportHelpers.h"
#include "analysis/NvtxProjection.h"
#include "analysis/Registry.h"
#include "exporters/perfetto/PerfettoWriter.h"
#include "formats/perfetto/PerfettoConventions.h"
#include "importers/perfetto/PerfettoImporter.h"
#include "model/EventDetails.h"
#include "perfetto/perfetto_subset.pb.h"  // generated, in the build tree
#include "tests/support/ColumnEquality.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

// A statistics report as CSV without the columns a Perfetto trace does not carry: what only
// Nsight Systems records (a CUDA call's result code, a thread's priority and whether nsys
// named it, the NVTX events that no lane holds, which RangeIds count).
std::string comparableCsv(const Report& report, std::string_view name) {
    StatsTable table = *computeStats(report, name);
    static const std::set<std::string> notCarried = {"Result",  "T-Pri",    "Thread Name",
                                                     "RangeId", "ParentId", "RangeStack"};
    if (name == "cuda_api_trace" || name == "nvtx_pushpop_trace" || name == "nvtx_gpu_proj_trace") {
        for (size_t c = table.header.size(); c-- > 0;) {
            if (!notCarried.count(table.header[c])) continue;
            table.header.erase(table.header.begin() + static_cast<std::ptrdiff_t>(c));
            for (auto& row : table.rows) row.erase(row.begin() + static_cast<std::ptrdiff_t>(c));
        }
    }
    return toCsv(table);
}

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
            s.last = std::max(s.last, l.events.endNs(i));
        }
        for (int64_t t : l.instants.time_ns) {
            s.first = std::min(s.first, t);
            s.last = std::max(s.last, t);
        }
    }
    return s;
}

// Every event's own fields as the Details panel shows them (name, kind, start, and the
// kind's fields after "Depth": launch configuration, bytes, copy kind, correlation id, NVTX
// attributes...), one string an event: equal multisets mean equal side tables.
std::multiset<std::string> eventFields(const Report& r) {
    std::multiset<std::string> out;
    for (uint32_t li = 0; li < r.lanes.size(); ++li) {
        if (holdsDerivedEvents(r.lanes[li].kind)) continue;
        for (uint32_t i = 0; i < r.lanes[li].events.size(); ++i) {
            std::string line;
            bool own = false;
            for (const DetailField& f : eventDetails(r, {li, i})) {
                // Computed from the GPU's description (Report::machine_gpus), which a trace does not carry.
                if (f.label == "Theoretical occupancy") continue;
                if (own || f.label == "Name" || f.label == "Kind" || f.label == "Start")
                    line += f.label + "=" + f.value + ";";
                own = own || f.label == "Depth";
            }
            out.insert(std::move(line));
        }
    }
    return out;
}

// A thread as a trace names it: (pid, tid).
using ThreadKey = std::pair<int64_t, int64_t>;
ThreadKey threadKey(const Report& r, size_t thread) {
    const Thread& t = r.threads.at(thread);
    return {t.process >= 0 ? r.processes.at(static_cast<size_t>(t.process)).pid : 0, t.tid};
}

// The CPU side of a report, by what it means rather than by index, so that two reports compare
// field by field. Each list is in the lane's order (start, then longest first), times in ns.
struct CpuSide {
    // Per thread, its thread states: "start duration state cpu name".
    std::map<ThreadKey, std::vector<std::string>> states;
    // Per core number, which thread ran when: "start duration pid tid name".
    std::map<int32_t, std::vector<std::string>> cores;
    // Per thread, its samples: "time name: function (module) < caller (module) < ..."; the
    // frames by name, never by stack id.
    std::map<ThreadKey, std::vector<std::string>> samples;
    size_t coreLanesWithOwner = 0;  // core lanes with a thread or process: none expected
};

std::string stackText(const Report& r, uint32_t stack) {
    if (stack == kNoStack) return "(no stack)";
    std::string out;
    for (const uint32_t f : r.stacks.framesOf(stack))
        out += std::string(r.str(r.stacks.frame_function[f])) + " (" + std::string(r.str(r.stacks.frame_module[f])) +
               ") < ";
    return out;
}

CpuSide cpuSide(const Report& r) {
    CpuSide out;
    for (const Lane& lane : r.lanes) {
        const IntervalColumns& ev = lane.events;
        auto interval = [&](size_t i) {
            return std::to_string(ev.start_ns[i]) + " " + std::to_string(ev.durationNs(i)) + " ";
        };
        if (lane.kind == LaneKind::ThreadState) {
            auto& states = out.states[threadKey(r, static_cast<size_t>(lane.thread))];
            for (size_t i = 0; i < ev.size(); ++i)
                states.push_back(interval(i) + std::string(threadRunStateName(threadStateOf(ev.payload[i]))) + " " +
                                 std::to_string(threadStateCpu(ev.payload[i])) + " " +
                                 std::string(r.str(ev.name_id[i])));
        } else if (lane.kind == LaneKind::CpuCore) {
            out.coreLanesWithOwner += lane.thread >= 0 || lane.process >= 0;
            auto& runs = out.cores[lane.cpu];
            for (size_t i = 0; i < ev.size(); ++i) {
                const ThreadKey t = threadKey(r, ev.payload[i]);
                runs.push_back(interval(i) + std::to_string(t.first) + " " + std::to_string(t.second) + " " +
                               std::string(r.str(ev.name_id[i])));
            }
        } else if (lane.kind == LaneKind::CpuSamples) {
            auto& samples = out.samples[threadKey(r, static_cast<size_t>(lane.thread))];
            for (size_t i = 0; i < lane.instants.size(); ++i)
                samples.push_back(std::to_string(lane.instants.time_ns[i]) + " " +
                                  std::string(r.str(lane.instants.name_id[i])) + ": " +
                                  stackText(r, lane.instants.payload[i]));
        }
    }
    return out;
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
    for (const char* name :
         {"nsys-2025.3/train_1gpu.sqlite", "nsys-2025.3/ddp_rank0.sqlite", "nsys-2025.3/ddp_rank1.sqlite",
          "nsys-2025.3/train_metrics.sqlite", "nsys-2025.3/cuda_graphs.sqlite", "nsys-2025.3/cpu_1gpu.sqlite",
          "nsys-2022.4/cpu_nvtx_threads.sqlite", "nsys-2022.4/openmp_loops.sqlite",
          "kineto/train_1gpu_rank0.pt.trace.json", "kineto/ddp_rank0.pt.trace.json.gz",
          "kineto/ddp_rank1.pt.trace.json.gz"}) {
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
        CHECK(b.openmp == a.openmp);
        CHECK(b.nccl == a.nccl);
        CHECK(b.graph_executions == a.graph_executions);
        CHECK(b.slices == a.slices);
        CHECK(b.instants == a.instants - a.cuda_events);  // CUDA event records are not written yet
        // Counters read from the file travel; those finishReport makes from the lanes do not.
        auto ownSamples = [](const Report& r) {
            size_t n = 0;
            for (const Counter& c : r.counters) n += c.derived ? 0 : c.time_ns.size();
            return n;
        };
        CHECK(ownSamples(*back) == ownSamples(*original));
        const Span sa = span(*original), sb = span(*back);
        CHECK(sb.first == sa.first);
        CHECK(sb.last == sa.last);
        CHECK(back->gpus.size() == original->gpus.size());
        // The same rows: a lane split into a track per row on export is one lane again.
        auto rows = [](const Report& r) {
            std::multiset<std::string> out;  // "kind: name"
            for (const Lane& lane : r.lanes)
                if (lane.kind != LaneKind::NvtxGpuProjection &&
                    (lane.events.size() > 0 || (lane.instants.size() > 0 && lane.kind != LaneKind::GpuStream)))
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
            CHECK(comparableCsv(*back, report) == comparableCsv(*original, report));
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
    packets.push_back(event(210, 2, 2, 0, 2));  // unmatched end
    packets.push_back(event(300, 1, 2, 2, 1));  // cleared again: iid 2 is gone
    packets.push_back(event(310, 2, 2, 0, 2));
    packets.push_back(event(400, 1, 2, 1, 2));  // never ended (and iid 1 is gone too)
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
    CHECK(r->lanes[0].events.endNs(0) == 20);
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
        // Cut inside a packet (not between two): in the middle of the packet that holds the file's
        // middle byte. Each packet is field 1 of the trace: the tag 0x0A, its length, its bytes.
        size_t at = 0, cut = 0;
        while (at < bytes.size() && cut == 0) {
            REQUIRE(bytes[at] == '\x0A');
            size_t length = 0, shift = 0, p = at + 1;
            for (; static_cast<unsigned char>(bytes[p]) & 0x80; ++p, shift += 7)
                length |= size_t(static_cast<unsigned char>(bytes[p]) & 0x7F) << shift;
            length |= size_t(static_cast<unsigned char>(bytes[p])) << shift;
            const size_t end = p + 1 + length;
            if (end > bytes.size() / 2) cut = p + 1 + length / 2;
            at = end;
        }
        REQUIRE(cut > 0);
        const auto path = writeFile(dir / "half.pftrace", bytes.substr(0, cut));
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

TEST_CASE("perfetto: exported slices also carry their details as display annotations, interned") {
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
            if (valuesByName[names[a.name_iid()]].size() < 50)
                valuesByName[names[a.name_iid()]].insert(a.string_value());
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

TEST_CASE("perfetto: exported slices carry their fields under machine keys, numbers as numbers") {
    namespace fmt = lanescope::perfetto_format;
    const auto dir = tempDir("perfetto-machine-keys");
    auto original = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    std::string error;
    REQUIRE(writePerfetto(*original, dir / "keys.pftrace", error));
    lanescope::perfetto_pb::Trace trace;
    REQUIRE(trace.ParseFromString(readFile(dir / "keys.pftrace")));
    std::map<uint64_t, std::string> names;         // interned annotation names, by iid
    std::map<std::string, uint64_t> slicesOfKind;  // lanescope.kind -> slices
    uint64_t begins = 0, memcpyBytes = 0, memsetBytes = 0, wrongType = 0;
    std::set<uint64_t> copyKinds, correlationIds;
    std::set<std::string> keysSeen;
    for (const auto& packet : trace.packet()) {
        for (const auto& n : packet.interned_data().debug_annotation_names()) names[n.iid()] = n.name();
        const auto& e = packet.track_event();
        if (e.type() != lanescope::perfetto_pb::TrackEvent::TYPE_SLICE_BEGIN) continue;
        ++begins;
        std::string kind;
        std::map<fmt::Key, uint64_t> numbers;
        for (const auto& a : e.debug_annotations()) {
            const std::optional<fmt::Key> key = fmt::keyOfName(names.at(a.name_iid()));
            if (!key) {
                CHECK_FALSE(names.at(a.name_iid()).starts_with(fmt::kKeyPrefix));  // no unknown lanescope.* key
                continue;                                                          // a display label
            }
            keysSeen.insert(names.at(a.name_iid()));
            // The value travels in the field the key declares, and only there.
            const bool ok = [&] {
                switch (fmt::spec(*key).type) {
                    case fmt::ValueType::Uint:
                        return a.has_uint_value() && !a.has_string_value() && !a.has_int_value() &&
                               !a.has_double_value();
                    case fmt::ValueType::String:
                        return a.has_string_value() && !a.has_uint_value();
                    case fmt::ValueType::Bool:
                        return a.has_bool_value() && !a.has_string_value();
                    case fmt::ValueType::Int:
                        return a.has_int_value() && !a.has_uint_value() && !a.has_string_value();
                    case fmt::ValueType::Frames:
                        return a.array_values_size() > 0 && !a.has_string_value() && !a.has_uint_value();
                }
                return false;
            }();
            if (!ok) ++wrongType;
            if (*key == fmt::Key::Kind) kind = a.string_value();
            if (a.has_uint_value()) numbers[*key] = a.uint_value();
        }
        ++slicesOfKind[kind];
        if (kind == "memcpy") {
            memcpyBytes += numbers[fmt::Key::Bytes];
            copyKinds.insert(numbers[fmt::Key::CopyKind]);
        }
        if (kind == "memset") memsetBytes += numbers[fmt::Key::Bytes];
        if (numbers.count(fmt::Key::CorrelationId)) correlationIds.insert(numbers[fmt::Key::CorrelationId]);
    }
    CHECK(wrongType == 0);
    CHECK(slicesOfKind.count("") == 0);  // every slice says its kind
    const EventCounts c = original->counts();
    CHECK(slicesOfKind["kernel"] == c.kernels);
    CHECK(slicesOfKind["memcpy"] == c.memcpy);
    CHECK(slicesOfKind["cuda_api"] == c.cuda_api);
    // The numbers are the model's own: bytes add up to the side tables' totals.
    uint64_t wantMemcpy = 0, wantMemset = 0;
    for (const MemcpyInfo& m : original->memcpys) wantMemcpy += m.bytes;
    for (const MemsetInfo& m : original->memsets) wantMemset += m.bytes;
    CHECK(memcpyBytes == wantMemcpy);
    CHECK(memsetBytes == wantMemset);
    CHECK(memcpyBytes > 0);
    CHECK(copyKinds.count(static_cast<uint64_t>(CopyKind::HtoD)) == 1);
    CHECK(correlationIds.size() > 100);
    for (const char* key :
         {"lanescope.kind", "lanescope.correlation_id", "lanescope.grid_x", "lanescope.block_x",
          "lanescope.registers_per_thread", "lanescope.launch_type", "lanescope.short_name", "lanescope.bytes",
          "lanescope.copy_kind", "lanescope.src_mem_kind", "lanescope.nvtx.start_end"})
        CHECK(keysSeen.count(key) == 1);
}

TEST_CASE("perfetto: re-import reads the machine keys, never the display text") {
    namespace pb = lanescope::perfetto_pb;
    const auto dir = tempDir("perfetto-no-display");
    for (const char* name :
         {"nsys-2025.3/train_1gpu.sqlite", "nsys-2025.3/ddp_rank0.sqlite", "nsys-2022.4/cpu_nvtx_threads.sqlite"}) {
        INFO(name);
        auto original = importAsViewed(dataFile(name));
        const std::multiset<std::string> want = eventFields(*original);
        auto sameAsOriginal = [&](const std::filesystem::path& path) {
            auto back = importOk(path);
            std::string said;
            for (const auto& [diagnostic, count] : back->diagnostics)
                said += diagnostic + " = " + std::to_string(count) + "; ";
            INFO(said);
            CHECK(back->diagnostics.empty());
            CHECK(back->counts().slices == original->counts().slices);
            CHECK(eventFields(*back) == want);
            for (const StatsReportEntry& entry : statsReports()) {
                INFO(entry.name);
                CHECK(comparableCsv(*back, entry.name) == comparableCsv(*original, entry.name));
            }
        };
        std::string error;
        SECTION("display annotations left out") {
            PerfettoWriteOptions options;
            options.display_annotations = false;
            const auto path = dir / "bare.pftrace";
            REQUIRE(writePerfetto(*original, path, error, nullptr, options));
            pb::Trace trace;
            REQUIRE(trace.ParseFromString(readFile(path)));
            for (const auto& packet : trace.packet())
                for (const auto& n : packet.interned_data().debug_annotation_names())
                    CHECK(n.name().starts_with(perfetto_format::kKeyPrefix));
            sameAsOriginal(path);
        }
        SECTION("display labels renamed and their values garbled") {
            const auto path = dir / "full.pftrace";
            REQUIRE(writePerfetto(*original, path, error));
            pb::Trace trace;
            REQUIRE(trace.ParseFromString(readFile(path)));
            std::set<uint64_t> display;  // iids of display labels
            uint64_t garbled = 0;
            for (auto& packet : *trace.mutable_packet()) {
                if (!packet.has_track_event()) continue;  // (mutable_* would add an empty one)
                for (auto& n : *packet.mutable_interned_data()->mutable_debug_annotation_names()) {
                    if (n.name().starts_with(perfetto_format::kKeyPrefix)) continue;
                    display.insert(n.iid());
                    n.set_name("Renamed " + n.name());
                }
                for (auto& a : *packet.mutable_track_event()->mutable_debug_annotations()) {
                    if (display.count(a.name_iid()) == 0) continue;
                    a.set_string_value("9,999 B (garbage #123456, 7 × 7 × 7)");
                    ++garbled;
                }
            }
            REQUIRE(garbled > 0);
            std::string bytes;
            REQUIRE(trace.SerializeToString(&bytes));
            sameAsOriginal(writeFile(dir / "garbled.pftrace", bytes));
        }
    }
}

TEST_CASE("perfetto: a slice's fields come from machine keys of the declared type only") {
    namespace pb = lanescope::perfetto_pb;
    const auto dir = tempDir("perfetto-key-types");
    pb::Trace trace;
    auto* first = trace.add_packet();
    first->set_trusted_packet_sequence_id(1);
    first->set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
    first->mutable_track_descriptor()->set_uuid(1);
    first->mutable_track_descriptor()->set_name("Stream 7");
    int64_t ts = 100;
    // One memcpy slice (category "memcpy") with the given annotations, inline names.
    auto memcpySlice = [&](const std::vector<std::pair<std::string, std::function<void(pb::DebugAnnotation&)>>>& args) {
        auto* begin = trace.add_packet();
        begin->set_trusted_packet_sequence_id(1);
        begin->set_timestamp(static_cast<uint64_t>(ts));
        auto* e = begin->mutable_track_event();
        e->set_type(pb::TrackEvent::TYPE_SLICE_BEGIN);
        e->set_track_uuid(1);
        e->set_name("copy");
        e->add_categories("memcpy");
        for (const auto& [name, set] : args) {
            auto* a = e->add_debug_annotations();
            a->set_name(name);
            set(*a);
        }
        auto* end = trace.add_packet();
        end->set_trusted_packet_sequence_id(1);
        end->set_timestamp(static_cast<uint64_t>(ts + 10));
        end->mutable_track_event()->set_type(pb::TrackEvent::TYPE_SLICE_END);
        end->mutable_track_event()->set_track_uuid(1);
        ts += 100;
    };
    // 1. Display annotations only (what exports wrote before the machine keys): not parsed.
    memcpySlice({{"Bytes", [](pb::DebugAnnotation& a) { a.set_string_value("16,777,216 B (16.78 MB)"); }},
                 {"Copy kind", [](pb::DebugAnnotation& a) { a.set_string_value("Host-to-Device"); }},
                 {"Correlation id", [](pb::DebugAnnotation& a) { a.set_string_value("42"); }}});
    // 2. Machine keys as numbers (an int_value >= 0 reads as a uint).
    memcpySlice({{"lanescope.bytes", [](pb::DebugAnnotation& a) { a.set_uint_value(16777216); }},
                 {"lanescope.copy_kind", [](pb::DebugAnnotation& a) { a.set_int_value(2); }},
                 {"lanescope.correlation_id", [](pb::DebugAnnotation& a) { a.set_uint_value(42); }},
                 {"Bytes", [](pb::DebugAnnotation& a) { a.set_string_value("1 B"); }}});
    // 3. Machine keys with numbers as text, a copy kind out of range: defaults, counted.
    memcpySlice({{"lanescope.bytes", [](pb::DebugAnnotation& a) { a.set_string_value("16777216"); }},
                 {"lanescope.copy_kind", [](pb::DebugAnnotation& a) { a.set_uint_value(99); }},
                 {"lanescope.correlation_id", [](pb::DebugAnnotation& a) { a.set_int_value(-1); }}});
    // 4. lanescope.kind outranks the category: a kernel, its launch configuration read.
    memcpySlice({{"lanescope.kind", [](pb::DebugAnnotation& a) { a.set_string_value("kernel"); }},
                 {"lanescope.grid_x", [](pb::DebugAnnotation& a) { a.set_uint_value(128); }},
                 {"lanescope.block_x", [](pb::DebugAnnotation& a) { a.set_uint_value(1u << 20); }}});  // > uint16
    std::string bytes;
    REQUIRE(trace.SerializeToString(&bytes));
    auto r = importOk(writeFile(dir / "types.pftrace", bytes));
    // The track's kernel and memcpys: a lane of the stream's kernels, then one of its memcpys.
    REQUIRE(r->lanes.size() == 2);
    const Lane& kernels = r->lanes[0];
    const Lane& lane = r->lanes[1];
    REQUIRE(kernels.events.size() == 1);
    REQUIRE(lane.events.size() == 3);
    REQUIRE(r->memcpys.size() == 3);
    const MemcpyInfo& displayOnly = r->memcpys.at(lane.events.payload[0]);
    CHECK(displayOnly.bytes == 0);
    CHECK(displayOnly.copy_kind == CopyKind::Unknown);
    CHECK(displayOnly.correlation_id == 0);
    const MemcpyInfo& machine = r->memcpys.at(lane.events.payload[1]);
    CHECK(machine.bytes == 16777216);
    CHECK(machine.copy_kind == CopyKind::DtoH);
    CHECK(machine.correlation_id == 42);
    const MemcpyInfo& wrong = r->memcpys.at(lane.events.payload[2]);
    CHECK(wrong.bytes == 0);
    CHECK(wrong.copy_kind == CopyKind::Unknown);
    CHECK(wrong.correlation_id == 0);
    CHECK(kernels.events.kind[0] == EventKind::Kernel);
    const KernelConfig& config = r->kernel_configs.at(r->kernels.at(kernels.events.payload[0]).config);
    CHECK(config.grid[0] == 128);
    CHECK(config.block[0] == UINT16_MAX);  // cut to its column's range, and counted
    // bytes as text, copy kind 99, correlation id -1, block_x beyond uint16.
    CHECK(r->diagnostics["perfetto_annotation_invalid"] == 4);
    CHECK(lane.kind == LaneKind::GpuStream);  // both lanes of the one stream
    CHECK(kernels.kind == LaneKind::GpuStream);
    CHECK(r->str(kernels.name_id) == "Stream 7");
    CHECK(r->str(lane.name_id) == "Stream 7");
}

TEST_CASE("perfetto: the CPU side round-trips: thread states and cores and CPU samples with their stacks") {
    const auto dir = tempDir("perfetto-cpu-side");
    // 328 CPU samples with backtraces, 1,449 context switches on 17 threads.
    auto original = importOk(dataFile("nsys-2025.3/cpu_1gpu.sqlite"));
    const CpuSide want = cpuSide(*original);
    REQUIRE(want.states.size() > 1);
    REQUIRE(want.cores.size() > 1);
    REQUIRE(want.samples.size() >= 1);
    std::string error;
    PerfettoWriteStats stats;
    REQUIRE(writePerfetto(*original, dir / "cpu.pftrace", error, &stats));
    auto back = importOk(dir / "cpu.pftrace");
    std::string said;
    for (const auto& [diagnostic, count] : back->diagnostics) said += diagnostic + " = " + std::to_string(count) + "; ";
    INFO(said);
    CHECK(back->diagnostics.empty());
    const CpuSide got = cpuSide(*back);

    // Per thread, the same thread states: starts, durations, states, cores and names.
    CHECK(got.states.size() == want.states.size());
    for (const auto& [thread, states] : want.states) {
        INFO("thread states of pid " << thread.first << " tid " << thread.second);
        REQUIRE(got.states.count(thread) == 1);
        CHECK(got.states.at(thread).size() == states.size());
        CHECK(got.states.at(thread) == states);
    }
    // The same cores, parentless, each running the same threads at the same times.
    CHECK(got.coreLanesWithOwner == 0);
    CHECK(got.cores.size() == want.cores.size());
    for (const auto& [cpu, runs] : want.cores) {
        INFO("CPU " << cpu);
        CHECK(cpu >= 0);
        REQUIRE(got.cores.count(cpu) == 1);
        CHECK(got.cores.at(cpu).size() == runs.size());
        CHECK(got.cores.at(cpu) == runs);
    }
    // Per thread, the same samples at the same times with the same stacks, frame by frame.
    CHECK(got.samples.size() == want.samples.size());
    for (const auto& [thread, samples] : want.samples) {
        INFO("samples of pid " << thread.first << " tid " << thread.second);
        REQUIRE(got.samples.count(thread) == 1);
        CHECK(got.samples.at(thread).size() == samples.size());
        CHECK(got.samples.at(thread) == samples);
    }
    const EventCounts a = original->counts(), b = back->counts();
    CHECK(b.cpu_samples == a.cpu_samples);
    CHECK(b.context_switches == a.context_switches);
    CHECK(b.cpu_samples == 328);
    // The whole-CPU utilization is not written: the import makes it again from the core lanes,
    // once, the same.
    REQUIRE(back->cpu_utilization_counter >= 0);
    REQUIRE(original->cpu_utilization_counter >= 0);
    size_t utilizationCounters = 0;
    for (const Counter& c : back->counters) utilizationCounters += back->str(c.name_id) == "CPU utilization";
    CHECK(utilizationCounters == 1);
    const Counter& wantUse = original->counters[static_cast<size_t>(original->cpu_utilization_counter)];
    const Counter& gotUse = back->counters[static_cast<size_t>(back->cpu_utilization_counter)];
    CHECK(gotUse.derived);
    CHECK(gotUse.time_ns == wantUse.time_ns);
    CHECK(gotUse.value == wantUse.value);
    // What is exported again is the same trace's worth: same slices and instants.
    PerfettoWriteStats again;
    REQUIRE(writePerfetto(*back, dir / "again.pftrace", error, &again));
    CHECK(again.slices == stats.slices);
    CHECK(again.instants == stats.instants);
    CHECK(again.counter_samples == stats.counter_samples);
}

TEST_CASE("perfetto: CPU-side keys are read by their declared types and stacks inline or interned") {
    namespace pb = lanescope::perfetto_pb;
    const auto dir = tempDir("perfetto-cpu-keys");
    pb::Trace trace;
    auto packet = [&](int64_t ts) {
        auto* p = trace.add_packet();
        p->set_trusted_packet_sequence_id(1);
        if (trace.packet_size() == 1) p->set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
        p->set_timestamp(static_cast<uint64_t>(ts));
        return p;
    };
    auto track = [&](uint64_t uuid, uint64_t parent, const std::string& name) {
        auto* d = packet(0)->mutable_track_descriptor();
        d->set_uuid(uuid);
        if (parent) d->set_parent_uuid(parent);
        d->set_name(name);
        return d;
    };
    auto thread = track(1, 0, "");
    thread->mutable_thread()->set_pid(10);
    thread->mutable_thread()->set_tid(11);
    track(2, 1, "Thread state");
    track(3, 0, "CPU 5");
    track(4, 1, "CPU samples");
    auto annotation = [](pb::TrackEvent* e, const std::string& name) {
        auto* a = e->add_debug_annotations();
        a->set_name(name);
        return a;
    };
    auto slice = [&](uint64_t uuid, int64_t ts, const char* category) {
        auto* e = packet(ts)->mutable_track_event();
        e->set_type(pb::TrackEvent::TYPE_SLICE_BEGIN);
        e->set_track_uuid(uuid);
        e->set_name("slice");
        e->add_categories(category);
        auto* end = packet(ts + 10)->mutable_track_event();
        end->set_type(pb::TrackEvent::TYPE_SLICE_END);
        end->set_track_uuid(uuid);
        return e;
    };
    // Thread states: a good one; a state beyond the enumeration (Unknown, counted); a core
    // given as text (core 0, counted).
    auto* good = slice(2, 100, "thread_state");
    annotation(good, "lanescope.thread_state")->set_uint_value(1);
    annotation(good, "lanescope.cpu")->set_int_value(5);
    annotation(slice(2, 200, "thread_state"), "lanescope.thread_state")->set_uint_value(9);
    annotation(slice(2, 300, "thread_state"), "lanescope.cpu")->set_string_value("5");
    // Core runs: the thread track's thread (pid and tid as uints); a thread no track names
    // (made); no thread at all.
    auto* known = slice(3, 100, "core_run");
    annotation(known, "lanescope.pid")->set_uint_value(10);
    annotation(known, "lanescope.tid")->set_uint_value(11);
    auto* unknown = slice(3, 200, "core_run");
    annotation(unknown, "lanescope.pid")->set_int_value(20);
    annotation(unknown, "lanescope.tid")->set_int_value(21);
    slice(3, 300, "core_run");
    // CPU samples: a stack with inline names and values (module left out); the same stack
    // interned; a stack of the wrong type (counted); none.
    auto sample = [&](int64_t ts) {
        auto* e = packet(ts)->mutable_track_event();
        e->set_type(pb::TrackEvent::TYPE_INSTANT);
        e->set_track_uuid(4);
        e->set_name("leaf");
        e->add_categories("cpu_sample");
        return e;
    };
    auto* inlineStack = annotation(sample(100), "lanescope.stack");
    for (const char* function : {"leaf", "main"}) {
        auto* entry = inlineStack->add_array_values()->add_dict_entries();
        entry->set_name("function");
        entry->set_string_value(function);
    }
    auto* internedPacket = packet(200);
    auto* interned = internedPacket->mutable_interned_data();
    auto internName = [&](uint64_t iid, const char* name) {
        auto* n = interned->add_debug_annotation_names();
        n->set_iid(iid);
        n->set_name(name);
    };
    internName(1, "lanescope.stack");
    internName(2, "function");
    internName(3, "module");
    for (uint64_t iid : {1, 2, 3}) {
        auto* v = interned->add_debug_annotation_string_values();
        v->set_iid(iid);
        v->set_str(iid == 1 ? "leaf" : iid == 2 ? "main" : "");
    }
    auto* e = internedPacket->mutable_track_event();
    e->set_type(pb::TrackEvent::TYPE_INSTANT);
    e->set_track_uuid(4);
    e->set_name("leaf");
    e->add_categories("cpu_sample");
    auto* internedStack = e->add_debug_annotations();
    internedStack->set_name_iid(1);
    for (uint64_t function : {1, 2}) {
        auto* frame = internedStack->add_array_values();
        auto* f = frame->add_dict_entries();
        f->set_name_iid(2);
        f->set_string_value_iid(function);
        auto* m = frame->add_dict_entries();
        m->set_name_iid(3);
        m->set_string_value_iid(3);
    }
    annotation(sample(300), "lanescope.stack")->set_string_value("leaf < main");
    sample(400);
    std::string bytes;
    REQUIRE(trace.SerializeToString(&bytes));
    auto r = importOk(writeFile(dir / "cpu.pftrace", bytes));

    auto laneOf = [&](LaneKind kind) -> const Lane& {
        for (const Lane& lane : r->lanes)
            if (lane.kind == kind) return lane;
        FAIL("no lane of kind " << laneKindName(kind));
        return r->lanes.front();
    };
    const Lane& states = laneOf(LaneKind::ThreadState);
    REQUIRE(states.events.size() == 3);
    CHECK(states.thread == 0);
    CHECK(states.events.payload[0] == threadStatePayload(ThreadRunState::Blocked, 5));
    CHECK(states.events.payload[1] == threadStatePayload(ThreadRunState::Unknown, 0));
    CHECK(states.events.payload[2] == threadStatePayload(ThreadRunState::Unknown, 0));
    const Lane& core = laneOf(LaneKind::CpuCore);
    CHECK(core.cpu == 5);
    CHECK(core.thread == -1);
    REQUIRE(core.events.size() == 3);
    CHECK(core.events.payload[0] == 0);  // the thread of the thread track
    REQUIRE(core.events.payload[1] < r->threads.size());
    CHECK(threadKey(*r, core.events.payload[1]) == ThreadKey{20, 21});
    CHECK(core.events.payload[2] == kNoPayload);
    const Lane& samples = laneOf(LaneKind::CpuSamples);
    CHECK(samples.thread == 0);
    REQUIRE(samples.instants.size() == 4);
    CHECK(stackText(*r, samples.instants.payload[0]) == "leaf () < main () < ");
    CHECK(samples.instants.payload[1] == samples.instants.payload[0]);  // interned once
    CHECK(samples.instants.payload[2] == kNoStack);
    CHECK(samples.instants.payload[3] == kNoStack);
    // State 9, core as text, stack as text; nothing else is odd.
    CHECK(r->diagnostics["perfetto_annotation_invalid"] == 3);
    CHECK(r->diagnostics.size() == 1);
}
