// A one-pass reader of a Kineto trace's events that gives what readEvent gives, or hands the
// event (or the piece) to simdjson.
#include "importers/kineto/FastEventReader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "importers/kineto/TextIs.h"

namespace lanescope::kineto {
namespace {

namespace od = simdjson::ondemand;

constexpr int kMaxDepth = 64;  // nesting inside an element of the piece; deeper: the piece goes to simdjson

constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }

// JSON whitespace: one comparison for the bytes above ' ' (nearly all), a bit test for the rest.
inline bool isSpace(char c) {
    constexpr uint64_t kSpaces =
        (uint64_t{1} << ' ') | (uint64_t{1} << '\n') | (uint64_t{1} << '\r') | (uint64_t{1} << '\t');
    const auto u = static_cast<unsigned char>(c);
    return u <= ' ' && ((kSpaces >> u) & 1) != 0;
}

// The first byte at or after p that is not JSON whitespace. Runs of one byte (after ':' and
// ',') are the common case; longer ones (a newline and indentation) are looked at 16 bytes at a
// time. The piece ends with ']': a run of whitespace stops within it.
inline const char* skipSpace(const char* p) {
    if (!isSpace(*p)) return p;
    if (!isSpace(*++p)) return p;
#if defined(__SSE2__)
    while (true) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i space =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                         _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
        const auto other = static_cast<unsigned>(_mm_movemask_epi8(space)) ^ 0xFFFFu;
        if (other) return p + __builtin_ctz(other);
        p += 16;
    }
#else
    while (isSpace(*p)) ++p;
    return p;
#endif
}

inline uint64_t load8(const char* p) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    return x;
}

