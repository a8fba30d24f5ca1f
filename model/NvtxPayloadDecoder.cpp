#include "model/NvtxPayloadDecoder.h"

#include <algorithm>

#include "model/NvtxPayloadScalars.h"
#include "model/Report.h"

namespace lanescope {
namespace {

using nvtxpayload::PredefinedType;
using nvtxpayload::ScalarKind;

// Entry flags (NVTX_PAYLOAD_ENTRY_FLAG_*).
constexpr uint64_t kFlagPointer = 1 << 1, kFlagOffsetFromBase = 1 << 2, kFlagOffsetFromHere = 1 << 3;
constexpr uint64_t kArrayMask = 3 << 4, kArrayFixed = 1 << 4, kArrayZeroTerminated = 2 << 4, kArrayLengthIndex = 3 << 4;
// Schema types (NVTX_PAYLOAD_SCHEMA_TYPE_*) and the predefined schema ids.
constexpr uint8_t kSchemaUnion = 3, kSchemaUnionWithSelector = 4;
constexpr uint64_t kSchemaReferenced = 1022, kSchemaRaw = 1023;
constexpr int kMaxNesting = 16;
// More fields than this from one payload is taken for damage (a schema whose entries overlap,
// repeated over a long array, would make millions).
constexpr size_t kMaxFields = size_t{1} << 18;

// Thrown out of the walk: the payload is shown as bytes for this reason.
struct PayloadFailure {
    NvtxPayloadProblem problem;
};
[[noreturn]] void fail(NvtxPayloadProblem problem) { throw PayloadFailure{problem}; }

uint64_t alignUp(uint64_t at, uint64_t align) { return align > 1 ? (at + align - 1) / align * align : at; }

// The walk over one payload's bytes through its schema, appending fields to `out`.
class PayloadWalk {
public:
    PayloadWalk(const Report& report, uint32_t domain, int32_t process, std::span<const uint8_t> bytes,
                std::vector<NvtxPayloadField>& out)
        : report_(report),
          payloads_(report.nvtx_payloads),
          domain_(domain),
          process_(process),
          bytes_(bytes),
          out_(out) {}

    void payload(const NvtxPayloadSchema& schema) {
        if (schema.type == kSchemaUnion || schema.type == kSchemaUnionWithSelector)
            fail(NvtxPayloadProblem::UnsupportedType);  // a union needs a selector outside it
        structAt(schema, 0, "", 0);
    }

private:
    // Size and alignment in bytes of one element of a type.
    struct Layout {
        uint64_t size = 0;
        uint64_t align = 1;
    };

    std::span<const uint8_t> take(uint64_t at, uint64_t size) const {
        if (at > bytes_.size() || size > bytes_.size() - at) fail(NvtxPayloadProblem::Damaged);
        return bytes_.subspan(size_t(at), size_t(size));
    }
    const NvtxPayloadEntry& entryOf(const NvtxPayloadSchema& s, uint64_t k) const {
        const uint64_t at = uint64_t(s.first_entry) + k;
        if (k >= s.entry_count || at >= payloads_.entries.size()) fail(NvtxPayloadProblem::Damaged);
        return payloads_.entries[size_t(at)];
    }
    const NvtxPayloadSchema* schemaOf(uint64_t type) const {
        return findNvtxPayloadSchema(report_, domain_, process_, type);
    }
    const NvtxPayloadEnum* enumOf(uint64_t type) const { return findNvtxPayloadEnum(report_, domain_, process_, type); }
    uint64_t enumSize(const NvtxPayloadEnum& e) const {
        const uint64_t size = e.size ? e.size : 4;
        if (size != 1 && size != 2 && size != 4 && size != 8) fail(NvtxPayloadProblem::Damaged);
        return size;
    }
    PredefinedType pointerType() const { return nvtxpayload::predefinedType(payloads_, nvtxpayload::kTypeAddress); }
    static bool isString(const PredefinedType& t) { return t.kind == ScalarKind::String; }
    // Char arrays are text; arrays of other characters (char8, char16, char32, wchar) too.
    static bool isText(uint64_t type, const PredefinedType& t) {
        return type == nvtxpayload::kTypeChar || t.kind == ScalarKind::Character;
    }

