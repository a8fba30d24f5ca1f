// The PyTorch views by name: what the panel's tabs and `lanescope-cli pytorch` run.
#include "analysis/pytorch/PytorchViews.h"

#include <algorithm>
#include <utility>

#include "analysis/pytorch/KernelsView.h"
#include "analysis/pytorch/MemoryView.h"
#include "analysis/pytorch/ModulesView.h"
#include "analysis/pytorch/OperatorShapes.h"
#include "analysis/pytorch/OperatorStacks.h"
#include "analysis/pytorch/Operators.h"
#include "analysis/pytorch/StepOverview.h"

namespace lanescope {
namespace {

// Counts the main table's rows, then keeps its first `maxRows`.
PytorchViewResult cut(PytorchViewResult result, size_t maxRows) {
    if (result.tables.empty()) return result;
    std::vector<std::vector<StatsTable::Cell>>& rows = result.tables.front().rows;
    result.mainRows = std::max(result.mainRows, rows.size());
    if (rows.size() > maxRows) rows.resize(maxRows);
    return result;
}

PytorchViewResult operatorsView(const Report& report, size_t maxRows) {
    PytorchViewResult result;
    result.tables.push_back(pytorchOperators(report));
    const bool nvtx = operatorsAreNvtxRanges(report);
    if (result.tables.front().rows.empty())
        result.missing =
            nvtx ? "no PyTorch operators: the report records no NVTX ranges (an nsys report shows "
                   "operators when PyTorch ran under torch.autograd.profiler.emit_nvtx, traced with -t nvtx)"
                 : "no PyTorch operators: the trace records no cpu_op or Operator events";
    else if (report.kernels.empty() && report.memcpys.empty() && report.memsets.empty())
        result.missing = "no GPU work: the trace records no kernels, memcpy or memset, so the device columns are 0";
    else if (nvtx)
        result.missing =
            "no PyTorch cpu_op events: the report's NVTX ranges are shown as the operators, as "
            "torch.autograd.profiler.emit_nvtx records them";
    return cut(std::move(result), maxRows);
}

PytorchViewResult operatorStacksView(const Report& report, size_t maxRows) {
    OperatorStacksView stacks = pytorchOperatorStacks(report);
    return cut({{std::move(stacks.table)}, std::move(stacks.missing)}, maxRows);
}

PytorchViewResult operatorShapesView(const Report& report, size_t maxRows) {
    OperatorShapesView shapes = pytorchOperatorShapes(report);
    return cut({{std::move(shapes.table)}, std::move(shapes.missing)}, maxRows);
}

PytorchViewResult kernelsView(const Report& report, size_t maxRows) {
    KernelsView kernels = pytorchKernels(report);
    PytorchViewResult result;
    result.tables.push_back(std::move(kernels.table));
    result.missing = std::move(kernels.missing);
    return cut(std::move(result), maxRows);
}

PytorchViewResult overviewView(const Report& report, size_t maxRows) {
    StepOverview overview = pytorchStepOverview(report);
    return cut({{std::move(overview.steps), std::move(overview.summary)}, std::move(overview.missing)}, maxRows);
}

PytorchViewResult memoryView(const Report& report, size_t maxRows) {
    MemoryView memory = pytorchMemory(report);
    PytorchViewResult result{{memoryAllocationsTable(report, memory, maxRows), memoryDevicesTable(memory)},
                             std::move(memory.missing),
                             memory.allocations.size()};
    return cut(std::move(result), maxRows);
}

PytorchViewResult modulesView(const Report& report, size_t maxRows) {
    ModulesView modules = pytorchModules(report);
    return cut({{std::move(modules.table)}, std::move(modules.missing)}, maxRows);
}

// The integer in column `header` of row `row`, or -1.
int64_t integerCell(const StatsTable& table, size_t row, std::string_view header) {
    const auto column = std::find(table.header.begin(), table.header.end(), header);
    if (row >= table.rows.size() || column == table.header.end()) return -1;
    const auto* value = std::get_if<int64_t>(&table.rows[row][size_t(column - table.header.begin())]);
    return value ? *value : -1;
}

// A step: its span.
PytorchRowTarget stepSpan(const StatsTable& table, size_t row) {
    PytorchRowTarget target;
    const int64_t start = integerCell(table, row, "Start (ns)"), duration = integerCell(table, row, "Duration (ns)");
    if (start >= 0 && duration >= 0) target.begin_ns = start, target.end_ns = start + duration;
    return target;
}

// An allocation: its lifetime, or its moment when no free is recorded.
PytorchRowTarget allocationSpan(const StatsTable& table, size_t row) {
    PytorchRowTarget target;
    target.begin_ns = integerCell(table, row, "Allocated At (ns)");
    const int64_t freed = integerCell(table, row, "Freed At (ns)");
    target.end_ns = freed >= 0 ? freed : target.begin_ns;
    return target;
}

// A module path ("Net_0/Sequential_0/Conv2d_0"): the calls of its last module, named
// "nn.Module: Conv2d_0" on the timeline.
PytorchRowTarget moduleCalls(const StatsTable& table, size_t row) {
    PytorchRowTarget target;
    if (row >= table.rows.size() || table.rows[row].empty()) return target;
    const std::string path = formatCell(table.rows[row].front());
    target.eventName = "nn.Module: " + path.substr(path.rfind('/') + 1);
    return target;
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
        {"overview", "Overview", overviewView, stepSpan},
        {"operators", "Operators", operatorsView, namedByFirstColumn, {}, "name"},
        {"operators-by-stack", "Operators by call stack", operatorStacksView, namedByFirstColumn, "operators",
         "call stack"},
        {"operators-by-shapes", "Operators by input shapes", operatorShapesView, namedByFirstColumn, "operators",
         "input shapes"},
        {"kernels", "Kernels", kernelsView, namedByFirstColumn},
        {"memory", "Memory", memoryView, allocationSpan},
        {"modules", "Modules", modulesView, moduleCalls},
    };
    return views;
}

const PytorchViewEntry* findPytorchView(std::string_view name) {
    for (const PytorchViewEntry& view : pytorchViews())
        if (view.name == name) return &view;
    return nullptr;
}

}  // namespace lanescope