// The number of ASCII digits that begin the 8 bytes `x` (loaded little-endian: the first byte
// lowest), 8 when all are.
inline int leadingDigits(uint64_t x) {
    // A byte is a digit when its high nibble is 3 and its low nibble plus 6 stays below 16.
    const uint64_t notDigit = ((x & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull) |
                              (((x & 0x0F0F0F0F0F0F0F0Full) + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull);
    if (notDigit == 0) return 8;
    const uint64_t nonzero =
        (((notDigit & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | notDigit) & 0x8080808080808080ull;
    return __builtin_ctzll(nonzero) >> 3;
}

// The byte after the run of digits at p.
inline const char* skipDigits(const char* p) {
    int n;
    while ((n = leadingDigits(load8(p))) == 8) p += 8;
    return p + n;
}

constexpr uint64_t kPowers[] = {1,
                                10,
                                100,
                                1000,
                                10000,
                                100000,
                                1000000,
                                10000000,
                                100000000,
                                1000000000,
                                10000000000ull,
                                100000000000ull,
                                1000000000000ull,
                                10000000000000ull,
                                100000000000000ull,
                                1000000000000000ull,
                                10000000000000000ull,
                                100000000000000000ull,
                                1000000000000000000ull,
                                10000000000000000000ull};

// The byte after the run of digits at p, and their value (modulo 2^64 past 19 digits): 8
// digits at a time, without a branch per digit (the SWAR method: pairs, then fours, then eight).
inline const char* parseDigits(const char* p, uint64_t& value) {
    uint64_t v = 0;
    while (true) {
        uint64_t x = load8(p);
        const int n = leadingDigits(x);
        if (n == 0) break;
        x = ((x & 0x0F0F0F0F0F0F0F0Full) << (8 * (8 - n)));  // the n digits in the high bytes, zeros before
        x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFull;
        x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFull;
        x = (x * 10000 + (x >> 32)) & 0xFFFFFFFFull;
        v = v * kPowers[n] + x;
        p += n;
        if (n < 8) break;
    }
    value = v;
    return p;
}

// The byte after the JSON number at p (validated: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?),
// or nullptr. What follows it is the caller's to check.
inline const char* skipNumber(const char* p) {
    if (*p == '-') ++p;
    if (*p == '0')
        ++p;
    else if (isDigit(*p))
        p = skipDigits(p + 1);
    else
        return nullptr;
    if (*p == '.') {
        if (!isDigit(*++p)) return nullptr;
        p = skipDigits(p + 1);
    }
    if ((*p | 0x20) == 'e') {
        ++p;
        if (*p == '+' || *p == '-') ++p;
        if (!isDigit(*p)) return nullptr;
        p = skipDigits(p + 1);
    }
    return p;
}

// ts and dur: microseconds to nanoseconds as microsToNs converts the number's text (`ok` false
// where it gives no value), at once for the plain decimals Kineto writes (at most 15 integer
// digits and 3 fraction digits), else through microsToNs. nullptr when the number is invalid.
inline const char* readMicros(const char* p, int64_t& ns, bool& ok) {
    const char* const begin = p;
    const bool negative = *p == '-';
    if (negative) ++p;
    const char* const digits = p;
    uint64_t whole = 0, frac = 0;
    if (*p == '0')
        ++p;
    else if (isDigit(*p))
        p = parseDigits(p, whole);
    else
        return nullptr;
    const auto intDigits = static_cast<size_t>(p - digits);
    size_t fracDigits = 0;
    if (*p == '.') {
        const char* const f = ++p;
        if (!isDigit(*p)) return nullptr;
        p = parseDigits(p, frac);
        fracDigits = static_cast<size_t>(p - f);
    }
    if ((*p | 0x20) == 'e' || intDigits > 15 || fracDigits > 3) {
        if (!(p = skipNumber(begin))) return nullptr;
        ok = microsToNs({begin, static_cast<size_t>(p - begin)}, ns);
        return p;
    }
    const auto value = static_cast<int64_t>(whole * 1000 + frac * kPowers[3 - fracDigits]);
    ns = negative ? -value : value;
    ok = true;
    return p;
}

inline bool isHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// A JSON number as read, and its value where simdjson's conversion is known to give the same:
// integer() for an integer of at most 18 digits; decimal() for a number without exponent of at
// most 15 significant digits and 22 fraction digits (Clinger's exact case: the digits, exact
// in a double, divided by a power of ten exact in a double, one correctly rounded division, as
// simdjson's correctly rounded parsing gives).
struct Number {
    bool negative = false, exponent = false;
    size_t intDigits = 0, fracDigits = 0, fracLeadingZeros = 0;  // the last when the integer part is "0"
    uint64_t whole = 0, fraction = 0;  // the integer part and the fraction's digits (modulo 2^64 past 19)

    bool integer(int64_t& out) const {
        if (exponent || fracDigits != 0 || intDigits > 18) return false;
        out = negative ? -static_cast<int64_t>(whole) : static_cast<int64_t>(whole);
        return true;
    }
    bool decimal(double& out) const;
};

constexpr double kPowersOf10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// The top-level keys readEvent reads; Other is skipped.
enum class Key : uint8_t { Other, Ph, Ts, Cat, Pid, Tid, Dur, Name, Args };

// The key of a string read in full (any spacing after it, or a written key's look-alike).
inline Key keyOf(std::string_view k) {
    if (is(k, "ph")) return Key::Ph;
    if (is(k, "ts")) return Key::Ts;
    if (is(k, "cat")) return Key::Cat;
    if (is(k, "pid")) return Key::Pid;
    if (is(k, "tid")) return Key::Tid;
    if (is(k, "dur")) return Key::Dur;
    if (is(k, "name")) return Key::Name;
    if (is(k, "args")) return Key::Args;
    return Key::Other;
}

// A top-level key at p ('"') written with its colon and one space, as PyTorch writes them
// (`"ph": `, `"name": `, ...), when it is one of those readEvent reads: the key and the length
// of that text; {Other, 0} otherwise.
struct WrittenKey {
    Key key = Key::Other;
    size_t length = 0;
};

// One written key's text (at most 8 bytes) as load8 reads it (little-endian) and the mask of its
// bytes: constants, so that a comparison is one xor and one test.
struct KeyWord {
    uint64_t bytes = 0, mask = 0;
    WrittenKey written;
    template <size_t N>
    consteval KeyWord(const char (&text)[N], Key key) : written{key, N - 1} {
        static_assert(N - 1 <= 8);
        for (size_t i = 0; i < N - 1; ++i) {
            bytes |= uint64_t{static_cast<unsigned char>(text[i])} << (8 * i);
            mask |= uint64_t{0xFF} << (8 * i);
        }
    }
    bool at(uint64_t x) const { return ((x ^ bytes) & mask) == 0; }
};

// The 8 bytes at p are readable (the piece's padding).
inline WrittenKey writtenKey(const char* p) {
    static constexpr KeyWord kPh{"\"ph\": ", Key::Ph}, kPid{"\"pid\": ", Key::Pid}, kTs{"\"ts\": ", Key::Ts},
        kTid{"\"tid\": ", Key::Tid}, kCat{"\"cat\": ", Key::Cat}, kName{"\"name\": ", Key::Name},
        kDur{"\"dur\": ", Key::Dur}, kArgs{"\"args\": ", Key::Args};
    const uint64_t x = load8(p);
    switch (p[1]) {
        case 'p':
            return kPh.at(x) ? kPh.written : kPid.at(x) ? kPid.written : WrittenKey{};
        case 't':
            return kTs.at(x) ? kTs.written : kTid.at(x) ? kTid.written : WrittenKey{};
        case 'c':
            return kCat.at(x) ? kCat.written : WrittenKey{};
        case 'n':
            return kName.at(x) ? kName.written : WrittenKey{};
        case 'd':
            return kDur.at(x) ? kDur.written : WrittenKey{};
        case 'a':
            return kArgs.at(x) ? kArgs.written : WrittenKey{};
        default:
            return {};
    }
}

// The args readEvent reads, found by a perfect hash of the key (its length, first and last
// bytes) into a table of 64 slots, then one comparison of the whole key.
enum class Arg : uint8_t {
    Other,  // skipped
    Device,
    Stream,
    Context,
    Correlation,
    WaitOnStream,
    WaitOnRecordCorrelation,
    WaitOnEventId,
    Bytes,
    Registers,
    Shared,
    MemoryBytes,
    Address,
    TotalAllocated,
    TotalReserved,
    DeviceId,
    DeviceType,
    BlocksPerSm,
    WarpsPerSm,
    Occupancy,
    Grid,
    Block,
    CollectiveName,
    InNelems,
    OutNelems,
    GroupSize,
    Dtype,
    GroupName,
    GroupRanks,
    Name,
    InputDims,
};

constexpr std::pair<std::string_view, Arg> kArgs[] = {
    {"device", Arg::Device},
    {"stream", Arg::Stream},
    {"context", Arg::Context},
    {"correlation", Arg::Correlation},
    {"wait_on_stream", Arg::WaitOnStream},
    {"wait_on_cuda_event_record_corr_id", Arg::WaitOnRecordCorrelation},
    {"wait_on_cuda_event_id", Arg::WaitOnEventId},
    {"bytes", Arg::Bytes},
    {"registers per thread", Arg::Registers},
    {"shared memory", Arg::Shared},
    {"Bytes", Arg::MemoryBytes},
    {"Addr", Arg::Address},
    {"Total Allocated", Arg::TotalAllocated},
    {"Total Reserved", Arg::TotalReserved},
    {"Device Id", Arg::DeviceId},
    {"Device Type", Arg::DeviceType},
    {"blocks per SM", Arg::BlocksPerSm},
    {"warps per SM", Arg::WarpsPerSm},
    {"est. achieved occupancy %", Arg::Occupancy},
    {"grid", Arg::Grid},
    {"block", Arg::Block},
    {"Collective name", Arg::CollectiveName},
    {"In msg nelems", Arg::InNelems},
    {"Out msg nelems", Arg::OutNelems},
    {"Group size", Arg::GroupSize},
    {"dtype", Arg::Dtype},
    {"Process Group Name", Arg::GroupName},
    {"Process Group Ranks", Arg::GroupRanks},
    {"name", Arg::Name},
    {"Input Dims", Arg::InputDims},
};

constexpr size_t argSlot(std::string_view k) {
    return (k.size() + 37 * static_cast<unsigned char>(k.front()) + 2 * static_cast<unsigned char>(k.back())) & 63;
}

struct ArgTable {
    struct Slot {
        char key[48] = {};  // zero-padded past its length
        uint8_t size = 0;
        Arg arg = Arg::Other;
    };
    Slot slots[64] = {};
    bool perfect = true;  // no two keys in one slot
    constexpr ArgTable() {
        for (const auto& [key, arg] : kArgs) {
            Slot& slot = slots[argSlot(key)];
            perfect = perfect && slot.size == 0;
            for (size_t i = 0; i < key.size(); ++i) slot.key[i] = key[i];
            slot.size = static_cast<uint8_t>(key.size());
            slot.arg = arg;
        }
    }
};
constexpr ArgTable kArgTable;
static_assert(kArgTable.perfect, "two args keys share a slot: change argSlot");

// The arg that key `k` names (Other when none). The key's bytes lie in the piece, with the
// padding after it: 16 bytes are read whatever its length.
inline Arg argOf(std::string_view k) {
    if (k.empty()) return Arg::Other;
    const ArgTable::Slot& slot = kArgTable.slots[argSlot(k)];
    if (slot.size != k.size()) return Arg::Other;
    // The first 16 bytes, those past the key masked off, then the rest if longer.
    const size_t n = k.size();
    const uint64_t mask0 = n >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * n)) - 1;
    const uint64_t mask1 = n >= 16 ? ~uint64_t{0} : n <= 8 ? 0 : (uint64_t{1} << (8 * (n - 8))) - 1;
    if (((load8(k.data()) ^ load8(slot.key)) & mask0) | ((load8(k.data() + 8) ^ load8(slot.key + 8)) & mask1))
        return Arg::Other;
    if (n > 16 && std::memcmp(k.data() + 16, slot.key + 16, n - 16) != 0) return Arg::Other;
    return slot.arg;
}

class Reader {
public:
    Reader(std::string_view piece) : begin_(piece.data()), end_(piece.data() + piece.size()) {}

    const char* end() const { return end_; }

    // Reads the event object at p ('{') into e; the byte after its '}', or nullptr when the
    // event is not read here (invalid, or something this reader does not read exactly).
    const char* readEvent(const char* p, Event& e);
    // Validates the JSON value at p (not whitespace); the byte after it, or nullptr when invalid.
    const char* skipValue(const char* p, int depth);

private:
    // The byte after the string that opens at p ('"'), validated; nullptr when invalid.
    // `escaped` is set when it holds a backslash escape. A string that closes within 16 bytes
    // with nothing but plain ASCII before its quote is found here, inline.
    const char* skipString(const char* p, bool& escaped) {
#if defined(__SSE2__)
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 1));
        const auto mask = static_cast<unsigned>(_mm_movemask_epi8(
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                         _mm_cmplt_epi8(v, _mm_set1_epi8(' ')))));
        if (mask != 0) {
            const char* const q = p + 1 + __builtin_ctz(mask);
            if (*q == '"' && q < end_) return q + 1;
        }
#endif
        return skipStringSlow(p, escaped);
    }
    const char* skipStringSlow(const char* p, bool& escaped);
    // After an object member's value (p past it; nullptr when the value did not read): the
    // next member's first byte, or with `closed` the byte after the object's '}'; nullptr when
    // neither follows.
    const char* afterMember(const char* p, bool& closed) const {
        if (!p) return nullptr;
        p = skipSpace(p);
        if (*p == ',') return skipSpace(p + 1);
        closed = *p == '}' && p + 1 < end_;
        return closed ? p + 1 : nullptr;
    }
    // The string at p as its bytes: nullptr when it holds an escape (or is invalid).
    inline const char* readString(const char* p, std::string_view& s) {
        bool escaped = false;
        const char* q = skipString(p, escaped);
        if (!q || escaped) return nullptr;
        s = std::string_view(p + 1, static_cast<size_t>(q - p - 2));
        return q;
    }
    // A string value of the args (Collective name, dtype, ...): its bytes into `target` (and
    // `*set` true) when a string, else the value skipped.
    const char* readStringOrSkip(const char* p, std::string_view& target, bool* set = nullptr) {
        if (*p != '"') return skipValue(p, 2);
        if ((p = readString(p, target)) && set) *set = true;
        return p;
    }
    const char* readNumber(const char* p, Number& n);
    // toInt of the value at p, into `out`.
    const char* readInt(const char* p, int64_t& out);
    const char* readTriple(const char* p, uint32_t out[3]);
    const char* readNonNegative(const char* p, float& out);
    const char* readArgs(const char* p, Event& e);
    const char* skipLiteral(const char* p);
    bool utf8Valid() {
        if (utf8_ < 0) utf8_ = simdjson::validate_utf8(begin_, static_cast<size_t>(end_ - begin_)) ? 1 : 0;
        return utf8_ == 1;
    }

