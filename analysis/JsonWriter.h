#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace lanescope {

// Appends compact-but-indented JSON to a string. The caller nests begin/end correctly;
// commas and indentation are handled here.
class JsonWriter {
public:
    void beginObject(std::string_view key = {}) { open(key, '{'); }
    void endObject() { close('}'); }
    void beginArray(std::string_view key = {}) { open(key, '['); }
    void endArray() { close(']'); }
    void value(std::string_view key, std::string_view text);
    void value(std::string_view key, const char* text) { value(key, std::string_view(text)); }
    void value(std::string_view key, int64_t number);
    void value(std::string_view key, uint64_t number) { value(key, static_cast<int64_t>(number)); }
    void value(std::string_view key, int number) { value(key, static_cast<int64_t>(number)); }
    void value(std::string_view key, double number, int decimals);
    void raw(std::string_view key, std::string_view json);
    const std::string& str() const { return out_; }
    // The text written so far, handed over and cleared; what follows continues it (to write a
    // long document out in pieces).
    std::string take() { return std::exchange(out_, {}); }

    static std::string quote(std::string_view text);

private:
    void open(std::string_view key, char bracket);
    void close(char bracket);
    void prefix(std::string_view key);

    std::string out_;
    int depth_ = 0;
    bool first_ = true;
};

}  // namespace lanescope
