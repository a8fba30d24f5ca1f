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

namespace lanescope::kineto {
namespace {

namespace od = simdjson::ondemand;

constexpr int kMaxDepth = 64;  // nesting inside an element of the piece; deeper: the piece goes to simdjson

constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }

inline bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

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

// Whether `k` is the literal `lit` (compared with a constant size: a load or two).
template <size_t N>
inline bool is(std::string_view k, const char (&lit)[N]) {
    return k.size() == N - 1 && std::memcmp(k.data(), lit, N - 1) == 0;
}

// The number of ASCII digits in the 8 bytes at p (8 when all are).
inline int digitsIn8(const char* p) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    // A byte is a digit when its high nibble is 3 and its low nibble plus 6 stays below 16.
    const uint64_t notDigit = ((x & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull) |
                              (((x & 0x0F0F0F0F0F0F0F0Full) + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull);
    if (notDigit == 0) return 8;
    // Little-endian: the first byte is the lowest.
    const uint64_t nonzero =
        (((notDigit & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | notDigit) & 0x8080808080808080ull;
    return __builtin_ctzll(nonzero) >> 3;
}

// The byte after the run of digits at p.
inline const char* skipDigits(const char* p) {
    int n;
    while ((n = digitsIn8(p)) == 8) p += 8;
    return p + n;
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

inline bool isHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// A JSON number as read, and its value where simdjson's conversion is known to give the same:
// integer() for an integer of at most 18 digits; decimal() for a number without exponent of at
// most 15 significant digits and 22 fraction digits (Clinger's exact case: the digits, exact
// in a double, divided by a power of ten exact in a double, one correctly rounded division, as
// simdjson's correctly rounded parsing gives).
struct Number {
    bool negative = false, exponent = false;
    size_t intDigits = 0, fracDigits = 0, leadingZeros = 0;
    uint64_t whole = 0, mantissa = 0;  // the integer part; all the digits (both wrap past 19 digits)

    bool integer(int64_t& out) const {
        if (exponent || fracDigits != 0 || intDigits > 18) return false;
        out = negative ? -static_cast<int64_t>(whole) : static_cast<int64_t>(whole);
        return true;
    }
    bool decimal(double& out) const;
};

constexpr double kPowersOf10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

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
    // `escaped` is set when it holds a backslash escape.
    const char* skipString(const char* p, bool& escaped);
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

    const char* begin_;
    const char* end_;  // just past the piece's closing ']'; the padding is readable after it
    int utf8_ = -1;    // the piece's UTF-8: -1 not checked yet, 0 invalid, 1 valid
};

const char* Reader::skipString(const char* p, bool& escaped) {
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
    if (exponent || fracDigits > 22 || intDigits + fracDigits > 15 + leadingZeros) return false;
    const double d = static_cast<double>(mantissa) / kPowersOf10[fracDigits];
    out = negative ? -d : d;
    return true;
}

const char* Reader::readNumber(const char* p, Number& n) {
    n.negative = *p == '-';
    if (n.negative) ++p;
    const char* const digits = p;
    if (*p == '0') {
        ++p;
    } else if (isDigit(*p)) {
        while (isDigit(*p)) n.whole = n.whole * 10 + static_cast<uint64_t>(*p++ - '0');
    } else {
        return nullptr;
    }
    n.intDigits = static_cast<size_t>(p - digits);
    n.leadingZeros = n.whole == 0 ? 1 : 0;  // digits before the first significant one
    n.mantissa = n.whole;
    if (*p == '.') {
        const char* const frac = ++p;
        if (!isDigit(*p)) return nullptr;
        for (; isDigit(*p); ++p) {
            n.leadingZeros += n.mantissa == 0 && *p == '0';
            n.mantissa = n.mantissa * 10 + static_cast<uint64_t>(*p - '0');
        }
        n.fracDigits = static_cast<size_t>(p - frac);
    }
    if ((*p | 0x20) == 'e') {
        n.exponent = true;
        return skipNumber(digits);
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
            p = nullptr;
            using namespace std::string_view_literals;
            // By length, then the name: as readEvent's chain of comparisons, one of them matches.
            switch (k.size()) {
                case 4:
                    if (is(k, "Addr"))
                        p = readInt(at, e.memory.address);
                    else if (is(k, "grid"))
                        p = readTriple(at, e.grid);
                    else if (is(k, "name"))
                        p = readStringOrSkip(at, e.argName);
                    else
                        p = skipValue(at, 2);
                    break;
                case 5:
                    if (is(k, "bytes"))
                        p = readInt(at, e.bytes);
                    else if (is(k, "Bytes")) {
                        if ((p = readInt(at, e.memory.bytes))) e.memory.hasMemory = true;
                    } else if (is(k, "block"))
                        p = readTriple(at, e.block);
                    else if (is(k, "dtype"))
                        p = readStringOrSkip(at, e.comms.dtype);
                    else
                        p = skipValue(at, 2);
                    break;
                case 6:
                    if (is(k, "device"))
                        p = readInt(at, e.device);
                    else if (is(k, "stream"))
                        p = readInt(at, e.stream);
                    else
                        p = skipValue(at, 2);
                    break;
                case 7:
                    p = is(k, "context") ? readInt(at, e.context) : skipValue(at, 2);
                    break;
                case 9:
                    p = is(k, "Device Id") ? readInt(at, e.memory.deviceId) : skipValue(at, 2);
                    break;
                case 10:
                    if (is(k, "Group size"))
                        p = readInt(at, e.comms.groupSize);
                    else if (is(k, "Input Dims") && *at == '[') {
                        p = skipValue(at, 1);
                        if (p) e.inputDims = std::string_view(at, static_cast<size_t>(p - at));
                    } else
                        p = skipValue(at, 2);
                    break;
                case 11:
                    if (is(k, "correlation"))
                        p = readInt(at, e.correlation);
                    else if (is(k, "Device Type"))
                        p = readInt(at, e.memory.deviceType);
                    else
                        p = skipValue(at, 2);
                    break;
                case 12:
                    p = is(k, "warps per SM") ? readNonNegative(at, e.warpsPerSm) : skipValue(at, 2);
                    break;
                case 13:
                    if (is(k, "shared memory"))
                        p = readInt(at, e.shared);
                    else if (is(k, "blocks per SM"))
                        p = readNonNegative(at, e.blocksPerSm);
                    else if (is(k, "In msg nelems"))
                        p = readInt(at, e.comms.inNelems);
                    else
                        p = skipValue(at, 2);
                    break;
                case 14:
                    if (is(k, "wait_on_stream"))
                        p = readInt(at, e.waitOnStream);
                    else if (is(k, "Total Reserved"))
                        p = readInt(at, e.memory.totalReserved);
                    else if (is(k, "Out msg nelems"))
                        p = readInt(at, e.comms.outNelems);
                    else
                        p = skipValue(at, 2);
                    break;
                case 15:
                    if (is(k, "Total Allocated"))
                        p = readInt(at, e.memory.totalAllocated);
                    else if (is(k, "Collective name"))
                        p = readStringOrSkip(at, e.comms.name, &e.comms.hasComms);
                    else
                        p = skipValue(at, 2);
                    break;
                case 18:
                    p = is(k, "Process Group Name") ? readStringOrSkip(at, e.comms.groupName) : skipValue(at, 2);
                    break;
                case 19:
                    p = is(k, "Process Group Ranks") ? readStringOrSkip(at, e.comms.groupRanks) : skipValue(at, 2);
                    break;
                case 20:
                    p = is(k, "registers per thread") ? readInt(at, e.registers) : skipValue(at, 2);
                    break;
                case 21:
                    p = is(k, "wait_on_cuda_event_id") ? readInt(at, e.waitOnEventId) : skipValue(at, 2);
                    break;
                case 25:
                    p = is(k, "est. achieved occupancy %") ? readNonNegative(at, e.occupancyPct) : skipValue(at, 2);
                    break;
                case 33:
                    p = is(k, "wait_on_cuda_event_record_corr_id") ? readInt(at, e.waitOnRecordCorrelation)
                                                                   : skipValue(at, 2);
                    break;
                default:
                    p = skipValue(at, 2);
                    break;
            }
        }
        if (!p) return nullptr;
        p = skipSpace(p);
        if (*p == ',') {
            p = skipSpace(p + 1);
            continue;
        }
        if (*p == '}' && p + 1 < end_) return p + 1;
        return nullptr;
    }
}

const char* Reader::readEvent(const char* p, Event& e) {
    using namespace std::string_view_literals;
    p = skipSpace(p + 1);
    if (*p == '}') return p + 1 < end_ ? p + 1 : nullptr;
    while (true) {
        if (*p != '"') return nullptr;
        std::string_view key;
        if (!(p = readString(p, key))) return nullptr;
        p = skipSpace(p);
        if (*p != ':') return nullptr;
        p = skipSpace(p + 1);
        const char* const at = p;
        p = nullptr;
        switch (key.size()) {
            case 2:
                if (is(key, "ph")) {
                    if (*at == '"') {
                        std::string_view ph;
                        if ((p = readString(at, ph))) e.ph = ph.empty() ? 0 : ph[0];
                    } else {
                        p = skipValue(at, 1);
                    }
                } else if (is(key, "ts")) {
                    if (*at == '-' || isDigit(*at)) {
                        int64_t ns = 0;
                        if ((p = skipNumber(at)) && microsToNs({at, static_cast<size_t>(p - at)}, ns))
                            e.ts = ns, e.hasTs = true;
                    } else {
                        p = skipValue(at, 1);
                    }
                } else {
                    p = skipValue(at, 1);
                }
                break;
            case 3:
                if (is(key, "cat")) {
                    p = *at == '"' ? readString(at, e.cat) : skipValue(at, 1);
                } else if (is(key, "pid") || is(key, "tid")) {
                    int64_t& n = is(key, "pid") ? e.pid : e.tid;
                    std::string_view& text = is(key, "pid") ? e.pidText : e.tidText;
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
                } else if (is(key, "dur")) {
                    if (*at == '-' || isDigit(*at)) {
                        int64_t ns = 0;
                        if ((p = skipNumber(at)) && microsToNs({at, static_cast<size_t>(p - at)}, ns))
                            e.dur = ns, e.hasDur = true;
                    } else {
                        p = skipValue(at, 1);
                    }
                } else {
                    p = skipValue(at, 1);
                }
                break;
            case 4:
                if (is(key, "name"))
                    p = *at == '"' ? readString(at, e.name) : skipValue(at, 1);
                else if (is(key, "args"))
                    p = readArgs(at, e);
                else
                    p = skipValue(at, 1);
                break;
            default:
                p = skipValue(at, 1);
                break;
        }
        if (!p) return nullptr;
        p = skipSpace(p);
        if (*p == ',') {
            p = skipSpace(p + 1);
            continue;
        }
        if (*p == '}' && p + 1 < end_) return p + 1;
        return nullptr;
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

bool parsePieceFast(od::parser& parser, std::string_view piece, EventBatch& batch) {
    batch.clear();
    if (piece.size() < 2 || piece.front() != '[' || piece.back() != ']') return false;
    Reader reader(piece);
    std::string canonical;  // scratch for canonicalJson
    try {
        const char* p = skipSpace(piece.data() + 1);
        if (*p == ']') return p + 1 == reader.end();
        while (true) {
            const char* const start = p;
            if (*p == '{') {
                Event* e = &batch.events.emplace_back();
                p = reader.readEvent(p, *e);
                if (!p) {
                    // Not read here: when valid JSON, simdjson reads this event alone.
                    batch.events.pop_back();
                    if (!(p = reader.skipValue(start, 0))) return false;
                    ++batch.eventsBySimdjson;
                    const size_t read = batch.events.size();
                    try {
                        od::document doc =
                            parser.iterate(start, static_cast<size_t>(p - start),
                                           static_cast<size_t>(reader.end() - start) + simdjson::SIMDJSON_PADDING);
                        e = &batch.events.emplace_back();
                        readEvent(doc.get_object(), *e);
                    } catch (const simdjson::simdjson_error& error) {
                        // The piece's reading stops here, as simdjson's would, if the rest of the
                        // piece is valid (else simdjson's stage 1 fails the whole piece first).
                        if (!restValid(reader, p)) return false;
                        batch.events.resize(read);
                        batch.error = error.error();
                        return true;
                    }
                }
                keepEvent(*e, batch, piece, canonical);
            } else {
                if (!(p = reader.skipValue(p, 0))) return false;
                ++batch.notObjects;
            }
            p = skipSpace(p);
            if (*p == ',') {
                p = skipSpace(p + 1);
                continue;
            }
            return *p == ']' && p + 1 == reader.end();
        }
    } catch (const std::bad_alloc&) {
        batch.outOfMemory = true;
        return true;
    }
}

}  // namespace lanescope::kineto
