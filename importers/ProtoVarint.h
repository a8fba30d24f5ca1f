#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace lanescope {

// Reads a protobuf base-128 varint at bytes[pos] and advances pos past it. False when it runs
// past the end of `bytes` or is longer than the 10 bytes a 64-bit value takes.
inline bool readVarint(std::string_view bytes, size_t& pos, uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 64 && pos < bytes.size(); shift += 7) {
        const auto byte = static_cast<uint8_t>(bytes[pos++]);
        value |= uint64_t{byte & 0x7Fu} << shift;
        if (byte < 0x80) return true;
    }
    return false;
}

}  // namespace lanescope