    // The layout of one element of `type`: a predefined type, an enum, or a schema's struct.
    Layout layoutOf(uint64_t type, int depth) const {
        if (depth > kMaxNesting) fail(NvtxPayloadProblem::Damaged);
        const PredefinedType t = nvtxpayload::predefinedType(payloads_, type);
        if (t.kind != ScalarKind::Unknown) return {t.size, t.align};
        if (const NvtxPayloadEnum* e = enumOf(type)) return {enumSize(*e), enumSize(*e)};
        const NvtxPayloadSchema* s = schemaOf(type);
        if (!s)
            fail(type >= kNvtxPayloadFirstSchemaId ? NvtxPayloadProblem::UnknownSchema
                                                   : NvtxPayloadProblem::UnsupportedType);
        Layout whole;
        uint64_t end = 0;
        const bool isUnion = s->type == kSchemaUnion || s->type == kSchemaUnionWithSelector;
        for (uint64_t k = 0; k < s->entry_count; ++k) {
            const NvtxPayloadEntry& e = entryOf(*s, k);
            const Layout entry = entryLayout(*s, e, depth + 1);
            whole.align = std::max(whole.align, entry.align);
            const uint64_t at = isUnion ? 0 : k == 0 || e.offset != 0 ? e.offset : alignUp(end, entry.align);
            end = std::max(end, at + entry.size);
        }
        if (s->align_to) whole.align = std::min(whole.align, s->align_to);
        whole.size = s->payload_size ? s->payload_size : alignUp(end, whole.align);
        return whole;
    }
    // The layout of an entry inside a struct whose size is fixed: a variable array has none.
    Layout entryLayout(const NvtxPayloadSchema& s, const NvtxPayloadEntry& e, int depth) const {
        if (e.flags & (kFlagPointer | kFlagOffsetFromBase | kFlagOffsetFromHere)) {
            const PredefinedType p = pointerType();
            return {p.size, p.align};
        }
        const uint64_t array = e.flags & kArrayMask;
        const PredefinedType t = nvtxpayload::predefinedType(payloads_, e.type);
        if (isString(t) && array == 0 && e.array_or_union_detail == 0) {  // a char*
            const PredefinedType p = pointerType();
            return {p.size, s.align_to ? std::min<uint64_t>(p.align, s.align_to) : p.align};
        }
        Layout element = layoutOf(e.type, depth);
        if (array == kArrayLengthIndex || array == kArrayZeroTerminated)
            fail(NvtxPayloadProblem::Damaged);  // a variable-size struct inside another
        const uint64_t count = array == kArrayFixed || isString(t) ? e.array_or_union_detail : 1;
        if (element.size != 0 && count > (uint64_t{1} << 40) / element.size) fail(NvtxPayloadProblem::Damaged);
        if (s.align_to) element.align = std::min(element.align, s.align_to);
        return {element.size * count, element.align};
    }

