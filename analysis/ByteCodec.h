#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace lanescope {

// Values as bytes for results kept between runs (the report cache's results): each value's own
// bytes, little-endian on the machines Lanescope runs on, texts as a 32-bit length and the bytes.
class ByteWriter {
public:
    template <typename T>
    void put(T value) {
        char bytes[sizeof(T)];
        std::memcpy(bytes, &value, sizeof(T));
        out_.append(bytes, sizeof(T));
    }
    void text(std::string_view text) {
        put(uint32_t(text.size()));
        out_.append(text);
    }
    void raw(std::string_view bytes) { out_.append(bytes); }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

// Reads values off the front of `bytes` as ByteWriter wrote them; once a read would pass the end, every later read
// fails.
class ByteReader {
public:
    explicit ByteReader(std::string_view bytes) : rest_(bytes) {}
    template <typename T>
    bool get(T& value) {
        if (rest_.size() < sizeof(T)) return false;
        std::memcpy(&value, rest_.data(), sizeof(T));
        rest_.remove_prefix(sizeof(T));
        return true;
    }
    bool text(std::string& text) {
        uint32_t size = 0;
        if (!get(size) || rest_.size() < size) return false;
        text.assign(rest_.data(), size);
        rest_.remove_prefix(size);
        return true;
    }
    bool raw(std::string_view expected) {
        if (!rest_.starts_with(expected)) return false;
        rest_.remove_prefix(expected.size());
        return true;
    }
    size_t left() const { return rest_.size(); }

private:
    std::string_view rest_;
};

}  // namespace lanescope
