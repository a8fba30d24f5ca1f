// How much memory an import may take: an explicit limit (tests, LANESCOPE_MEMORY_LIMIT_MB), or
// what the kernel says is available, within the limit of this process's cgroup (containers).
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "importers/MemoryEstimate.h"

namespace lanescope {
namespace {

// MemAvailable of /proc/meminfo in bytes; 0 when absent.
uint64_t memAvailable() {
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    uint64_t kib = 0;
    while (in >> key >> kib) {
        std::getline(in, unit);
        if (key == "MemAvailable:") return kib * 1024;
    }
    return 0;
}

// limit - usage in one cgroup folder; 0 when there is no limit (v1 writes a huge number).
uint64_t roomIn(const std::string& dir, const char* limitFile, const char* usageFile) {
    std::string limitText;
    uint64_t usage = 0;
    if (!(std::ifstream(dir + limitFile) >> limitText) || limitText == "max") return 0;
    if (!(std::ifstream(dir + usageFile) >> usage)) return 0;
    const uint64_t limit = std::strtoull(limitText.c_str(), nullptr, 10);
    if (limit >= (uint64_t{1} << 62)) return 0;
    return limit > usage ? limit - usage : 1;
}

// What this process's memory cgroup (v2, or v1's memory controller) still allows; 0 when
// unlimited. A container may show its cgroup's path while mounting only that cgroup, so the
// mount point itself is tried too.
uint64_t cgroupRoom() {
    std::ifstream self("/proc/self/cgroup");
    std::string line;
    while (std::getline(self, line)) {
        std::string group;
        const char *mount = nullptr, *limit = nullptr, *usage = nullptr;
        if (line.starts_with("0::")) {
            group = line.substr(3), mount = "/sys/fs/cgroup", limit = "/memory.max", usage = "/memory.current";
        } else if (const size_t at = line.find(":memory:"); at != std::string::npos) {
            group = line.substr(at + 8), mount = "/sys/fs/cgroup/memory";
            limit = "/memory.limit_in_bytes", usage = "/memory.usage_in_bytes";
        } else {
            continue;
        }
        for (const std::string& dir : {std::string(mount) + group, std::string(mount)})
            if (const uint64_t room = roomIn(dir, limit, usage)) return room;
    }
    return 0;
}

}  // namespace

uint64_t availableMemory(const ImportOptions& options) {
    if (options.memory_limit_bytes) return options.memory_limit_bytes;
    if (const char* mb = std::getenv("LANESCOPE_MEMORY_LIMIT_MB"); mb && *mb) {
        char* end = nullptr;
        const unsigned long long value = std::strtoull(mb, &end, 10);
        if (end && *end == '\0' && value > 0) return value << 20;
    }
    const uint64_t system = memAvailable(), room = cgroupRoom();
    if (system == 0) return room;
    return room ? std::min(system, room) : system;
}

}  // namespace lanescope
