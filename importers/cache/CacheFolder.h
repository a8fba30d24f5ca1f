#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

// The files of a cache folder (ReportCache): their names, and the small file operations both
// the entries and the kept results use.
namespace lanescope::cache {

inline constexpr std::string_view kEntrySuffix = ".model";
inline constexpr std::string_view kTempMark = ".tmp-";        // in the name of a file being written
inline constexpr std::string_view kResultSuffix = ".result";  // after "<key>.model.<name>"

// "12.5 MB".
std::string describe(uint64_t bytes);

// Makes `dir` and its missing parents, each readable by the user only; an existing folder is
// left as it is. False with the reason when it is not a folder afterwards.
bool makePrivateDir(const std::filesystem::path& dir, std::string& error);

// Sets a file's modification time to now, to the nanosecond (the coarse clock the kernel uses
// for "now" could give entries stored within a few milliseconds the same time).
void touch(const std::filesystem::path& path);

// Whether `name` may name a kept result: letters, digits, '_' and '-', so that its file stays in
// the folder and its entry's name is found by the last '.' (ReportCache::dropLeastRecentlyUsed).
bool isResultName(std::string_view name);

// Writes or reads all `bytes` at `fd`'s offset, across short transfers and interruptions.
bool writeAll(int fd, const void* data, size_t bytes);
bool readAll(int fd, void* data, size_t bytes);

}  // namespace lanescope::cache
