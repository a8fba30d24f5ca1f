#include <algorithm>

#include "TestPaths.h"
#include "importers/ImportHelpers.h"
#include "timeline/RowLayout.h"

using namespace lanescope;

namespace {

std::vector<std::string> labels(const RowLayout& layout) {
    std::vector<std::string> out;
    for (const LayoutRow& r : layout.rows()) out.push_back(std::string(r.level * 2, ' ') + r.label);
    return out;
}

const LayoutRow* find(const RowLayout& layout, const std::string& label) {
    for (const LayoutRow& r : layout.rows())
        if (r.label == label) return &r;
    return nullptr;
}

}  // namespace

TEST_CASE("row layout: rows stack without gaps and lanes are as tall as they are deep") {
    std::shared_ptr<const Report> report = test::importAsViewed(test::dataFile("nsys-2025.3/train_1gpu.sqlite"));
    RowLayout layout;
    layout.setReports({report}, RowOrder::GpuFirst);
    const auto& rows = layout.rows();
    REQUIRE(rows.size() > 5);
    CHECK(rows[0].label == "train_1gpu.sqlite");
    CHECK(rows[1].label == "GPU 0: NVIDIA H200");
    for (size_t i = 1; i < rows.size(); ++i) CHECK(rows[i].y == rows[i - 1].y + rows[i - 1].height);
    const LayoutRow* gpuRow = find(layout, "GPU 0: NVIDIA H200");
    REQUIRE(gpuRow);
    CHECK(gpuRow->expanded);
    // All streams merged on the GPU's own row, even when open: stream 7's kernel and memory lanes.
    CHECK(gpuRow->lanes.size() == 2);
    // The stream's two lanes are one row, "Stream 7", which draws both.
    const auto streamRows =
        std::count_if(rows.begin(), rows.end(), [](const LayoutRow& r) { return r.label == "Stream 7"; });
    CHECK(streamRows == 1);
    const LayoutRow* stream = find(layout, "Stream 7");
    REQUIRE(stream);
    REQUIRE(stream->lanes.size() == 2);
    CHECK(isKernelLane(report->lanes[size_t(stream->lanes[0])]));
    CHECK(report->lanes[size_t(stream->lanes[1])].events.kind[0] != EventKind::Kernel);
    CHECK(stream->events == report->lanes[size_t(stream->lanes[0])].events.size() +
                                report->lanes[size_t(stream->lanes[0])].instants.size() +
                                report->lanes[size_t(stream->lanes[1])].events.size());
    const LayoutRow* nvtx = find(layout, "NVTX");
    REQUIRE(nvtx);
    CHECK(nvtx->height == 3 * RowLayout::kDepthPx + RowLayout::kPaddingPx);  // step > forward > conv
    CHECK(layout.rowAt(nvtx->y + 1) == nvtx);
    CHECK(layout.rowAt(-1) == nullptr);
    CHECK(layout.rowAt(layout.totalHeight()) == nullptr);
}