    // Decodes the struct of schema `s` at byte `base`; returns where it ends.
    uint64_t structAt(const NvtxPayloadSchema& s, uint64_t base, const std::string& prefix, int depth) {
        if (depth > kMaxNesting || uint64_t(s.first_entry) + s.entry_count > payloads_.entries.size())
            fail(NvtxPayloadProblem::Damaged);
        std::vector<std::optional<uint64_t>> values(s.entry_count);  // integer entries, for array lengths
        uint64_t cursor = base;
        bool variable = false;  // an entry of variable size came before: later offsets are not fixed
        for (uint64_t k = 0; k < s.entry_count; ++k) {
            const NvtxPayloadEntry& e = entryOf(s, k);
            const bool given = (k == 0 || e.offset != 0) && !variable;
            const uint64_t at = given ? base + e.offset : alignUp(cursor, alignOf(s, e, depth));
            const std::string name = prefix + entryName(e, k);
            const size_t before = out_.size();
            const uint64_t end = entryAt(e, at, name, values, depth);
            if (out_.size() == before + 1 && (e.flags & kArrayMask) == 0) {
                const NvtxPayloadField& f = out_.back();
                if (f.uint_value) values[k] = f.uint_value;
                if (f.int_value && *f.int_value >= 0) values[k] = uint64_t(*f.int_value);
            }
            const uint64_t array = e.flags & kArrayMask;
            variable |= array == kArrayLengthIndex || array == kArrayZeroTerminated;
            cursor = std::max(cursor, end);
        }
        return std::max(cursor, base + s.payload_size);
    }
    uint64_t alignOf(const NvtxPayloadSchema& s, const NvtxPayloadEntry& e, int depth) const {
        if (e.flags & (kFlagPointer | kFlagOffsetFromBase | kFlagOffsetFromHere)) return pointerType().align;
        const PredefinedType t = nvtxpayload::predefinedType(payloads_, e.type);
        uint64_t align = isString(t) && (e.flags & kArrayMask) == 0 && e.array_or_union_detail == 0
                             ? pointerType().align
                             : layoutOf(e.type, depth + 1).align;
        if (s.align_to) align = std::min(align, s.align_to);
        return align;
    }
    std::string entryName(const NvtxPayloadEntry& e, uint64_t k) const {
        if (e.name_id != 0 && e.name_id < report_.strings.size()) return std::string(report_.str(e.name_id));
        return "#" + std::to_string(k);
    }

    // The number of elements entry k's array has, from the integer entry its detail names.
    static uint64_t lengthFrom(const std::vector<std::optional<uint64_t>>& values, uint64_t index) {
        if (index >= values.size() || !values[size_t(index)]) fail(NvtxPayloadProblem::Damaged);
        return *values[size_t(index)];
    }
    // Whether `size` bytes at `at` are all zero (an array's terminator).
    bool zeroAt(uint64_t at, uint64_t size) const {
        const auto element = take(at, size);
        return std::all_of(element.begin(), element.end(), [](uint8_t b) { return b == 0; });
    }
    // The elements of a zero-terminated array of `size`-byte elements at `at`, terminator not counted.
    uint64_t countToZero(uint64_t at, uint64_t size) const {
        uint64_t n = 0;
        while (!zeroAt(at + n * size, size)) ++n;
        return n;
    }
    void push(std::string name, std::string text) { add({std::move(name), std::move(text), {}, {}, {}}); }
    void add(NvtxPayloadField field) {
        if (out_.size() >= kMaxFields) fail(NvtxPayloadProblem::Damaged);
        out_.push_back(std::move(field));
    }

    // Decodes one entry at byte `at`; returns where it ends.
    uint64_t entryAt(const NvtxPayloadEntry& e, uint64_t at, const std::string& name,
                     const std::vector<std::optional<uint64_t>>& values, int depth) {
        if (e.flags & (kFlagPointer | kFlagOffsetFromBase | kFlagOffsetFromHere)) {
            // A pointer into memory the payload does not hold, or an offset: its value only.
            PredefinedType p = pointerType();
            if (!(e.flags & kFlagPointer)) p.kind = ScalarKind::Unsigned;
            return scalarAt(p, at, name);
        }
        const uint64_t array = e.flags & kArrayMask;
        const PredefinedType t = nvtxpayload::predefinedType(payloads_, e.type);
        if (isString(t)) return stringAt(e, t, at, name, values);
        if (array == 0) return valueAt(e.type, at, name, depth);
        const Layout element = layoutOf(e.type, depth + 1);
        if (element.size == 0) fail(NvtxPayloadProblem::Damaged);
        const uint64_t count = array == kArrayFixed         ? e.array_or_union_detail
                               : array == kArrayLengthIndex ? lengthFrom(values, e.array_or_union_detail)
                                                            : countToZero(at, element.size);
        const uint64_t terminator = array == kArrayZeroTerminated ? element.size : 0;
        if (count > (bytes_.size() - std::min<uint64_t>(at, bytes_.size())) / element.size)
            fail(NvtxPayloadProblem::Damaged);
        const uint64_t bytes = count * element.size;
        if (isText(e.type, t) || e.type == nvtxpayload::kTypeByte) {  // one text, or one run of hex
            const auto run = take(at, bytes);
            push(name, e.type == nvtxpayload::kTypeByte ? nvtxPayloadHex(run) : nvtxpayload::stringText(run, t.size));
            return at + bytes + terminator;
        }
        for (uint64_t i = 0; i < count; ++i)
            valueAt(e.type, at + i * element.size, name + "[" + std::to_string(i) + "]", depth);
        return at + bytes + terminator;
    }

