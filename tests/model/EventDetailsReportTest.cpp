// eventDetails on real reports of the corpus, checked against SQL on the same files.
#include <cstdlib>

#include "model/EventDetails.h"
#include "support/ReportSql.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

// The event of this kind starting at start_ns on a stream lane; REQUIREs exactly one.
EventRef findOnStreams(const Report& r, EventKind kind, int64_t start_ns) {
    std::vector<EventRef> found;
    for (uint32_t li = 0; li < r.lanes.size(); ++li) {
        const Lane& lane = r.lanes[li];
        if (lane.kind != LaneKind::GpuStream) continue;
        for (uint32_t i = 0; i < lane.events.size(); ++i)
            if (lane.events.kind[i] == kind && lane.events.start_ns[i] == start_ns) found.push_back({li, i});
    }
    REQUIRE(found.size() == 1);
    return found[0];
}

std::string value(const std::vector<DetailField>& fields, const std::string& label) {
    for (const auto& f : fields)
        if (f.label == label) return f.value;
    return "<missing " + label + ">";
}

std::string times(const std::string& x, const std::string& y, const std::string& z) {
    return x + " \xC3\x97 " + y + " \xC3\x97 " + z;
}

}  // namespace

TEST_CASE("details of the first kernel of train_1gpu carry SQL's launch configuration") {
    const auto path = dataFile("nsys-2025.3/train_1gpu.sqlite");
    const auto report = importOk(path);
    const auto rows =
        sqliteRows(path,
                   "SELECT k.start, k.end, gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread, "
                   "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, correlationId, streamId, "
                   "d.value, s.value, launchType, sharedMemoryExecuted FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                   "JOIN StringIds d ON d.id = k.demangledName JOIN StringIds s ON s.id = k.shortName "
                   "ORDER BY k.start LIMIT 1");
    REQUIRE(rows.size() == 1);
    const auto& k = rows[0];
    const int64_t start = std::stoll(k[0]), end = std::stoll(k[1]);
    const auto d = eventDetails(*report, findOnStreams(*report, EventKind::Kernel, start));
    CHECK(value(d, "Name") == k[14]);
    CHECK(value(d, "Kind") == "Kernel");
    CHECK(value(d, "Start") == k[0] + " ns");
    CHECK(value(d, "Duration") == detailDuration(end - start));
    CHECK(value(d, "Grid") == times(k[2], k[3], k[4]));
    CHECK(value(d, "Block") == times(k[5], k[6], k[7]));
    CHECK(value(d, "Registers/thread") == k[8]);
    CHECK(value(d, "Static shared memory") == detailBytes(std::stoull(k[9])));
    CHECK(value(d, "Dynamic shared memory") == detailBytes(std::stoull(k[10])));
    CHECK(value(d, "Local memory/thread") == detailBytes(std::stoull(k[11])));
    CHECK(value(d, "Correlation id") == k[12]);
    CHECK(value(d, "Stream") == k[13]);
    CHECK(value(d, "Lane") == "Stream " + k[13]);
    CHECK(value(d, "Short name") == k[15]);
    CHECK(value(d, "Launch type") == (k[16] == "1" ? "Regular" : "?"));
    CHECK(value(d, "GPU").starts_with("NVIDIA "));
    CHECK(value(d, "Process").ends_with("]"));
    // Known values of this capture, so a wrong SQL join cannot make both sides agree.
    CHECK(value(d, "Grid") == "1 \xC3\x97 1024 \xC3\x97 1");
    CHECK(value(d, "Block") == "128 \xC3\x97 1 \xC3\x97 1");
    CHECK(value(d, "Registers/thread") == "255");
    CHECK(value(d, "Dynamic shared memory") == "33,280 B (33.28 kB)");
    CHECK(value(d, "Shared memory executed") == detailBytes(std::stoull(k[17])));
    // 255 registers round up to 8,192 a warp: 2 warps in each of the 4 sub-partitions, 2 blocks of
    // 4 warps (shared memory would allow 6: 233,472 / (33,280 + 1,024)).
    CHECK(value(d, "Theoretical occupancy") == "12.5 % (8 of 64 warps per SM, 2 blocks; limited by registers)");
}

TEST_CASE("a kernel's details give its mangled name where it differs from the name shown") {
    // The first kernel of train_1gpu (a cuDNN one) was compiled with its name unmangled; the
    // second is a templated at::native one.
    for (const char* file : {"nsys-2025.3/train_1gpu.sqlite", "nsys-2025.3/train_1gpu.nsys-rep"}) {
        INFO(file);
        const auto report = importOk(dataFile(file));
        const auto rows = sqliteRows(dataFile("nsys-2025.3/train_1gpu.sqlite"),
                                     "SELECT k.start, m.value, m.value = d.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                     "JOIN StringIds m ON m.id = k.mangledName JOIN StringIds d ON d.id = "
                                     "k.demangledName ORDER BY k.start LIMIT 2");
        REQUIRE(rows.size() == 2);
        CHECK(rows[0][2] == "1");
        CHECK(value(eventDetails(*report, findOnStreams(*report, EventKind::Kernel, std::stoll(rows[0][0]))),
                    "Mangled name") == "<missing Mangled name>");
        CHECK(rows[1][2] == "0");
        CHECK(rows[1][1].starts_with("_ZN2at6native"));
        CHECK(value(eventDetails(*report, findOnStreams(*report, EventKind::Kernel, std::stoll(rows[1][0]))),
                    "Mangled name") == rows[1][1]);
    }
}

