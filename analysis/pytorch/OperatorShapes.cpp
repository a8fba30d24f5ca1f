// PyTorch's operators grouped by name and input shapes.
#include "analysis/pytorch/OperatorShapes.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/pytorch/Operators.h"

namespace lanescope {
OperatorShapesView pytorchOperatorShapes(const Report& report) {
    OperatorShapesView view;
    view.table.name = "pytorch_operator_shapes";
    view.table.header = {"Name",          "Input Shapes",      "Calls",           "CPU Total (ns)",
                         "CPU Self (ns)", "Device Total (ns)", "Device Self (ns)"};
    // Only operators' rows carry shapes (the Kineto importer's cpu_op events).
    if (std::none_of(report.nvtx.begin(), report.nvtx.end(),
                     [](const NvtxInfo& n) { return n.input_shapes_id != 0; })) {
        view.missing =
            "the trace records no input shapes (Input Dims of cpu_op events): record with record_shapes=True";
        return view;
    }
    std::map<std::pair<uint32_t, uint32_t>, OperatorSums> byNameAndShapes;  // by (name id, shapes id)
    forEachOperatorLane(report, [&](const OperatorLaneTimes& times) {
        const IntervalColumns& ev = report.lanes[times.lane].events;
        for (size_t i = 0; i < ev.size(); ++i) {
            const uint32_t shapes = ev.payload[i] < report.nvtx.size() ? report.nvtx[ev.payload[i]].input_shapes_id : 0;
            byNameAndShapes[{ev.name_id[i], shapes}].add(ev, i, times);
        }
    });

    // (name, shapes text, sums), sorted below; string id 0 is the empty string.
    std::vector<std::tuple<std::string_view, std::string_view, const OperatorSums*>> rows;
    rows.reserve(byNameAndShapes.size());
    for (const auto& [key, sums] : byNameAndShapes)
        rows.emplace_back(report.str(key.first), report.str(key.second), &sums);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        const int64_t ta = std::get<2>(a)->cpuTotal, tb = std::get<2>(b)->cpuTotal;
        if (ta != tb) return ta > tb;
        return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    for (const auto& [name, shapes, s] : rows)
        view.table.rows.push_back(
            {std::string(name), std::string(shapes), s->calls, s->cpuTotal, s->cpuSelf, s->deviceTotal, s->deviceSelf});
    return view;
}

}  // namespace lanescope