public:
    // The piece's UTF-8 as checked so far (utf8_), kept between parts.
    int utf8State() const { return utf8_; }
    void setUtf8State(int state) { utf8_ = state; }

private:
    const char* begin_;
    const char* end_;  // just past the piece's closing ']'; the padding is readable after it
    int utf8_ = -1;    // the piece's UTF-8: -1 not checked yet, 0 invalid, 1 valid
};

const char* Reader::skipStringSlow(const char* p, bool& escaped) {
    ++p;  // the opening quote
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(' ');
#endif
    while (true) {
#if defined(__SSE2__)
        // 16 bytes at a time (the padding after the piece is readable): the first quote,
        // backslash, control character or byte >= 0x80 (negative as signed: below ' ').
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), _mm_cmplt_epi8(v, space))));
        if (mask == 0) {
            p += 16;
            if (p >= end_) return nullptr;
            continue;
        }
        p += __builtin_ctz(mask);
#else
        while (p < end_ && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20 &&
               static_cast<unsigned char>(*p) < 0x80)
            ++p;
#endif
        if (p >= end_) return nullptr;
        const char c = *p;
        if (c == '"') return p + 1;
        if (c == '\\') {
            escaped = true;
            switch (p[1]) {
                case '"':
                case '\\':
                case '/':
                case 'b':
                case 'f':
                case 'n':
                case 'r':
                case 't':
                    p += 2;
                    break;
                case 'u':
                    if (!isHex(p[2]) || !isHex(p[3]) || !isHex(p[4]) || !isHex(p[5])) return nullptr;
                    p += 6;
                    break;
                default:
                    return nullptr;
            }
            if (p >= end_) return nullptr;
            continue;
        }
        if (static_cast<unsigned char>(c) < 0x20) return nullptr;  // a control character: invalid JSON
        if (!utf8Valid()) return nullptr;                          // UTF-8: valid in the whole piece, or not
        ++p;
    }
}

