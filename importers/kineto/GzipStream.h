#pragma once
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

namespace lanescope::kineto {

// A whole JSON document in memory with `padding` spare zeroed bytes after it (simdjson
// reads up to SIMDJSON_PADDING bytes past the end).
struct PaddedText {
    struct Free {
        void operator()(char* p) const { std::free(p); }
    };
    std::unique_ptr<char, Free> data;  // malloc'd: growing it with realloc can remap, not copy
    size_t size = 0;
    size_t capacity = 0;  // size + padding at least
};

inline bool isGzip(std::string_view head) {
    return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
           static_cast<unsigned char>(head[1]) == 0x8b;
}

// Reads a file, inflating it in 1 MiB steps when it is gzip (concatenated members too).
// On failure returns nullopt and sets `error` to one line ("truncated gzip stream at byte
// 81920", "cannot read file"); `compressed` tells whether it was gzip.
std::optional<PaddedText> readPadded(const std::filesystem::path& path, size_t padding, bool& compressed,
                                     std::string& error, std::stop_token stop);

}  // namespace lanescope::kineto
