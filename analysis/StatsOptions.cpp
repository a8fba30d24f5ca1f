#include "analysis/StatsOptions.h"

#include <charconv>

namespace lanescope {
namespace {

bool accepts(std::string_view accepted, std::string_view key) {
    for (size_t begin = 0; begin <= accepted.size();) {
        const size_t end = std::min(accepted.find(',', begin), accepted.size());
        if (accepted.substr(begin, end - begin) == key) return true;
        begin = end + 1;
    }
    return false;
}

}  // namespace

std::string parseStatsOption(std::string_view option, std::string_view accepted, StatsOptions& options) {
    const size_t eq = option.find('=');
    const std::string_view key = option.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view{} : option.substr(eq + 1);
    if (key == "mangled" || key == "nvtx-name")
        return "option '" + std::string(key) +
               "' is not available: Lanescope keeps kernels' demangled and short names only";
    if (!accepts(accepted, key)) return "unknown option '" + std::string(option) + "'";
    if (key == "base") {
        if (eq != std::string_view::npos) return "option 'base' takes no value";
        options.base = true;
    } else if (key == "rows") {
        int64_t rows = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), rows);
        if (ec != std::errc{} || end != value.data() + value.size() || rows < 0)
            return "option 'rows' wants a count, as rows=10";
        options.rows = rows;
    }
    return {};
}

}  // namespace lanescope