bool Number::decimal(double& out) const {
    // Significant digits: those of the integer part and the fraction, the leading zeros of
    // "0.000123" left out. At most 15: the digits are below 10^15, exact in a double.
    if (exponent || fracDigits > 22) return false;
    uint64_t digits = 0;
    if (whole != 0 || intDigits != 1) {  // not "0." (a whole of 0 with more digits wrapped)
        if (intDigits + fracDigits > 15) return false;
        digits = whole * kPowers[fracDigits] + fraction;
    } else {
        if (fracDigits - fracLeadingZeros > 15) return false;
        digits = fraction;
    }
    const double d = static_cast<double>(digits) / kPowersOf10[fracDigits];
    out = negative ? -d : d;
    return true;
}

const char* Reader::readNumber(const char* p, Number& n) {
    const char* const begin = p;
    n.negative = *p == '-';
    if (n.negative) ++p;
    const char* const digits = p;
    if (*p == '0')
        ++p;
    else if (isDigit(*p))
        p = parseDigits(p, n.whole);
    else
        return nullptr;
    n.intDigits = static_cast<size_t>(p - digits);
    if (*p == '.') {
        const char* const frac = ++p;
        if (!isDigit(*p)) return nullptr;
        p = parseDigits(p, n.fraction);
        n.fracDigits = static_cast<size_t>(p - frac);
        if (n.whole == 0 && n.intDigits == 1)
            while (frac[n.fracLeadingZeros] == '0') ++n.fracLeadingZeros;
    }
    if ((*p | 0x20) == 'e') {
        n.exponent = true;
        return skipNumber(begin);
    }
    return p;
}

