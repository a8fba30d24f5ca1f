#pragma once
#include <atomic>
#include <cstddef>

namespace lanescope {

// Files that Lanescope maps while reading them (a Kineto trace during its import:
// kineto/BlockReader.h; a saved model for as long as its report lives: cache/ModelReader.cpp),
// watched so that one cut short underneath does not end the program. A file truncated while
// mapped makes a read past its new end raise SIGBUS; for an address inside a watched mapping,
// the handler maps pages of zeros over the rest of that mapping, sets the mapping's flag, and
// the read goes on, reading zeros. The owner checks its flag and says the file was cut short.
// Any other SIGBUS goes to the handler there was before.
//
// At most kWatchedMappings mappings are watched at once; one more is mapped unwatched.
inline constexpr size_t kWatchedMappings = 256;
// Watches [begin, begin + bytes); `cutShort` (which must outlive the watch) is set when a read
// in it finds the file cut short.
void watchMapping(const void* begin, size_t bytes, std::atomic<bool>& cutShort);
void unwatchMapping(const void* begin);
// How many mappings are watched now.
size_t watchedMappings();

}  // namespace lanescope
