// Theoretical occupancy (model/Occupancy.h) against the CUDA driver's own calculation: the
// occupancy capture (tests/data/workloads/occupancy.py, an H200) launched 52 configurations of 11
// kernels (block sizes, registers capped at compile time, static and dynamic shared memory) and
// wrote cuOccupancyMaxActiveBlocksPerMultiprocessor for each beside the trace
// (expected/occupancy/occupancy_expected.csv). Each kernel's blocks per SM, computed from what
// the report records of it and of its GPU, must equal the driver's, read natively and from
// nsys's export.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "model/Occupancy.h"
#include "support/ReportSql.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

struct Expected {
    std::string kernel;
    uint32_t block_x = 0, dynamic_shared = 0, blocks_per_sm = 0;
};

std::vector<Expected> expectedRows() {
    std::ifstream in(dataFile("expected/occupancy/occupancy_expected.csv"));
    std::string line;
    std::getline(in, line);
    REQUIRE(line == "kernel,block_x,dynamic_shared,registers,static_shared,max_active_blocks_per_sm");
    std::vector<Expected> rows;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream cellsOf(line);
        for (std::string cell; std::getline(cellsOf, cell, ',');) cells.push_back(cell);
        REQUIRE(cells.size() == 6);
        rows.push_back(
            {cells[0], uint32_t(std::stoul(cells[1])), uint32_t(std::stoul(cells[2])), uint32_t(std::stoul(cells[5]))});
    }
    return rows;
}

}  // namespace

TEST_CASE("theoretical occupancy equals the CUDA driver's on 52 launches of an H200", "[occupancy]") {
    const std::vector<Expected> expected = expectedRows();
    REQUIRE(expected.size() == 52);
    for (const char* file : {"nsys-2025.3/occupancy.nsys-rep", "nsys-2025.3/occupancy.sqlite"}) {
        INFO(file);
        const auto report = importOk(dataFile(file));
        REQUIRE(report->machine_gpus.size() == 1);
        uint8_t limitsSeen = 0;
        size_t checked = 0;
        for (const Lane& lane : report->lanes) {
            if (lane.kind != LaneKind::GpuStream) continue;
            const MachineGpu* gpu = machineGpuOf(*report, report->gpus[size_t(lane.gpu)]);
            REQUIRE(gpu);
            for (size_t i = 0; i < lane.events.size(); ++i) {
                if (lane.events.kind[i] != EventKind::Kernel) continue;
                const KernelConfig& c = report->kernel_configs[report->kernels[lane.events.payload[i]].config];
                const std::string name(report->str(c.short_name_id));
                const auto row = std::find_if(expected.begin(), expected.end(), [&](const Expected& e) {
                    return e.kernel == name && e.block_x == c.block[0] && e.dynamic_shared == c.dynamic_shared_bytes;
                });
                INFO(name << " block " << c.block[0] << " dynamic shared " << c.dynamic_shared_bytes);
                REQUIRE(row != expected.end());
                const auto occupancy = theoreticalOccupancy(c, *gpu);
                REQUIRE(occupancy);
                CHECK(occupancy->blocks_per_sm == row->blocks_per_sm);
                limitsSeen |= occupancy->limits;
                ++checked;
            }
        }
        CHECK(checked == expected.size());
        // Every limit decided some launch.
        CHECK(limitsSeen == (kLimitedByBlocks | kLimitedByWarps | kLimitedByRegisters | kLimitedBySharedMemory));
    }
}
