#include "importers/nsys/NsysLocator.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace lanescope {
namespace {

bool isExecutable(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

bool nsysForbidden() {
    const char* env = std::getenv("LANESCOPE_NSYS");
    return env && std::string_view(env) == "off";
}

std::filesystem::path locateNsys(const std::filesystem::path& configured) {
    if (!configured.empty()) return isExecutable(configured) ? configured : std::filesystem::path{};
    if (const char* env = std::getenv("LANESCOPE_NSYS"); env && *env)
        return isExecutable(env) ? std::filesystem::path(env) : std::filesystem::path{};
    if (const char* path = std::getenv("PATH")) {
        std::string dirs = path;
        size_t begin = 0;
        while (begin <= dirs.size()) {
            const size_t end = std::min(dirs.find(':', begin), dirs.size());
            const std::filesystem::path candidate = std::filesystem::path(dirs.substr(begin, end - begin)) / "nsys";
            if (end > begin && isExecutable(candidate)) return candidate;
            begin = end + 1;
        }
    }
    std::vector<std::filesystem::path> candidates = {"/usr/local/cuda/bin/nsys", "/usr/lib/nsight-systems/bin/nsys"};
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/opt/nvidia/nsight-systems", ec))
        candidates.push_back(entry.path() / "bin/nsys");
    // Newest install first: versioned folders sort by name.
    std::sort(candidates.begin() + 2, candidates.end(), std::greater<>());
    for (const auto& c : candidates)
        if (isExecutable(c)) return c;
    return {};
}

std::filesystem::path defaultCacheDir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "lanescope";
    if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".cache/lanescope";
    return std::filesystem::temp_directory_path() / ("lanescope-cache-" + std::to_string(::getuid()));
}

}  // namespace lanescope