const char* Reader::skipLiteral(const char* p) {
    switch (*p) {
        case 't':
            return std::memcmp(p, "true", 4) == 0 ? p + 4 : nullptr;
        case 'f':
            return std::memcmp(p, "false", 5) == 0 ? p + 5 : nullptr;
        case 'n':
            return std::memcmp(p, "null", 4) == 0 ? p + 4 : nullptr;
        default:
            return nullptr;
    }
}

const char* Reader::skipValue(const char* p, int depth) {
    switch (*p) {
        case '"': {
            bool escaped = false;
            return skipString(p, escaped);
        }
        case '{':
        case '[':
            break;
        case 't':
        case 'f':
        case 'n':
            return skipLiteral(p);
        default:
            return skipNumber(p);
    }
    // Containers, without recursion: bit i of `objects` tells whether the container opened
    // i levels up is an object.
    uint64_t objects = 0;
    int open = 0;
    bool escaped = false;
openContainer:  // p at '{' or '['
    if (depth + ++open > kMaxDepth) return nullptr;
    objects = objects << 1 | (*p == '{');
    p = skipSpace(p + 1);
    if (*p == ((objects & 1) ? '}' : ']')) goto closeContainer;
    if (!(objects & 1)) goto value;
key:
    if (*p != '"' || !(p = skipString(p, escaped))) return nullptr;
    p = skipSpace(p);
    if (*p != ':') return nullptr;
    p = skipSpace(p + 1);
value:
    switch (*p) {
        case '"':
            p = skipString(p, escaped);
            break;
        case '{':
        case '[':
            goto openContainer;
        case 't':
        case 'f':
        case 'n':
            p = skipLiteral(p);
            break;
        default:
            p = skipNumber(p);
            break;
    }
    if (!p) return nullptr;
afterValue:
    p = skipSpace(p);
    if (*p == ',') {
        p = skipSpace(p + 1);
        if (objects & 1) goto key;
        goto value;
    }
    if (*p != ((objects & 1) ? '}' : ']')) return nullptr;
closeContainer:                       // p at the container's closing byte
    if (++p >= end_) return nullptr;  // the piece's own ']' closes no container inside it
    objects >>= 1;
    if (--open == 0) return p;
    goto afterValue;
}

