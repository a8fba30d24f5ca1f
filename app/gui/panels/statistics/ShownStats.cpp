#include "app/gui/panels/statistics/ShownStats.h"

#include <spdlog/spdlog.h>

#include <string>

#include "analysis/Registry.h"
#include "analysis/StatsTableBytes.h"
#include "importers/cache/KeptResults.h"

namespace lanescope {
namespace {

// The name a whole-report summary is kept under, beside its report's entry.
std::string keptName(const StatsReportEntry& entry) { return "stats-" + std::string(entry.name); }

}  // namespace

std::vector<std::optional<StatsTable>> computeShownStats(const Report& report, TimeRange range, bool wholeReport,
                                                         size_t picked, bool findRows, const StatsOptions& options,
                                                         unsigned threads) {
    const std::vector<StatsReportEntry>& all = statsReports();
    std::vector<std::optional<StatsTable>> tables(all.size());
    const KeptResults& kept = KeptResults::of(report);
    // Computes (or reads) table i; whether it has rows.
    auto compute = [&](size_t i) {
        const bool keep = wholeReport && !growsWithEvents(all[i]);
        if (keep)
            if (std::optional<std::string> bytes = kept.load(keptName(all[i])))
                if ((tables[i] = decodeStatsTable(*bytes))) return !tables[i]->rows.empty();
        std::vector<bool> wanted(all.size(), false);
        wanted[i] = true;
        tables[i] = std::move(computeSomeStats(report, range, wanted, threads, options)[i]);
        if (keep && tables[i]) {
            std::string error;
            if (!kept.store(keptName(all[i]), encodeStatsTable(*tables[i]), error) && !error.empty())
                spdlog::warn("{}: {}", report.meta.source_path, error);
        }
        return tables[i] && !tables[i]->rows.empty();
    };
    if (picked >= all.size() || compute(picked) || !findRows) return tables;
    for (size_t i = 0; i < all.size(); ++i)
        if (i != picked && !growsWithEvents(all[i]) && compute(i)) break;
    return tables;
}

}  // namespace lanescope
