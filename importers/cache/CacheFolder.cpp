#include "importers/cache/CacheFolder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

namespace lanescope::cache {

std::string describe(uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", double(bytes) / (1024.0 * 1024.0));
    return text;
}

bool makePrivateDir(const std::filesystem::path& dir, std::string& error) {
    std::vector<std::filesystem::path> missing;
    std::error_code ec;
    for (auto p = dir; !p.empty() && !std::filesystem::exists(p, ec); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path()) break;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it)
        if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST) {
            error = "cannot create the cache folder " + it->string() + ": " + std::strerror(errno);
            return false;
        }
    if (!std::filesystem::is_directory(dir, ec)) {
        error = "the cache folder " + dir.string() + " is not a folder";
        return false;
    }
    return true;
}

void touch(const std::filesystem::path& path) {
    timespec now[2];
    ::clock_gettime(CLOCK_REALTIME, &now[0]);
    now[1] = now[0];
    ::utimensat(AT_FDCWD, path.c_str(), now, 0);
}

bool isResultName(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
}

bool writeAll(int fd, const void* data, size_t bytes) {
    for (const char* at = static_cast<const char*>(data); bytes > 0;) {
        const ssize_t n = ::write(fd, at, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += n, bytes -= size_t(n);
    }
    return true;
}
bool readAll(int fd, void* data, size_t bytes) {
    for (char* at = static_cast<char*>(data); bytes > 0;) {
        const ssize_t n = ::read(fd, at, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += n, bytes -= size_t(n);
    }
    return true;
}

}  // namespace lanescope::cache
