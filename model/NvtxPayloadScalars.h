#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "model/NvtxPayloadDecoder.h"

// The predefined entry types of NVTX payload schemas (nvToolsExtPayload.h numbers them): what
// each holds, its size, and how one value is read and written as text. Private to the decoder.

namespace lanescope::nvtxpayload {

// What a predefined type holds.
enum class ScalarKind : uint8_t {
    Unknown,           // not a predefined type (another schema or enum), or one the decoder does not know
    Signed,            // two's complement integer
    Unsigned,          // unsigned integer (also sizes, NVTX categories and colours, timestamps)
    Float,             // IEEE binary32 or binary64 by size (tf32 is stored as a binary32)
    Half,              // IEEE binary16
    BFloat16,          // the upper half of a binary32
    Snorm,             // a signed integer standing for -1.0 ... 1.0
    Unorm,             // an unsigned integer standing for 0.0 ... 1.0
    Address,           // a pointer: shown in hex
    Character,         // one character of `size` bytes (char8, char16, char32, wchar): shown as the character
    String,            // a C string type of `size`-byte code units (UTF-8, UTF-16, UTF-32)
    Byte,              // raw byte: shown in hex
    Wide,              // int128 or uint128 (`is_signed`)
    Opaque,            // long double, float128: shown in hex
    RegisteredString,  // an nvtxStringHandle_t: the report's string of that recorded id
};

// A predefined type: its kind and layout in bytes. For a String, `size` is the code unit's.
struct PredefinedType {
    ScalarKind kind = ScalarKind::Unknown;
    uint16_t size = 0;
    uint16_t align = 0;
    bool is_signed = false;  // Wide only
};

// Entry types the decoder handles apart from their values.
inline constexpr uint64_t kTypeChar = 1, kTypeAddress = 23, kTypeSize = 22, kTypeByte = 32;

// The predefined type `type`; for types 1 to 27 with the size and alignment the recording machine
// recorded (NvtxPayloads::type_info), where it did. Kind Unknown for any other number.
PredefinedType predefinedType(const NvtxPayloads& payloads, uint64_t type);

// Reads one value of `type` from `bytes` (exactly type.size bytes) into field's value and text.
void readScalar(const Report& report, const PredefinedType& type, std::span<const uint8_t> bytes,
                NvtxPayloadField& field);

// The little-endian unsigned integer of 1 to 8 bytes.
uint64_t littleEndian(std::span<const uint8_t> bytes);

// The text of a string of `unit`-byte code units (1 UTF-8, 2 UTF-16, 4 UTF-32) up to its first
// zero unit, as valid UTF-8 (anything invalid becomes U+FFFD).
std::string stringText(std::span<const uint8_t> bytes, unsigned unit);

}  // namespace lanescope::nvtxpayload
