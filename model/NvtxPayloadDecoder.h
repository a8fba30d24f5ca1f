#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/NvtxPayload.h"

// The decoder of NVTX extended payloads: one for every reader (the native .nsys-rep reader and
// the SQLite export's keep the bytes as recorded; this turns them into fields when shown).

namespace lanescope {

// One decoded field of a payload.
struct NvtxPayloadField {
    std::string name;  // the entry's name ("Message size [bytes]"); a nested struct's entries as "outer.inner"
    std::string text;  // the value as text: the number, an enum's name, a string; bytes as hex for raw/unknown
    std::optional<uint64_t> uint_value;  // unsigned integer entries (and enums: their numeric value)
    std::optional<int64_t> int_value;    // signed integer entries
    std::optional<double> float_value;   // float/double entries
};

// The decoded extended payload of NVTX event `event` of lane `lane` (a thread's NVTX lane, or a
// copy in an Nccl lane); empty when it has none. A payload of an unknown schema or a damaged one:
// one field named "bytes" with the hex text.
std::vector<NvtxPayloadField> nvtxPayloadFields(const Report& report, uint32_t lane, uint32_t event);
bool hasNvtxPayload(const Report& report, uint32_t lane, uint32_t event);
// The same for NVTX mark `instant` of a thread's NVTX lane (an index into its instants).
std::vector<NvtxPayloadField> nvtxMarkPayloadFields(const Report& report, uint32_t lane, uint32_t instant);
bool hasNvtxMarkPayload(const Report& report, uint32_t lane, uint32_t instant);

// Why a payload is shown as bytes.
enum class NvtxPayloadProblem : uint8_t {
    None,
    UnknownSchema,    // the report holds no schema (or enum) of that id in the event's domain
    UnsupportedType,  // an entry of a type the decoder does not know
    Damaged,          // the bytes do not fit the schema, or the schema does not fit itself
};

// One payload decoded: its fields, or when `problem` is not None one field "bytes" (the hex of
// its bytes). Entries are read in their schema's order; an array's elements as "name[i]"; a char
// array or string entry as one text; an enum as its value's name ("Sum"), or its flags' names
// joined by " | "; a pointer as its address in hex; a union's bytes in hex. Bounds-checked: a
// read past the payload, an array longer than the bytes left, or schemas nested more than 16
// deep is Damaged. The registered schema ids 1022 (referenced, not shown) and 1023 (raw bytes)
// are known: no field, and "bytes" without a problem; schema id 0 marks bytes a reader could not
// take apart into payloads (Damaged).
struct DecodedNvtxPayload {
    std::vector<NvtxPayloadField> fields;
    NvtxPayloadProblem problem = NvtxPayloadProblem::None;
};
DecodedNvtxPayload decodeNvtxPayload(const Report& report, const NvtxPayloadRow& row);

// Lowercase hex of `bytes`, two digits a byte ("7595d2a0").
std::string nvtxPayloadHex(std::span<const uint8_t> bytes);

}  // namespace lanescope
