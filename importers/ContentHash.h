#pragma once
#include <filesystem>
#include <optional>
#include <stop_token>
#include <string>

namespace lanescope {

// A hex key for a file's bytes (size, CRC-32 and Adler-32 of the whole content, via zlib),
// used to name cache entries so a changed file never hits a stale entry. nullopt when the
// file cannot be read or the hash was cancelled.
std::optional<std::string> contentKey(const std::filesystem::path& path, std::stop_token stop = {});

}  // namespace lanescope