    // A string entry: fixed length, length from another entry, zero-terminated, or a pointer.
    uint64_t stringAt(const NvtxPayloadEntry& e, const PredefinedType& t, uint64_t at, const std::string& name,
                      const std::vector<std::optional<uint64_t>>& values) {
        const uint64_t array = e.flags & kArrayMask, unit = t.size, detail = e.array_or_union_detail;
        auto text = [&](uint64_t units) {
            if (units > bytes_.size() / unit) fail(NvtxPayloadProblem::Damaged);
            push(name, nvtxpayload::stringText(take(at, units * unit), unsigned(unit)));
            return at + units * unit;
        };
        if (array == kArrayLengthIndex) return text(lengthFrom(values, detail));
        if (detail > 0 && array == kArrayZeroTerminated) {  // fixed-size strings until an empty one
            if (detail > bytes_.size() / unit) fail(NvtxPayloadProblem::Damaged);
            uint64_t i = 0;
            for (; !zeroAt(at + i * detail * unit, unit); ++i)
                push(name + "[" + std::to_string(i) + "]",
                     nvtxpayload::stringText(take(at + i * detail * unit, detail * unit), unsigned(unit)));
            return at + i * detail * unit + detail * unit;
        }
        if (detail > 0) return text(detail);
        if (array == kArrayZeroTerminated) return text(countToZero(at, unit)) + unit;
        return scalarAt(pointerType(), at, name);  // a char*: its address only
    }

    uint64_t scalarAt(const PredefinedType& t, uint64_t at, const std::string& name) {
        NvtxPayloadField field;
        field.name = name;
        nvtxpayload::readScalar(report_, t, take(at, t.size), field);
        add(std::move(field));
        return at + t.size;
    }

    // One value of `type` at `at`: a predefined type, an enum's value, or a nested struct.
    uint64_t valueAt(uint64_t type, uint64_t at, const std::string& name, int depth) {
        if (depth > kMaxNesting) fail(NvtxPayloadProblem::Damaged);
        const PredefinedType t = nvtxpayload::predefinedType(payloads_, type);
        if (t.kind != ScalarKind::Unknown) return scalarAt(t, at, name);
        if (const NvtxPayloadEnum* e = enumOf(type)) {
            const uint64_t size = enumSize(*e);
            NvtxPayloadField field;
            field.name = name;
            field.uint_value = nvtxpayload::littleEndian(take(at, size));
            field.text = enumText(*e, *field.uint_value);
            add(std::move(field));
            return at + size;
        }
        const NvtxPayloadSchema* s = schemaOf(type);
        if (!s)
            fail(type >= kNvtxPayloadFirstSchemaId ? NvtxPayloadProblem::UnknownSchema
                                                   : NvtxPayloadProblem::UnsupportedType);
        if (s->type == kSchemaUnion || s->type == kSchemaUnionWithSelector) {  // its bytes: no selector is read
            const uint64_t size = layoutOf(type, depth + 1).size;
            push(name, nvtxPayloadHex(take(at, size)));
            return at + size;
        }
        return structAt(*s, at, name + ".", depth + 1);
    }