TEST_CASE("details of the first HtoD memcpy of train_1gpu: throughput is bytes/duration") {
    const auto path = dataFile("nsys-2025.3/train_1gpu.sqlite");
    const auto report = importOk(path);
    const auto rows =
        sqliteRows(path,
                   "SELECT start, end, bytes, correlationId, srcKind, dstKind FROM CUPTI_ACTIVITY_KIND_MEMCPY "
                   "WHERE copyKind = 1 ORDER BY start LIMIT 1");
    REQUIRE(rows.size() == 1);
    const auto& m = rows[0];
    const int64_t start = std::stoll(m[0]), end = std::stoll(m[1]);
    const uint64_t bytes = std::stoull(m[2]);
    REQUIRE(end > start);
    const auto d = eventDetails(*report, findOnStreams(*report, EventKind::Memcpy, start));
    CHECK(value(d, "Name") == "[CUDA memcpy Host-to-Device]");
    CHECK(value(d, "Bytes") == detailBytes(bytes));
    CHECK(value(d, "Bytes").starts_with(detailThousands(bytes) + " B"));
    CHECK(value(d, "Source memory") == (m[4] == "0" ? "Pageable" : "?"));
    CHECK(value(d, "Destination memory") == (m[5] == "2" ? "Device" : "?"));
    CHECK(value(d, "Correlation id") == m[3]);

    const std::string throughput = value(d, "Throughput");
    const double gbPerS = static_cast<double>(bytes) / static_cast<double>(end - start);
    char* unit = nullptr;
    const double shown = std::strtod(throughput.c_str(), &unit);
    REQUIRE(unit != nullptr);
    const std::string u = unit;
    REQUIRE((u == " GB/s" || u == " MB/s"));
    CHECK((u == " GB/s" ? shown : shown / 1000.0) == Approx(gbPerS).epsilon(1e-3));
    // 3,145,728 B in 218,720 ns in this capture: 14.382 GB/s.
    CHECK(throughput == "14.382 GB/s");
}

TEST_CASE("details of every event of two reports: common fields first, kind-specific ones present") {
    for (const char* file : {"nsys-2025.3/train_1gpu.sqlite", "nsys-2025.3/ddp_rank0.sqlite",
                             "nsys-2025.3/cpu_1gpu.sqlite", "nsys-2022.4/openmp_loops.sqlite"}) {
        INFO(file);
        const auto report = importOk(dataFile(file));
        size_t checked = 0;
        for (uint32_t li = 0; li < report->lanes.size(); ++li) {
            const Lane& lane = report->lanes[li];
            for (uint32_t i = 0; i < lane.events.size(); ++i) {
                const auto d = eventDetails(*report, {li, i});
                REQUIRE(d.size() >= 8);
                CHECK(d[0].label == "Name");
                CHECK(d[0].value == report->str(lane.events.name_id[i]));
                CHECK(d[1].value == eventKindLabel(lane.events.kind[i]));
                switch (lane.events.kind[i]) {
                    case EventKind::Kernel:
                        CHECK(d.back().label == "Correlation id");
                        break;
                    case EventKind::Memcpy:
                    case EventKind::Memset:
                        CHECK(value(d, "Throughput") != "<missing Throughput>");
                        break;
                    case EventKind::NvtxRange:
                        CHECK(d.back().label == "Style");
                        break;
                    case EventKind::CudaApiCall:
                        CHECK(d.back().label == "Correlation id");
                        break;
                    case EventKind::Sync:
                        CHECK(value(d, "Type") != "Unknown");
                        break;
                    case EventKind::OsRuntimeCall:
                    case EventKind::MpiCall:
                    case EventKind::OpenMpEvent:
                    case EventKind::ProfilerOverhead:
                        CHECK(d.back().label == "Depth");
                        break;
                    case EventKind::GraphExecution:
                        CHECK(value(d, "Graph id") != "<missing Graph id>");
                        CHECK(value(d, "Correlation id") != "<missing Correlation id>");
                        break;
                    case EventKind::GpuPageFault:
                        CHECK(value(d, "Page faults") != "<missing Page faults>");
                        break;
                    case EventKind::ThreadState:
                        CHECK(value(d, "State") != "<missing State>");
                        break;
                    case EventKind::CoreRun:
                        CHECK(value(d, "Thread") != "<missing Thread>");
                        CHECK(value(d, "CPU") == std::to_string(lane.cpu));
                        break;
                }
                ++checked;
            }
        }
        CHECK(checked > 600);
    }
}