// toInt: a number (an integer as it is, another number truncated), or a string's leading
// integer (std::from_chars), else 0.
const char* Reader::readInt(const char* p, int64_t& out) {
    if (*p == '"') {
        std::string_view s;
        if (!(p = readString(p, s))) return nullptr;
        int64_t i = 0;
        std::from_chars(s.data(), s.data() + s.size(), i);
        out = i;
        return p;
    }
    if (*p == '-' || isDigit(*p)) {
        // The common case at once: a non-negative integer of 1 to 8 digits, no leading zero.
        const uint64_t x = load8(p);
        const int digits = leadingDigits(x);
        if (digits > 0 && digits < 8 && (*p != '0' || digits == 1)) {
            const char next = p[digits];
            if (next != '.' && (next | 0x20) != 'e') {
                uint64_t v = (x & 0x0F0F0F0F0F0F0F0Full) << (8 * (8 - digits));
                v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FFull;
                v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFFull;
                out = static_cast<int64_t>((v * 10000 + (v >> 32)) & 0xFFFFFFFFull);
                return p + digits;
            }
        }
        Number n;
        if (!(p = readNumber(p, n))) return nullptr;
        double d = 0;
        if (n.integer(out)) return p;
        // simdjson's get_int64 fails, get_double gives the value, truncated.
        if (!n.decimal(d) || !(std::fabs(d) < 9e18)) return nullptr;  // read by simdjson
        out = static_cast<int64_t>(d);
        return p;
    }
    out = 0;
    return skipValue(p, 1);
}

const char* Reader::readTriple(const char* p, uint32_t out[3]) {
    if (*p != '[') return skipValue(p, 1);
    p = skipSpace(p + 1);
    if (*p == ']') return p + 1;
    int i = 0;
    while (true) {
        int64_t n = 0;
        if (!(p = readInt(p, n))) return nullptr;
        if (i < 3) out[i++] = static_cast<uint32_t>(std::clamp<int64_t>(n, 0, UINT32_MAX));
        p = skipSpace(p);
        if (*p == ',') {
            p = skipSpace(p + 1);
            continue;
        }
        if (*p == ']' && p + 1 < end_) return p + 1;
        return nullptr;
    }
}

// nonNegative: a non-negative finite number as a float, -1 otherwise.
const char* Reader::readNonNegative(const char* p, float& out) {
    if (*p == '-' || isDigit(*p)) {
        Number n;
        double d = 0;
        if (!(p = readNumber(p, n)) || !n.decimal(d)) return nullptr;  // not read here: by simdjson
        out = d < 0 ? -1.0f : static_cast<float>(d);
        return p;
    }
    out = -1;
    return skipValue(p, 1);
}

