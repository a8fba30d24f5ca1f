#include "analysis/JsonWriter.h"

#include <cmath>
#include <cstdio>

namespace lanescope {

std::string JsonWriter::quote(std::string_view text) {
    std::string q = "\"";
    for (unsigned char c : text) {
        switch (c) {
            case '"':
                q += "\\\"";
                break;
            case '\\':
                q += "\\\\";
                break;
            case '\n':
                q += "\\n";
                break;
            case '\r':
                q += "\\r";
                break;
            case '\t':
                q += "\\t";
                break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    q += buf;
                } else {
                    q += static_cast<char>(c);
                }
        }
    }
    return q + '"';
}

void JsonWriter::prefix(std::string_view key) {
    if (depth_ > 0) {
        if (!first_) out_ += ',';
        out_ += '\n';
        out_.append(static_cast<size_t>(depth_) * 2, ' ');
    }
    first_ = false;
    if (!key.empty()) out_ += quote(key) + ": ";
}

void JsonWriter::open(std::string_view key, char bracket) {
    prefix(key);
    out_ += bracket;
    ++depth_;
    first_ = true;
}

void JsonWriter::close(char bracket) {
    --depth_;
    if (!first_) {
        out_ += '\n';
        out_.append(static_cast<size_t>(depth_) * 2, ' ');
    }
    out_ += bracket;
    first_ = false;
    if (depth_ == 0) out_ += '\n';
}

void JsonWriter::value(std::string_view key, std::string_view text) {
    prefix(key);
    out_ += quote(text);
}

void JsonWriter::value(std::string_view key, int64_t number) {
    prefix(key);
    out_ += std::to_string(number);
}

void JsonWriter::value(std::string_view key, double number, int decimals) {
    prefix(key);
    if (!std::isfinite(number)) {
        out_ += "null";
        return;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, number);
    out_ += buf;
}

void JsonWriter::raw(std::string_view key, std::string_view json) {
    prefix(key);
    out_ += json;
}

}  // namespace lanescope
