#pragma once
#include <cstdint>
#include <span>

#include "model/Column.h"

// NVTX extended payloads (the payload extension of NVTX, nvToolsExtPayload.h): the schemas the
// recorded processes registered, and per NVTX event that carries one its bytes as recorded.
// NCCL 2.19+ annotates each collective this way (communicator, message size, reduction
// operation, root). The bytes are decoded when shown (model/NvtxPayloadDecoder.h).

namespace lanescope {

struct Report;

// One entry (one field of a struct) of a payload schema, as registered (nvtxPayloadSchemaEntry_t).
// 40 bytes.
struct NvtxPayloadEntry {
    uint64_t flags = 0;  // NVTX_PAYLOAD_ENTRY_FLAG_*: arrays (fixed, zero-terminated, length index), pointers
    // A predefined type (nvToolsExtPayload.h numbers: 1 char ... 18 uint64, 19 float, 75 C string, ...)
    // or, from kNvtxPayloadFirstSchemaId, the id of another schema or enum of the same domain.
    uint64_t type = 0;
    // An array's or string's length, or the index of the entry that holds it; a union's selector.
    uint64_t array_or_union_detail = 0;
    uint64_t offset = 0;          // bytes from the start of its struct; 0 for a later entry: not given
    uint32_t name_id = 0;         // into Report::strings; 0 = none
    uint32_t description_id = 0;  // into Report::strings; 0 = none
};

// Schema and enum ids from here on are registered ones (static from 1 << 24, dynamic from 1 << 32):
// an entry type this large names another schema or enum of the same domain.
inline constexpr uint64_t kNvtxPayloadFirstSchemaId = uint64_t{1} << 24;

// One registered payload schema (nvtxPayloadSchemaAttr_t): a struct (static or dynamic size) or a
// union. 64 bytes.
struct NvtxPayloadSchema {
    uint64_t schema_id = 0;
    uint64_t flags = 0;         // NVTX_PAYLOAD_SCHEMA_FLAG_*
    uint64_t payload_size = 0;  // bytes of a static schema's struct; 0 = not given
    uint64_t align_to = 0;      // the struct's packing in bytes (packAlign); 0 = natural alignment
    // The NVTX domain it was registered in, as NvtxInfo::domain_name_id: its name, into
    // Report::strings; 0 = the default domain, or one whose creation the report does not hold.
    uint32_t domain_name_id = 0;
    uint32_t name_id = 0;  // into Report::strings; 0 = none
    // Its entries: NvtxPayloads::entries[first_entry, first_entry + entry_count), in index order.
    uint32_t first_entry = 0;
    uint32_t entry_count = 0;
    int32_t process = -1;    // index into Report::processes that registered it; -1 where not recorded
    uint32_t domain_id = 0;  // nsys's number of the domain (NVTX_PAYLOAD_SCHEMAS.domainId), as NvtxInfo::domain_id
    uint8_t type = 0;        // 1 static, 2 dynamic, 3 union, 4 union with an internal selector
};

// One registered enum (nvtxPayloadEnumAttr_t): names for the values of an entry. 40 bytes.
struct NvtxPayloadEnum {
    uint64_t schema_id = 0;
    uint64_t size = 0;            // bytes of a value; 0 = not given
    uint32_t domain_name_id = 0;  // as NvtxPayloadSchema::domain_name_id
    uint32_t name_id = 0;         // into Report::strings; 0 = none
    uint32_t first_value = 0;     // its values: NvtxPayloads::enum_values[first_value, first_value + value_count)
    uint32_t value_count = 0;
    int32_t process = -1;    // as NvtxPayloadSchema::process
    uint32_t domain_id = 0;  // as NvtxPayloadSchema::domain_id
};

// One named value of an enum, in the order registered. 16 bytes.
struct NvtxPayloadEnumValue {
    uint64_t value = 0;
    uint32_t name_id = 0;  // into Report::strings
    bool is_flag = false;  // the value is a bit (or bits) of a set of flags
};

// The size and alignment in bytes of a predefined type on the recording machine.
struct NvtxPayloadTypeInfo {
    uint16_t size = 0;
    uint16_t align = 0;
};

// One extended payload of one NVTX event: its bytes are NvtxPayloads::bytes[offset, offset +
// length), laid out as schema `schema_id` of the event's domain says. An event may carry several
// (an array of nvtxPayloadData_t), each a row. 40 bytes.
struct NvtxPayloadRow {
    uint32_t lane = 0;    // index into Report::lanes: a thread's Nvtx or NvtxStartEnd lane, or an Nccl lane's copy
    uint32_t event = 0;   // index into the lane's events (a range), or into its instants when `mark`
    uint32_t nvtx = 0;    // the event's row of Report::nvtx: each event carrying a payload has one of its own
    uint32_t length = 0;  // bytes
    uint64_t schema_id = 0;
    uint64_t offset = 0;  // into NvtxPayloads::bytes
    bool mark = false;    // an NVTX mark: `event` indexes the lane's instants
};

// The extended payloads of a report. Empty for formats that record none (Kineto, Perfetto).
struct NvtxPayloads {
    // Every schema registration, in the report's order (a process that registers a schema again
    // has it twice, as in nsys's export), whatever its domain.
    Column<NvtxPayloadSchema> schemas;
    Column<NvtxPayloadEntry> entries;          // the schemas' entries, schema after schema, each in index order
    Column<NvtxPayloadEnum> enums;             // in the report's order
    Column<NvtxPayloadEnumValue> enum_values;  // the enums' values, enum after enum, in registered order
    // The predefined types 1 to 27 (char ... char32) on the recording machine: entry i describes
    // type i + 1. Empty where the report does not record them (an export): the decoder then
    // assumes a 64-bit Linux machine.
    Column<NvtxPayloadTypeInfo> type_info;
    // The report's string for each registered-string handle a payload may hold (entry type 80,
    // the position being the recorded string id), kNoRegisteredString where none. Empty unless a
    // schema has an entry of that type.
    Column<uint32_t> registered_strings;
    Column<uint8_t> bytes;  // every payload's bytes, end to end, in the order the report holds them
    // Sorted by (lane, mark, event), an event's payloads in recorded order. Importers add rows
    // with only nvtx, schema_id, offset and length set; finishReport places them on their events
    // (placeNvtxPayloads), adding a row for each copy an Nccl lane holds.
    Column<NvtxPayloadRow> rows;

    bool empty() const { return schemas.empty() && enums.empty() && rows.empty(); }
    size_t memoryBytes() const;
};
inline constexpr uint32_t kNoRegisteredString = UINT32_MAX;

// The payload rows of range `event` of lane `lane` (or of its instant `event` when `mark`), in
// recorded order; empty when it carries none. O(log rows).
std::span<const NvtxPayloadRow> nvtxPayloadRows(const Report& report, uint32_t lane, uint32_t event, bool mark = false);
// The bytes of one payload, empty when its offset or length lies outside NvtxPayloads::bytes.
std::span<const uint8_t> nvtxPayloadBytes(const Report& report, const NvtxPayloadRow& row);

// The schema `schema_id` of `domain_name_id` that process `process` registered, else that
// domain's first registration of that id by any process; nullptr when none. Likewise for enums.
const NvtxPayloadSchema* findNvtxPayloadSchema(const Report& report, uint32_t domain_name_id, int32_t process,
                                               uint64_t schema_id);
const NvtxPayloadEnum* findNvtxPayloadEnum(const Report& report, uint32_t domain_name_id, int32_t process,
                                           uint64_t schema_id);

}  // namespace lanescope