    // The name of an enum's value; for a set of flags the names of its bits joined by " | ".
    std::string enumText(const NvtxPayloadEnum& e, uint64_t value) const {
        const auto& all = payloads_.enum_values;
        const size_t first = std::min<size_t>(e.first_value, all.size());
        const size_t last = std::min<size_t>(first + e.value_count, all.size());
        auto nameOf = [&](const NvtxPayloadEnumValue& v) {
            return v.name_id < report_.strings.size() ? std::string(report_.str(v.name_id)) : std::string();
        };
        for (size_t i = first; i < last; ++i)
            if (!all[i].is_flag && all[i].value == value) return nameOf(all[i]);
        std::string text;
        uint64_t rest = value;
        for (size_t i = first; i < last; ++i) {
            if (!all[i].is_flag || all[i].value == 0 || (value & all[i].value) != all[i].value) continue;
            text += (text.empty() ? "" : " | ") + nameOf(all[i]);
            rest &= ~all[i].value;
        }
        if (text.empty()) return std::to_string(value);
        if (rest != 0) text += " | " + std::to_string(rest);
        return text;
    }

    const Report& report_;
    const NvtxPayloads& payloads_;
    uint32_t domain_;
    int32_t process_;
    std::span<const uint8_t> bytes_;
    std::vector<NvtxPayloadField>& out_;
};

std::vector<NvtxPayloadField> fieldsOfRows(const Report& report, std::span<const NvtxPayloadRow> rows) {
    std::vector<NvtxPayloadField> fields;
    for (const NvtxPayloadRow& row : rows) {
        DecodedNvtxPayload one = decodeNvtxPayload(report, row);
        for (NvtxPayloadField& f : one.fields) fields.push_back(std::move(f));
    }
    return fields;
}

}  // namespace

std::string nvtxPayloadHex(std::span<const uint8_t> bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text(bytes.size() * 2, '0');
    for (size_t i = 0; i < bytes.size(); ++i) {
        text[2 * i] = kDigits[bytes[i] >> 4];
        text[2 * i + 1] = kDigits[bytes[i] & 15];
    }
    return text;
}

DecodedNvtxPayload decodeNvtxPayload(const Report& report, const NvtxPayloadRow& row) {
    DecodedNvtxPayload decoded;
    const std::span<const uint8_t> bytes = nvtxPayloadBytes(report, row);
    auto asBytes = [&](NvtxPayloadProblem problem) {
        decoded.fields.assign(1, NvtxPayloadField{"bytes", nvtxPayloadHex(bytes), {}, {}, {}});
        decoded.problem = problem;
        return decoded;
    };
    // Schema id 0 (NVTX's invalid one): a payload whose container a reader could not take apart.
    if (bytes.size() != row.length || row.schema_id == 0) return asBytes(NvtxPayloadProblem::Damaged);
    if (row.schema_id == kSchemaReferenced) return decoded;
    if (row.schema_id == kSchemaRaw) return asBytes(NvtxPayloadProblem::None);
    const uint32_t domain = row.nvtx < report.nvtx.size() ? report.nvtx[row.nvtx].domain_name_id : 0;
    const int32_t process = row.lane < report.lanes.size() ? report.lanes[row.lane].process : -1;
    const NvtxPayloadSchema* schema = findNvtxPayloadSchema(report, domain, process, row.schema_id);
    if (!schema) return asBytes(NvtxPayloadProblem::UnknownSchema);
    try {
        PayloadWalk(report, domain, process, bytes, decoded.fields).payload(*schema);
    } catch (const PayloadFailure& f) {
        return asBytes(f.problem);
    }
    return decoded;
}

std::vector<NvtxPayloadField> nvtxPayloadFields(const Report& report, uint32_t lane, uint32_t event) {
    return fieldsOfRows(report, nvtxPayloadRows(report, lane, event));
}

bool hasNvtxPayload(const Report& report, uint32_t lane, uint32_t event) {
    return !nvtxPayloadRows(report, lane, event).empty();
}

std::vector<NvtxPayloadField> nvtxMarkPayloadFields(const Report& report, uint32_t lane, uint32_t instant) {
    return fieldsOfRows(report, nvtxPayloadRows(report, lane, instant, true));
}

bool hasNvtxMarkPayload(const Report& report, uint32_t lane, uint32_t instant) {
    return !nvtxPayloadRows(report, lane, instant, true).empty();
}

}  // namespace lanescope
