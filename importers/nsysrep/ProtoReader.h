#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "importers/ProtoVarint.h"

namespace lanescope::nsysrep {

// A protobuf message that does not decode: what is wrong, at which byte of the file.
struct MalformedProto : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One field of a protobuf message on the wire.
struct ProtoField {
    uint64_t tag = 0;  // (number << 3) | wire, as on the wire: test both at once with is()
    uint32_t number = 0;
    uint8_t wire = 0;                                            // 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32
    uint64_t value = 0;                                          // varint, fixed64 or fixed32 value
    std::string_view bytes;                                      // length-delimited content
    int64_t i64() const { return static_cast<int64_t>(value); }  // two's complement, as nsys writes
    // Whether this is field `n` of wire type `w`. One compare of the tag: testing number and
    // wire apart lets the compiler load both in one read that the two writes cannot forward to.
    bool is(uint32_t n, uint8_t w) const { return tag == ((uint64_t{n} << 3) | w); }
};

// Reads the fields of one message in order, skipping none: the caller ignores what it does
// not know. Our own reader rather than libprotobuf's CodedInputStream: the messages have no
// .proto (field numbers are learned from files, docs/nsys-rep-format.md), the reader needs
// nothing but varints, lengths and fixed values, and it must report where a damaged byte is
// (`base` is the message's offset in the file, for the message of MalformedProto).
class ProtoReader {
public:
    ProtoReader(std::string_view message, uint64_t base) : data_(message), base_(base) {}

    // The next field, or false at the end. Throws MalformedProto for a varint that runs past
    // the end or never ends, a length beyond the message, or an unknown wire type.
    [[gnu::always_inline]] bool next(ProtoField& f) {
        if (pos_ >= data_.size()) return false;
        const size_t at = pos_;
        uint64_t tag = 0;
        if (!varint(tag)) fail("a field tag that does not end", at);
        const auto wire = static_cast<uint8_t>(tag & 7);
        uint64_t value = 0;
        const char* bytes = nullptr;
        size_t length = 0;
        switch (wire) {
            case 0:
                if (!varint(value)) fail("a varint that does not end", at);
                break;
            case 1:
            case 5: {
                const size_t size = wire == 1 ? 8 : 4;
                if (data_.size() - pos_ < size) fail("a fixed-size field cut short", at);
                std::memcpy(&value, data_.data() + pos_, size);  // little-endian, as x86-64 and protobuf
                pos_ += size;
                break;
            }
            case 2: {
                uint64_t size = 0;
                if (!varint(size)) fail("a length that does not end", at);
                if (size > data_.size() - pos_) fail("a field longer than its message", at);
                bytes = data_.data() + pos_;
                length = static_cast<size_t>(size);
                pos_ += length;
                break;
            }
            default:
                failWire(wire, at);
        }
        // Written once each, after decoding: a field written piecewise and read back whole
        // stalls the load where the compiler keeps `f` in memory.
        f.tag = tag;
        f.number = static_cast<uint32_t>(tag >> 3);
        f.wire = wire;
        f.value = value;
        f.bytes = std::string_view(bytes, length);
        return true;
    }

    // The file offset of a sub-message held in `f.bytes` of this reader's message.
    uint64_t offsetOf(std::string_view inner) const {
        return base_ + static_cast<uint64_t>(inner.data() - data_.data());
    }

private:
    // A varint at pos_, the one-byte case (most tags and small values) inline.
    bool varint(uint64_t& value) {
        if (pos_ < data_.size()) {
            const auto byte = static_cast<uint8_t>(data_[pos_]);
            if (byte < 0x80) {
                value = byte;
                ++pos_;
                return true;
            }
        }
        return readVarint(data_, pos_, value);
    }

    // Out of line and cold, so that next() stays small enough to inline: callers read the
    // field straight back, which only stays in registers when next() is inlined.
    [[noreturn, gnu::cold, gnu::noinline]] void fail(const char* what, size_t at) const {
        throw MalformedProto(what + (" at byte " + std::to_string(base_ + at)));
    }
    [[noreturn, gnu::cold, gnu::noinline]] void failWire(uint8_t wire, size_t at) const {
        throw MalformedProto("a field of unknown wire type " + std::to_string(wire) + " at byte " +
                             std::to_string(base_ + at));
    }

    std::string_view data_;
    uint64_t base_;
    size_t pos_ = 0;
};

}  // namespace lanescope::nsysrep
