// Deep snapshots of folders for InputsUntouchedTest: hashes, sizes, mtimes, listings.
#include "FileSnapshot.h"

#include <sys/stat.h>

#include <fstream>
#include <stdexcept>

namespace lanescope::test {

uint64_t fnv1a64(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    uint64_t hash = 0xcbf29ce484222325ull;
    std::vector<char> buf(1 << 20);
    while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
        const auto n = static_cast<size_t>(in.gcount());
        for (size_t i = 0; i < n; ++i) hash = (hash ^ static_cast<uint8_t>(buf[i])) * 0x100000001b3ull;
    }
    return hash;
}

namespace {

EntryState stateOf(const std::filesystem::path& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) throw std::runtime_error("cannot stat " + path.string());
    EntryState s;
    s.directory = S_ISDIR(st.st_mode);
    s.mtime_ns = int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
    if (!s.directory) {
        s.size = static_cast<uintmax_t>(st.st_size);
        if (S_ISREG(st.st_mode)) s.fnv1a = fnv1a64(path);
    }
    return s;
}

}  // namespace

Snapshot snapshot(const std::vector<std::filesystem::path>& roots) {
    Snapshot result;
    for (const auto& root : roots) {
        result[root] = stateOf(root);
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
            result[entry.path()] = stateOf(entry.path());
    }
    return result;
}

std::string describeDifferences(const Snapshot& before, const Snapshot& after) {
    std::string text;
    for (const auto& [path, state] : before) {
        const auto it = after.find(path);
        if (it == after.end())
            text += "removed " + path.string() + "\n";
        else if (!(it->second == state))
            text += "changed " + path.string() + (it->second.fnv1a != state.fnv1a ? " (content)" : "") +
                    (it->second.size != state.size ? " (size)" : "") +
                    (it->second.mtime_ns != state.mtime_ns ? " (mtime)" : "") + "\n";
    }
    for (const auto& [path, state] : after)
        if (!before.contains(path)) text += "added " + path.string() + "\n";
    return text;
}

}  // namespace lanescope::test
