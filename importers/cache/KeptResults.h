#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "importers/cache/ReportCache.h"
#include "model/Report.h"

namespace lanescope {

// Where results computed from a report are kept between runs (ReportCache::storeResult): the
// cache and the key of the report's entry. Whoever opens a report with a cache attaches it to the
// report (one of Report::derived's objects) before handing the report on; a report without one
// keeps no results, and reads none.
class KeptResults {
public:
    // Attaches the place to `report`; without effect once of(report) was asked.
    static void attach(const Report& report, std::shared_ptr<const ReportCache> cache, std::string key);
    // The place attached to `report` (none: load() finds nothing and store() keeps nothing).
    static const KeptResults& of(const Report& report);

    // The bytes kept as result `name`, or nullopt (none kept, or a part of them lost or damaged).
    std::optional<std::string> load(std::string_view name) const;
    // Keeps `bytes` as result `name`: whole, or, past ReportCache::kMaxResultBytes, in parts of
    // that size with an index under `name` written last (KeptResults.cpp). False with a one-line
    // reason when not kept (or no place is attached: `error` empty then); never throws.
    bool store(std::string_view name, std::string_view bytes, std::string& error) const;

private:
    std::shared_ptr<const ReportCache> cache_;
    std::string key_;
};

}  // namespace lanescope
