// What a set of folders holds, deep: every entry's path, type, size, modification time and,
// for files, a 64-bit FNV-1a hash of the content. Two snapshots compare equal only when
// nothing was written, added, removed or touched.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace lanescope::test {

struct EntryState {
    bool directory = false;
    uintmax_t size = 0;    // files only
    int64_t mtime_ns = 0;  // a folder's changes when an entry is added or removed, even briefly
    uint64_t fnv1a = 0;    // files only

    bool operator==(const EntryState&) const = default;
};

using Snapshot = std::map<std::filesystem::path, EntryState>;

uint64_t fnv1a64(const std::filesystem::path& file);
Snapshot snapshot(const std::vector<std::filesystem::path>& roots);
// One line per path that differs ("added", "removed", "changed"), empty when equal.
std::string describeDifferences(const Snapshot& before, const Snapshot& after);

}  // namespace lanescope::test
