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
    uint32_t number = 0;
    uint8_t wire = 0;                                            // 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32
    uint64_t value = 0;                                          // varint, fixed64 or fixed32 value
    std::string_view bytes;                                      // length-delimited content
    int64_t i64() const { return static_cast<int64_t>(value); }  // two's complement, as nsys writes
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
    bool next(ProtoField& f) {
        if (pos_ >= data_.size()) return false;
        const size_t at = pos_;
        uint64_t tag = 0;
        if (!readVarint(data_, pos_, tag)) fail("a field tag that does not end", at);
        f.number = static_cast<uint32_t>(tag >> 3);
        f.wire = static_cast<uint8_t>(tag & 7);
        f.bytes = {};
        switch (f.wire) {
            case 0:
                if (!readVarint(data_, pos_, f.value)) fail("a varint that does not end", at);
                break;
            case 1:
            case 5: {
                const size_t size = f.wire == 1 ? 8 : 4;
                if (data_.size() - pos_ < size) fail("a fixed-size field cut short", at);
                f.value = 0;
                std::memcpy(&f.value, data_.data() + pos_, size);  // little-endian, as x86-64 and protobuf
                pos_ += size;
                break;
            }
            case 2: {
                uint64_t length = 0;
                if (!readVarint(data_, pos_, length)) fail("a length that does not end", at);
                if (length > data_.size() - pos_) fail("a field longer than its message", at);
                f.bytes = data_.substr(pos_, static_cast<size_t>(length));
                pos_ += static_cast<size_t>(length);
                break;
            }
            default:
                fail("a field of unknown wire type " + std::to_string(f.wire), at);
        }
        return true;
    }

    // The file offset of a sub-message held in `f.bytes` of this reader's message.
    uint64_t offsetOf(std::string_view inner) const {
        return base_ + static_cast<uint64_t>(inner.data() - data_.data());
    }

private:
    [[noreturn]] void fail(const std::string& what, size_t at) const {
        throw MalformedProto(what + " at byte " + std::to_string(base_ + at));
    }

    std::string_view data_;
    uint64_t base_;
    size_t pos_ = 0;
};

}  // namespace lanescope::nsysrep
