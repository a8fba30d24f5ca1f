#pragma once
// The one zlib inflater of the importers: gzip or zlib streams (the header decides), gzip
// members one after another read as one stream. The Kineto reader streams a file through it;
// Perfetto's compressed_packets inflate a buffer at once (inflateAll).
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lanescope {

class Inflater {
public:
    Inflater() = default;
    Inflater(const Inflater&) = delete;
    Inflater& operator=(const Inflater&) = delete;
    ~Inflater();

    // False when zlib cannot start (out of memory).
    bool start();
    // Hands the inflater the next compressed bytes; call only when pendingInput() is 0. The
    // bytes must stay valid until they are consumed.
    void feed(const char* data, size_t size);
    size_t pendingInput() const { return z_.avail_in; }
    // Inflates into out[0, capacity): the count of bytes written (0 when it needs more input),
    // or nullopt with error() set to where and why ("at byte 512 (invalid block type)").
    std::optional<size_t> inflateInto(char* out, size_t capacity);
    // True when the last member ended cleanly (more input then starts another member).
    bool memberEnded() const { return memberEnded_; }
    uint64_t consumed() const { return consumed_; }  // compressed bytes inflated so far
    const std::string& error() const { return error_; }

private:
    z_stream z_{};
    bool open_ = false, memberEnded_ = false;
    uint64_t consumed_ = 0;
    std::string error_;
};

// Inflates all of `in` into `out`; false when it is damaged, cut short or would exceed `limit`.
bool inflateAll(std::string_view in, std::string& out, size_t limit);

}  // namespace lanescope
