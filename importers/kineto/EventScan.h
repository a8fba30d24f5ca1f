#pragma once
#include <cstddef>
#include <cstdint>

namespace lanescope::kineto {

// The scanner of JsonEventStream's events array (JsonEventStream::scanEvents): its state
// across calls and blocks, and the buffer it scans.
struct EventScan {
    const char* data = nullptr;   // the buffer: bytes [0, end) of the document from some offset on
    size_t scan = 0, end = 0;     // the next byte to scan; the bytes buffered
    size_t start = 0, piece = 0;  // the byte before the piece being cut; StreamSizes::piece
    bool fileEnded = false;       // the last bytes are buffered: scan them too, padded
    int depth = 0;                // inside the events array
    bool inString = false;        // the scan stopped inside a string
    uint64_t escapeCarry = 0;     // ... after an odd run of backslashes (0 or 1)
};

// Scans from scan.scan, 64 bytes at a time (the rest too once the file has ended): the index of
// the comma that ends a piece (the first top-level one once the piece holds `piece` bytes), of
// the array's closing ']', or of a '}' that unbalances it; SIZE_MAX when the buffered bytes end
// first. With SSE2 (or bytes one by one), and with AVX2, PCLMULQDQ and POPCNT where the
// processor has them: the same results.
size_t scanEvents(EventScan& scan);
size_t scanEventsPortable(EventScan& scan);
size_t scanEventsAvx2(EventScan& scan);  // only where the processor has AVX2, PCLMULQDQ and POPCNT
bool haveAvx2Scan();                     // whether scanEventsAvx2 may run (and is built)

}  // namespace lanescope::kineto