const char* Reader::readArgs(const char* p, Event& e) {
    if (*p != '{') return skipValue(p, 1);
    p = skipSpace(p + 1);
    if (*p == '}') return p + 1;
    while (true) {
        if (*p != '"') return nullptr;
        std::string_view k;
        if (!(p = readString(p, k))) return nullptr;
        p = skipSpace(p);
        if (*p != ':') return nullptr;
        p = skipSpace(p + 1);
        const char* const at = p;
        if (e.ph == 'C') {
            if (*p == '-' || isDigit(*p)) {
                Number n;
                double d = 0;
                if (!(p = readNumber(p, n)) || !n.decimal(d)) return nullptr;
                e.counterValues.emplace_back(k, d);
            } else {
                p = skipValue(p, 2);
            }
        } else {
            switch (argOf(k)) {
                case Arg::Other:
                    p = skipValue(at, 2);
                    break;
                case Arg::Device:
                    p = readInt(at, e.device);
                    break;
                case Arg::Stream:
                    p = readInt(at, e.stream);
                    break;
                case Arg::Context:
                    p = readInt(at, e.context);
                    break;
                case Arg::Correlation:
                    p = readInt(at, e.correlation);
                    break;
                case Arg::WaitOnStream:
                    p = readInt(at, e.waitOnStream);
                    break;
                case Arg::WaitOnRecordCorrelation:
                    p = readInt(at, e.waitOnRecordCorrelation);
                    break;
                case Arg::WaitOnEventId:
                    p = readInt(at, e.waitOnEventId);
                    break;
                case Arg::Bytes:
                    p = readInt(at, e.bytes);
                    break;
                case Arg::Registers:
                    p = readInt(at, e.registers);
                    break;
                case Arg::Shared:
                    p = readInt(at, e.shared);
                    break;
                case Arg::MemoryBytes:
                    if ((p = readInt(at, e.memory.bytes))) e.memory.hasMemory = true;
                    break;
                case Arg::Address:
                    p = readInt(at, e.memory.address);
                    break;
                case Arg::TotalAllocated:
                    p = readInt(at, e.memory.totalAllocated);
                    break;
                case Arg::TotalReserved:
                    p = readInt(at, e.memory.totalReserved);
                    break;
                case Arg::DeviceId:
                    p = readInt(at, e.memory.deviceId);
                    break;
                case Arg::DeviceType:
                    p = readInt(at, e.memory.deviceType);
                    break;
                case Arg::BlocksPerSm:
                    p = readNonNegative(at, e.blocksPerSm);
                    break;
                case Arg::WarpsPerSm:
                    p = readNonNegative(at, e.warpsPerSm);
                    break;
                case Arg::Occupancy:
                    p = readNonNegative(at, e.occupancyPct);
                    break;
                case Arg::Grid:
                    p = readTriple(at, e.grid);
                    break;
                case Arg::Block:
                    p = readTriple(at, e.block);
                    break;
                case Arg::CollectiveName:
                    p = readStringOrSkip(at, e.comms.name, &e.comms.hasComms);
                    break;
                case Arg::InNelems:
                    p = readInt(at, e.comms.inNelems);
                    break;
                case Arg::OutNelems:
                    p = readInt(at, e.comms.outNelems);
                    break;
                case Arg::GroupSize:
                    p = readInt(at, e.comms.groupSize);
                    break;
                case Arg::Dtype:
                    p = readStringOrSkip(at, e.comms.dtype);
                    break;
                case Arg::GroupName:
                    p = readStringOrSkip(at, e.comms.groupName);
                    break;
                case Arg::GroupRanks:
                    p = readStringOrSkip(at, e.comms.groupRanks);
                    break;
                case Arg::Name:
                    p = readStringOrSkip(at, e.argName);
                    break;
                case Arg::InputDims:
                    if (*at == '[') {
                        if ((p = skipValue(at, 1))) e.inputDims = std::string_view(at, static_cast<size_t>(p - at));
                    } else {
                        p = skipValue(at, 2);
                    }
                    break;
            }
        }
        bool closed = false;
        p = afterMember(p, closed);
        if (!p || closed) return p;
    }
}

const char* Reader::readEvent(const char* p, Event& e) {
    using namespace std::string_view_literals;
    p = skipSpace(p + 1);
    if (*p == '}') return p + 1 < end_ ? p + 1 : nullptr;
    while (true) {
        if (*p != '"') return nullptr;
        Key key;
        const char* at = nullptr;
        // The keys as PyTorch writes them ("ph": , "name": ...): the key, its colon and the
        // space after it checked with one 8-byte comparison; any other key, or spacing, read
        // as a string.
        if (const WrittenKey written = writtenKey(p); written.length != 0) {
            key = written.key;
            at = skipSpace(p + written.length);
        } else {
            std::string_view text;
            if (!(p = readString(p, text))) return nullptr;
            key = keyOf(text);
            p = skipSpace(p);
            if (*p != ':') return nullptr;
            at = skipSpace(p + 1);
        }
        switch (key) {
            case Key::Ph:
                if (*at == '"') {
                    std::string_view ph;
                    if ((p = readString(at, ph))) e.ph = ph.empty() ? 0 : ph[0];
                } else {
                    p = skipValue(at, 1);
                }
                break;
            case Key::Ts:
            case Key::Dur:
                if (*at == '-' || isDigit(*at)) {
                    int64_t ns = 0;
                    bool ok = false;
                    if ((p = readMicros(at, ns, ok)) && ok) {
                        if (key == Key::Ts)
                            e.ts = ns, e.hasTs = true;
                        else
                            e.dur = ns, e.hasDur = true;
                    }
                } else {
                    p = skipValue(at, 1);
                }
                break;
            case Key::Cat:
                p = *at == '"' ? readString(at, e.cat) : skipValue(at, 1);
                break;
            case Key::Pid:
            case Key::Tid: {
                int64_t& n = key == Key::Pid ? e.pid : e.tid;
                std::string_view& text = key == Key::Pid ? e.pidText : e.tidText;
                if (*at == '"') {
                    std::string_view s;
                    if ((p = readString(at, s))) {
                        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
                        if (s.empty() || ec != std::errc() || end != s.data() + s.size())
                            text = s.empty() ? "\"\""sv : s;
                    }
                } else {
                    p = readInt(at, n);
                }
                break;
            }
            case Key::Name:
                p = *at == '"' ? readString(at, e.name) : skipValue(at, 1);
                break;
            case Key::Args:
                p = readArgs(at, e);
                break;
            case Key::Other:
                p = skipValue(at, 1);
                break;
        }
        bool closed = false;
        p = afterMember(p, closed);
        if (!p || closed) return p;
    }
}

