// The PyTorch views by name: what the panel's tabs and `lanescope-cli pytorch` run.
#include "analysis/pytorch/PytorchViews.h"

#include <utility>

#include "analysis/pytorch/KernelsView.h"
#include "analysis/pytorch/Operators.h"

namespace lanescope {
namespace {

PytorchViewResult operatorsView(const Report& report) {
    PytorchViewResult result;
    result.tables.push_back(pytorchOperators(report));
    if (result.tables.front().rows.empty())
        result.missing = "no PyTorch operators: the trace records no cpu_op or Operator events";
    else if (report.kernels.empty() && report.memcpys.empty() && report.memsets.empty())
        result.missing = "no GPU work: the trace records no kernels, memcpy or memset, so the device columns are 0";
    return result;
}

PytorchViewResult kernelsView(const Report& report) {
    KernelsView kernels = pytorchKernels(report);
    PytorchViewResult result;
    result.tables.push_back(std::move(kernels.table));
    result.missing = std::move(kernels.missing);
    return result;
}

// A row whose first column is the name its events carry on the timeline.
PytorchRowTarget namedByFirstColumn(const StatsTable& table, size_t row) {
    PytorchRowTarget target;
    if (row < table.rows.size() && !table.rows[row].empty()) target.eventName = formatCell(table.rows[row].front());
    return target;
}

}  // namespace

const std::vector<PytorchViewEntry>& pytorchViews() {
    static const std::vector<PytorchViewEntry> views = {
        {"operators", "Operators", operatorsView, namedByFirstColumn},
        {"kernels", "Kernels", kernelsView, namedByFirstColumn},
    };
    return views;
}

const PytorchViewEntry* findPytorchView(std::string_view name) {
    for (const PytorchViewEntry& view : pytorchViews())
        if (view.name == name) return &view;
    return nullptr;
}

}  // namespace lanescope
