#include "analysis/ranks/RunDiff.h"

#include <algorithm>
#include <map>
#include <utility>

#include "analysis/Registry.h"

namespace lanescope {
namespace {

struct Source {
    const char* category;
    const char* report;  // the nsys stats summary it comes from
    const char* nameColumn;
    const char* countColumn;
};
constexpr Source kSources[] = {
    {"kernel", "cuda_gpu_kern_sum", "Name", "Instances"},
    {"cuda_api", "cuda_api_sum", "Name", "Num Calls"},
    {"nvtx", "nvtx_sum", "Range", "Instances"},
};

int columnOf(const StatsTable& table, const char* header) {
    const auto it = std::find(table.header.begin(), table.header.end(), header);
    return it == table.header.end() ? -1 : static_cast<int>(it - table.header.begin());
}

// Adds the (count, total) of each name of one summary to one side of the rows.
void collect(const Report& report, const Source& source, bool candidate,
             std::map<std::pair<std::string, std::string>, DiffRow>& rows) {
    const auto table = computeStats(report, source.report);
    if (!table) return;
    const int name = columnOf(*table, source.nameColumn), count = columnOf(*table, source.countColumn),
              total = columnOf(*table, "Total Time (ns)");
    if (name < 0 || count < 0 || total < 0) return;
    for (const auto& cells : table->rows) {
        const std::string& label = std::get<std::string>(cells[size_t(name)]);
        DiffRow& row = rows[{source.category, label}];
        row.category = source.category;
        row.name = label;
        const auto n = static_cast<uint64_t>(std::get<int64_t>(cells[size_t(count)]));
        const int64_t t = std::get<int64_t>(cells[size_t(total)]);
        (candidate ? row.cand_count : row.base_count) += n;  // NVTX: one name, several styles
        (candidate ? row.cand_total_ns : row.base_total_ns) += t;
    }
}

}  // namespace

const char* DiffRow::status() const {
    if (base_count == 0) return "added";
    if (cand_count == 0) return "removed";
    return base_count == cand_count && base_total_ns == cand_total_ns ? "same" : "changed";
}

std::vector<DiffRow> diffRuns(const Report& baseline, const Report& candidate) {
    std::map<std::pair<std::string, std::string>, DiffRow> byName;
    for (const Source& source : kSources) {
        collect(baseline, source, false, byName);
        collect(candidate, source, true, byName);
    }
    std::vector<DiffRow> rows;
    rows.reserve(byName.size());
    for (auto& [key, row] : byName) rows.push_back(std::move(row));
    std::stable_sort(rows.begin(), rows.end(), [](const DiffRow& a, const DiffRow& b) {
        const int64_t da = a.delta() < 0 ? -a.delta() : a.delta(), db = b.delta() < 0 ? -b.delta() : b.delta();
        return da > db;  // the map already ordered ties by (category, name)
    });
    return rows;
}

StatsTable diffTable(const std::vector<DiffRow>& rows) {
    StatsTable t;
    t.name = "diff";
    t.header = {"Category",        "Name",          "Base Count", "Base Total (ns)", "Base Avg (ns)", "Cand Count",
                "Cand Total (ns)", "Cand Avg (ns)", "Delta (ns)", "Ratio",           "Status"};
    for (const DiffRow& r : rows)
        t.rows.push_back(
            {r.category, r.name, int64_t(r.base_count), r.base_total_ns, StatsTable::Real{r.baseMean(), 1},
             int64_t(r.cand_count), r.cand_total_ns, StatsTable::Real{r.candMean(), 1}, r.delta(),
             r.hasRatio() ? StatsTable::Cell(StatsTable::Real{r.ratio(), 3}) : StatsTable::Cell(std::string()),
             std::string(r.status())});
    return t;
}

}  // namespace lanescope