TEST_CASE("row layout: collapse shows a summary row, hide, show only, filter, reorder") {
    std::shared_ptr<const Report> report = test::importAsViewed(test::dataFile("nsys-2025.3/train_1gpu.sqlite"));
    RowLayout layout;
    layout.setReports({report}, RowOrder::GpuFirst);
    const size_t all = layout.rows().size();

    const std::string gpu = find(layout, "GPU 0: NVIDIA H200")->key;
    layout.setExpanded(gpu, false);
    const LayoutRow* collapsed = find(layout, "GPU 0: NVIDIA H200");
    REQUIRE(collapsed);
    CHECK_FALSE(collapsed->expanded);
    CHECK(collapsed->lanes.size() == 2);  // the summary of a GPU shows its streams' work
    CHECK(find(layout, "Stream 7") == nullptr);
    layout.setExpanded(gpu, true);
    CHECK(layout.rows().size() == all);

    layout.hide(find(layout, "Stream 7")->key);
    CHECK(find(layout, "Stream 7") == nullptr);
    CHECK(layout.hiddenCount() == 1);
    layout.showAll();
    CHECK(layout.rows().size() == all);

    layout.showOnly(find(layout, "pt_autograd_0 [1175]")->key);
    CHECK(labels(layout) == std::vector<std::string>{"train_1gpu.sqlite", "  python3 [1130]",
                                                     "    pt_autograd_0 [1175]", "      CUDA API", "      OS runtime"});
    layout.showAll();

    layout.setFilter("nvtx", false);
    CHECK(labels(layout) == std::vector<std::string>{"train_1gpu.sqlite", "  GPU 0: NVIDIA H200",
                                                     "    NVTX on GPU, python3 [1130]", "  python3 [1130]",
                                                     "    python3 [1130]", "      NVTX"});
    layout.setFilter("^Sync", true);
    CHECK(find(layout, "Sync, stream 7") != nullptr);
    CHECK(find(layout, "Stream 7") == nullptr);
    layout.setFilter("([", true);
    CHECK_FALSE(layout.filterValid());
    CHECK(layout.rows().size() == all);  // an invalid filter filters nothing
    layout.setFilter("", false);

    const std::string gpuRow = find(layout, "GPU 0: NVIDIA H200")->key;
    const std::string process = find(layout, "python3 [1130]")->key;
    CHECK(layout.moveBefore(process, gpuRow));
    CHECK(layout.rows()[1].label == "python3 [1130]");
    CHECK_FALSE(layout.moveBefore(find(layout, "Stream 7")->key, process));  // different parents
}

TEST_CASE("row layout: above four reports each starts as one summary row of its GPU work") {
    std::shared_ptr<const Report> rank0 = test::importAsViewed(test::dataFile("nsys-2025.3/ddp_rank0.sqlite"));
    RowLayout layout;
    const auto reportRows = [&layout] {
        std::vector<const LayoutRow*> out;
        for (const LayoutRow& r : layout.rows())
            if (r.level == 0) out.push_back(&r);
        return out;
    };
    layout.setReports({rank0, rank0, rank0, rank0}, RowOrder::GpuFirst);
    REQUIRE(reportRows().size() == 4);
    for (const LayoutRow* r : reportRows()) CHECK(r->expanded);
    CHECK(layout.rows().size() > 4 * 4);

    layout.setReports({rank0, rank0, rank0, rank0, rank0}, RowOrder::GpuFirst);
    REQUIRE(layout.rows().size() == 5);
    for (const LayoutRow& r : layout.rows()) {
        CHECK(r.level == 0);
        CHECK(r.expandable);
        CHECK(!r.expanded);
        CHECK(r.height == RowLayout::kReportSummaryPx);
        CHECK(r.boxHeight() == RowLayout::kReportSummaryPx - RowLayout::kPaddingPx);
        REQUIRE(!r.lanes.empty());
        for (int lane : r.lanes) CHECK(rank0->lanes[size_t(lane)].kind == LaneKind::GpuStream);
        CHECK(layout.rowAt(r.y + 1) == &r);
    }
    CHECK(layout.totalHeight() == 5 * RowLayout::kReportSummaryPx);
    CHECK(layout.collapsed().empty());  // defaults are no choices: row presets do not save them

    // Expanding one (and collapsing another's GPU) sticks as a sixth report joins.
    const std::string second = layout.rows()[1].key;
    layout.toggleExpanded(second);
    CHECK(layout.isExpanded(second));
    CHECK(!layout.isExpanded(layout.rows()[0].key));
    layout.setReports({rank0, rank0, rank0, rank0, rank0, rank0}, RowOrder::GpuFirst);
    const auto rows = reportRows();
    REQUIRE(rows.size() == 6);
    for (const LayoutRow* r : rows) CHECK(r->expanded == (r->key == second));
    CHECK(rows[1]->height == RowLayout::kGroupPx);
    // Back to two: all open again, the one the user collapsed excepted.
    layout.toggleExpanded(rows[0]->key);  // opened by choice: stays open
    layout.setExpanded(second, false);    // closed by choice: stays closed
    layout.setReports({rank0, rank0}, RowOrder::GpuFirst);
    const auto two = reportRows();
    REQUIRE(two.size() == 2);
    CHECK(two[0]->expanded);
    CHECK(!two[1]->expanded);
    CHECK(layout.collapsed() == std::set<std::string>{second});
}
