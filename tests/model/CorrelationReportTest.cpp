// CorrelationIndex on real reports of the corpus, checked against SQL on the same files.
#include <algorithm>
#include <map>
#include <set>

#include "model/Correlation.h"
#include "support/ReportSql.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

const char* const kFiles[] = {"nsys-2025.3/train_1gpu.sqlite", "nsys-2025.3/ddp_rank0.sqlite"};

// Launcher name -> number of GPU operations of `table` it launched, as SQL joins them.
std::map<std::string, int64_t> sqlLaunchers(const std::filesystem::path& path, const std::string& table) {
    std::map<std::string, int64_t> out;
    for (const auto& row : sqliteRows(path, "SELECT s.value, count(*) FROM " + table +
                                                " g JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                                                "ON r.correlationId = g.correlationId AND r.globalTid / 16777216 = "
                                                "g.globalPid / 16777216 "
                                                "JOIN StringIds s ON s.id = r.nameId GROUP BY s.value"))
        out[row[0]] = std::stoll(row[1]);
    return out;
}

}  // namespace

TEST_CASE("every kernel, memcpy and memset finds its launcher, and the launcher finds it back") {
    const std::set<std::string> kernelLaunchers = {"cudaLaunchKernel", "cudaLaunchKernel_v7000", "cuLaunchKernel",
                                                   "cudaLaunchKernelExC_v11060", "cuLaunchKernelEx"};
    for (const char* file : kFiles) {
        INFO(file);
        const auto path = dataFile(file);
        const auto report = importOk(path);
        const CorrelationIndex index(*report);
        const EventCounts counts = report->counts();
        CHECK(index.gpuOpCount() == counts.kernels + counts.memcpy + counts.memset);
        CHECK(static_cast<int64_t>(index.apiCallCount()) ==
              sqliteInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId != 0"));
        // 16 bytes an indexed event (capacity is reserved for every call and operation).
        CHECK(index.memoryBytes() <=
              sizeof(CorrelationIndex) + 16 * (counts.kernels + counts.memcpy + counts.memset + counts.cuda_api));

        std::map<EventKind, std::map<std::string, int64_t>> byLauncher;
        std::map<EventKind, int64_t> without;
        for (uint32_t li = 0; li < report->lanes.size(); ++li) {
            const Lane& lane = report->lanes[li];
            if (lane.kind != LaneKind::GpuStream) continue;
            for (uint32_t i = 0; i < lane.events.size(); ++i) {
                const EventKind kind = lane.events.kind[i];
                const EventRef op{li, i};
                const auto launcher = index.launcherOf(op);
                if (!launcher) {
                    ++without[kind];
                    continue;
                }
                const Lane& apiLane = report->lanes[launcher->lane];
                REQUIRE(apiLane.kind == LaneKind::CudaApi);
                CHECK(apiLane.process == lane.process);
                CHECK(correlationIdOf(*report, *launcher) == correlationIdOf(*report, op));
                // The call starts before the work it launched runs.
                CHECK(apiLane.events.start_ns[launcher->index] <= lane.events.start_ns[i]);
                const std::string name(report->str(apiLane.events.name_id[launcher->index]));
                ++byLauncher[kind][name];
                if (kind == EventKind::Kernel) CHECK(kernelLaunchers.count(name) == 1);
                const auto launched = index.launchedBy(*launcher);
                CHECK(std::find(launched.begin(), launched.end(), op) != launched.end());
            }
        }
        // Operations without a launcher: as many as SQL finds without a runtime row (0 here).
        for (auto [kind, table] : {std::pair{EventKind::Kernel, "CUPTI_ACTIVITY_KIND_KERNEL"},
                                   std::pair{EventKind::Memcpy, "CUPTI_ACTIVITY_KIND_MEMCPY"},
                                   std::pair{EventKind::Memset, "CUPTI_ACTIVITY_KIND_MEMSET"}}) {
            INFO(table);
            const int64_t sqlWithout =
                sqliteInt(path, std::string("SELECT count(*) FROM ") + table +
                                    " g WHERE NOT EXISTS (SELECT 1 FROM "
                                    "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = g.correlationId)");
            CHECK(without[kind] == sqlWithout);
            CHECK(sqlWithout == 0);
            CHECK(byLauncher[kind] == sqlLaunchers(path, table));
        }
        CHECK(byLauncher[EventKind::Memcpy] ==
              std::map<std::string, int64_t>{{"cudaMemcpyAsync_v3020", static_cast<int64_t>(counts.memcpy)}});
    }
}

TEST_CASE("launchedBy of every API call: GPU work of its own correlation id, or none") {
    for (const char* file : kFiles) {
        INFO(file);
        const auto path = dataFile(file);
        const auto report = importOk(path);
        const CorrelationIndex index(*report);
        size_t calls = 0, launching = 0, launched = 0;
        for (uint32_t li = 0; li < report->lanes.size(); ++li) {
            const Lane& lane = report->lanes[li];
            if (lane.kind != LaneKind::CudaApi) continue;
            for (uint32_t i = 0; i < lane.events.size(); ++i) {
                const auto ops = index.launchedBy({li, i});
                ++calls;
                launching += !ops.empty();
                launched += ops.size();
                for (EventRef op : ops) {
                    CHECK(report->lanes[op.lane].kind == LaneKind::GpuStream);
                    CHECK(index.launcherOf(op) == EventRef{li, i});
                }
            }
        }
        CHECK(calls == report->counts().cuda_api);
        CHECK(launched == index.gpuOpCount());  // each operation has exactly one launcher
        // Correlation ids of GPU work are distinct in these captures: one operation a call.
        CHECK(static_cast<int64_t>(launching) ==
              sqliteInt(path,
                        "SELECT count(DISTINCT correlationId) FROM (SELECT correlationId FROM "
                        "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT correlationId FROM "
                        "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT correlationId FROM "
                        "CUPTI_ACTIVITY_KIND_MEMSET)"));
    }
}

TEST_CASE("NCCL lane copies of ddp_rank0 kernels point at the same launcher as the originals") {
    const auto report = importOk(dataFile("nsys-2025.3/ddp_rank0.sqlite"));
    const CorrelationIndex index(*report);
    size_t copies = 0;
    for (uint32_t li = 0; li < report->lanes.size(); ++li) {
        const Lane& lane = report->lanes[li];
        if (lane.kind != LaneKind::Nccl) continue;
        for (uint32_t i = 0; i < lane.events.size(); ++i) {
            if (lane.events.kind[i] != EventKind::Kernel) continue;
            ++copies;
            const auto launcher = index.launcherOf({li, i});
            REQUIRE(launcher);
            const auto originals = index.launchedBy(*launcher);
            REQUIRE(originals.size() == 1);
            const Lane& original = report->lanes[originals[0].lane];
            CHECK(original.kind == LaneKind::GpuStream);
            CHECK(original.events.start_ns[originals[0].index] == lane.events.start_ns[i]);
            CHECK(original.events.name_id[originals[0].index] == lane.events.name_id[i]);
        }
    }
    CHECK(copies == 48);  // the nccl* kernels of this capture
}