// Validates the piece's elements from p (after an element's end) to its closing ']'.
bool restValid(Reader& reader, const char* p) {
    while (true) {
        p = skipSpace(p);
        if (*p == ']') return p + 1 == reader.end();
        if (*p != ',') return false;
        p = skipSpace(p + 1);
        if (!(p = reader.skipValue(p, 0))) return false;
    }
}

}  // namespace

FastPieceReader::Result FastPieceReader::readPart(EventBatch& batch, size_t bytes) {
    batch.clear();
    const std::string_view piece = piece_;
    if (piece.size() < 2 || piece.front() != '[' || piece.back() != ']') return Result::Declined;
    Reader reader(piece);
    reader.setUtf8State(utf8_);
    std::string canonical;  // scratch for canonicalJson
    try {
        const char* p = next_;
        if (!p) {
            p = skipSpace(piece.data() + 1);
            if (*p == ']') return p + 1 == reader.end() ? Result::Done : Result::Declined;
        }
        const char* const partEnd = bytes < static_cast<size_t>(reader.end() - p) ? p + bytes : reader.end();
        while (true) {
            const char* const start = p;
            if (*p == '{') {
                Event* e = &batch.events.emplace_back();
                p = reader.readEvent(p, *e);
                if (!p) {
                    // Not read here: when valid JSON, simdjson reads this event alone.
                    batch.events.pop_back();
                    if (!(p = reader.skipValue(start, 0))) return Result::Declined;
                    ++batch.eventsBySimdjson;
                    const size_t read = batch.events.size();
                    try {
                        od::document doc =
                            parser_->iterate(start, static_cast<size_t>(p - start),
                                             static_cast<size_t>(reader.end() - start) + simdjson::SIMDJSON_PADDING);
                        e = &batch.events.emplace_back();
                        readEvent(doc.get_object(), *e);
                    } catch (const simdjson::simdjson_error& error) {
                        // The piece's reading stops here, as simdjson's would, if the rest of the
                        // piece is valid (else simdjson's stage 1 fails the whole piece first).
                        if (!restValid(reader, p)) return Result::Declined;
                        batch.events.resize(read);
                        batch.error = error.error();
                        return Result::Done;
                    }
                    keepEvent(*e, batch, piece, canonical);
                } else if (!e->inputDims.empty()) {
                    // Read here: every string is the piece's bytes (or a literal), but Input
                    // Dims written otherwise than canonically (kept then).
                    const std::string_view dims = canonicalJson(e->inputDims, canonical);
                    if (dims.data() != e->inputDims.data()) e->inputDims = batch.text.keep(dims);
                }
            } else {
                if (!(p = reader.skipValue(p, 0))) return Result::Declined;
                ++batch.notObjects;
            }
            p = skipSpace(p);
            if (*p == ',') {
                p = skipSpace(p + 1);
                if (p >= partEnd) {  // the part is read: the next one starts at p
                    next_ = p;
                    utf8_ = reader.utf8State();
                    return Result::More;
                }
                continue;
            }
            return *p == ']' && p + 1 == reader.end() ? Result::Done : Result::Declined;
        }
    } catch (const std::bad_alloc&) {
        batch.outOfMemory = true;
        return Result::Done;
    }
}

bool parsePieceFast(od::parser& parser, std::string_view piece, EventBatch& batch) {
    FastPieceReader reader(parser, piece);
    return reader.readPart(batch, SIZE_MAX) != FastPieceReader::Result::Declined;
}

}  // namespace lanescope::kineto
