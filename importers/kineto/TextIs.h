#pragma once
#include <cstddef>
#include <cstring>
#include <string_view>

namespace lanescope::kineto {

// Whether `text` is the literal `lit` (compared with a constant size: a load or two).
template <size_t N>
inline bool is(std::string_view text, const char (&lit)[N]) {
    return text.size() == N - 1 && std::memcmp(text.data(), lit, N - 1) == 0;
}

}  // namespace lanescope::kineto
