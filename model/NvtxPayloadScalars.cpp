#include "model/NvtxPayloadScalars.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

#include "model/Report.h"

namespace lanescope::nvtxpayload {
namespace {

using enum ScalarKind;

// The predefined types by number (nvToolsExtPayload.h), as a 64-bit Linux machine lays them out;
// a type's alignment is its size.
struct TypeRow {
    uint16_t type;
    ScalarKind kind;
    uint16_t size;
};
// clang-format off
constexpr TypeRow kPredefinedTypes[] = {
    {1, Signed, 1},     {2, Unsigned, 1},   {3, Signed, 2},     {4, Unsigned, 2},   // char, uchar, short, ushort
    {5, Signed, 4},     {6, Unsigned, 4},   {7, Signed, 8},     {8, Unsigned, 8},   // int, uint, long, ulong
    {9, Signed, 8},     {10, Unsigned, 8},                                          // long long, unsigned
    {11, Signed, 1},    {12, Unsigned, 1},  {13, Signed, 2},    {14, Unsigned, 2},  // int8 ... uint16
    {15, Signed, 4},    {16, Unsigned, 4},  {17, Signed, 8},    {18, Unsigned, 8},  // int32 ... uint64
    {19, Float, 4},     {20, Float, 8},     {21, Opaque, 16},                       // float, double, long double
    {22, Unsigned, 8},  {23, Address, 8},                                           // size_t, address
    {24, Character, 4}, {25, Character, 1}, {26, Character, 2}, {27, Character, 4}, // wchar, char8/16/32
    {32, Byte, 1},      {33, Wide, 16},     {34, Wide, 16},                         // byte, int128, uint128
    {42, Half, 2},      {43, Float, 4},     {44, Float, 8},     {45, Opaque, 16},   // float16 ... float128
    {50, BFloat16, 2},  {52, Float, 4},                                             // bf16, tf32
    {61, Snorm, 1},     {62, Unorm, 1},     {63, Snorm, 2},     {64, Unorm, 2},     // snorm8 ... unorm16
    {65, Snorm, 4},     {66, Unorm, 4},     {67, Snorm, 8},     {68, Unorm, 8},     // snorm32 ... unorm64
    {75, String, 1},    {76, String, 1},    {77, String, 2},    {78, String, 4},    // C string, UTF-8/16/32
    {80, RegisteredString, 8},                                                      // nvtxStringHandle_t
    {90, Unsigned, 4},  {91, Signed, 4},    {92, Unsigned, 4},                      // category, colour type, colour
};
// clang-format on
constexpr uint64_t kFirstTimestamp = 128, kLastTimestamp = 255;  // timestamps of any clock: 64-bit

PredefinedType defaultPredefinedType(uint64_t type) {
    for (const TypeRow& row : kPredefinedTypes)
        if (row.type == type) return {row.kind, row.size, row.size, type == 33};
    if (type >= kFirstTimestamp && type <= kLastTimestamp) return {Unsigned, 8, 8, false};
    return {};
}

template <typename T>
std::string shortestText(T value) {
    char text[64];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

std::string hexNumber(uint64_t value) {
    char text[24] = "0x";
    const auto result = std::to_chars(text + 2, text + sizeof text, value, 16);
    return std::string(text, result.ptr);
}

float halfToFloat(uint16_t h) {
    const uint32_t sign = uint32_t(h >> 15) << 31, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
    if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24
        const float magnitude = std::ldexp(float(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    const uint32_t bits =
        exponent == 0x1F ? sign | 0x7F800000u | (mantissa << 13) : sign | ((exponent + 112) << 23) | (mantissa << 13);
    return std::bit_cast<float>(bits);
}

// Appends code point `c` as UTF-8; U+FFFD for what is not a scalar value.
void appendUtf8(std::string& out, uint32_t c) {
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

// The code point of the UTF-8 sequence at bytes[i], advancing i; U+FFFD (one byte) when invalid.
uint32_t nextUtf8(std::span<const uint8_t> bytes, size_t& i) {
    const uint8_t lead = bytes[i++];
    if (lead < 0x80) return lead;
    const int more = lead >= 0xF0 && lead < 0xF5 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC2 && lead < 0xE0 ? 1 : -1;
    if (more < 0 || i + size_t(more) > bytes.size()) return 0xFFFD;
    uint32_t c = lead & (0x3F >> more);
    for (int k = 0; k < more; ++k) {
        if ((bytes[i + size_t(k)] & 0xC0) != 0x80) return 0xFFFD;
        c = (c << 6) | (bytes[i + size_t(k)] & 0x3F);
    }
    const uint32_t least[] = {0, 0x80, 0x800, 0x10000};
    if (c < least[more]) return 0xFFFD;  // overlong
    i += size_t(more);
    return c;
}

std::string wideText(std::span<const uint8_t> bytes, bool isSigned) {
    // Four 32-bit limbs, most significant first, divided by 10 digit by digit.
    uint32_t limbs[4] = {};
    for (size_t k = 0; k < 16 && k < bytes.size(); ++k) limbs[3 - k / 4] |= uint32_t(bytes[k]) << (8 * (k % 4));
    const bool negative = isSigned && (limbs[0] >> 31);
    if (negative) {  // two's complement: invert and add one
        uint64_t carry = 1;
        for (int k = 3; k >= 0; --k) {
            const uint64_t sum = uint64_t(~limbs[k]) + carry;
            limbs[k] = uint32_t(sum);
            carry = sum >> 32;
        }
    }
    std::string digits;
    do {
        uint64_t rest = 0;
        for (uint32_t& limb : limbs) {
            const uint64_t part = (rest << 32) | limb;
            limb = uint32_t(part / 10);
            rest = part % 10;
        }
        digits.insert(digits.begin(), char('0' + rest));
    } while (limbs[0] | limbs[1] | limbs[2] | limbs[3]);
    return negative ? "-" + digits : digits;
}

}  // namespace

PredefinedType predefinedType(const NvtxPayloads& payloads, uint64_t type) {
    PredefinedType t = defaultPredefinedType(type);
    if (type >= 1 && type <= payloads.type_info.size() && t.kind != Unknown) {
        const NvtxPayloadTypeInfo& recorded = payloads.type_info[type - 1];
        // A size the decoder cannot read (char8_t recorded as 0 by a compiler without it) keeps the default.
        const bool readable = recorded.size == 1 || recorded.size == 2 || recorded.size == 4 || recorded.size == 8 ||
                              (recorded.size == 16 && t.kind == Opaque);
        if (readable) {
            t.size = recorded.size;
            t.align = recorded.align ? recorded.align : recorded.size;
        }
    }
    if ((t.kind == RegisteredString) && payloads.type_info.size() >= kTypeAddress) {
        const NvtxPayloadTypeInfo& address = payloads.type_info[kTypeAddress - 1];
        if (address.size == 4 || address.size == 8) t.size = t.align = address.size;
    }
    return t;
}

uint64_t littleEndian(std::span<const uint8_t> bytes) {
    uint64_t v = 0;
    for (size_t k = std::min<size_t>(bytes.size(), 8); k-- > 0;) v = (v << 8) | bytes[k];
    return v;
}

std::string stringText(std::span<const uint8_t> bytes, unsigned unit) {
    std::string out;
    if (unit == 1) {
        size_t end = 0;
        while (end < bytes.size() && bytes[end] != 0) ++end;
        const auto text = bytes.first(end);
        for (size_t i = 0; i < text.size();) appendUtf8(out, nextUtf8(text, i));
        return out;
    }
    for (size_t i = 0; i + unit <= bytes.size(); i += unit) {
        uint32_t c = uint32_t(littleEndian(bytes.subspan(i, unit)));
        if (c == 0) break;
        if (unit == 2 && c >= 0xD800 && c < 0xDC00 && i + 2 * unit <= bytes.size()) {  // a surrogate pair
            const uint32_t low = uint32_t(littleEndian(bytes.subspan(i + unit, unit)));
            if (low >= 0xDC00 && low < 0xE000) {
                c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
                i += unit;
            }
        }
        appendUtf8(out, c);
    }
    return out;
}

void readScalar(const Report& report, const PredefinedType& type, std::span<const uint8_t> bytes,
                NvtxPayloadField& field) {
    const uint64_t raw = littleEndian(bytes);
    const unsigned bits = unsigned(bytes.size()) * 8;
    auto signExtended = [&] { return bits >= 64 ? int64_t(raw) : int64_t(raw << (64 - bits)) >> (64 - bits); };
    switch (type.kind) {
        case Signed:
            field.int_value = signExtended();
            field.text = std::to_string(*field.int_value);
            return;
        case Unsigned:
            field.uint_value = raw;
            field.text = std::to_string(raw);
            return;
        case Float:
            if (bytes.size() == 4) {
                const float f = std::bit_cast<float>(uint32_t(raw));
                field.float_value = f;
                field.text = shortestText(f);
            } else {
                field.float_value = std::bit_cast<double>(raw);
                field.text = shortestText(*field.float_value);
            }
            return;
        case Half:
        case BFloat16: {
            const float f = type.kind == Half ? halfToFloat(uint16_t(raw)) : std::bit_cast<float>(uint32_t(raw) << 16);
            field.float_value = f;
            field.text = shortestText(f);
            return;
        }
        case Snorm: {
            field.int_value = signExtended();
            const double scale = double((uint64_t{1} << (bits - 1)) - 1);
            field.float_value = std::max(-1.0, double(*field.int_value) / scale);
            field.text = shortestText(*field.float_value);
            return;
        }
        case Unorm: {
            field.uint_value = raw;
            field.float_value = double(raw) / (bits >= 64 ? 18446744073709551615.0 : double((uint64_t{1} << bits) - 1));
            field.text = shortestText(*field.float_value);
            return;
        }
        case Address:
            field.uint_value = raw;
            field.text = hexNumber(raw);
            return;
        case Character:
            field.uint_value = raw;
            field.text.clear();
            appendUtf8(field.text, uint32_t(std::min<uint64_t>(raw, 0xFFFFFFFF)));
            return;
        case Byte:
        case Opaque:
            field.text = nvtxPayloadHex(bytes);
            if (type.kind == Byte) field.uint_value = raw;
            return;
        case Wide: {
            const bool negative = type.is_signed && (bytes.back() & 0x80);
            bool fits = true;  // the upper 8 bytes only extend the lower ones' sign
            for (size_t k = 8; k < bytes.size(); ++k) fits &= bytes[k] == (negative ? 0xFF : 0x00);
            if (fits && type.is_signed && (int64_t(raw) < 0) == negative) field.int_value = int64_t(raw);
            if (fits && !type.is_signed) field.uint_value = raw;
            field.text = wideText(bytes, type.is_signed);
            return;
        }
        case RegisteredString: {
            field.uint_value = raw;
            const auto& strings = report.nvtx_payloads.registered_strings;
            const uint32_t id = raw < strings.size() ? strings[size_t(raw)] : kNoRegisteredString;
            field.text = id != kNoRegisteredString && id < report.strings.size() ? std::string(report.str(id))
                                                                                 : std::to_string(raw);
            return;
        }
        case String:
            field.text = stringText(bytes, type.size);
            return;
        case Unknown:
            field.text = nvtxPayloadHex(bytes);
            return;
    }
}

}  // namespace lanescope::nvtxpayload
