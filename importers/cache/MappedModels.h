#pragma once
#include <cstddef>

namespace lanescope::cache {

// The model files that loaded reports map (cache/ModelReader.cpp), watched so that one cut
// short underneath them does not end the program. A file truncated while mapped makes a read
// past its new end raise SIGBUS; for an address inside a watched mapping, the handler maps
// pages of zeros over the rest of that mapping and the read goes on, reading zeros (the report
// then shows zeros there, wrong but harmless: every index stays in range). Any other SIGBUS
// goes to the handler there was before. Lanescope never truncates an entry in place; a hand
// might.
//
// At most kWatchedMappings mappings are watched at once; one more is mapped unwatched.
inline constexpr size_t kWatchedMappings = 256;
void watchMapping(const void* begin, size_t bytes);
void unwatchMapping(const void* begin);
// Whether a watched mapping was found cut short since the program started.
bool aMappedModelWasCutShort();
// How many mappings are watched now (none once every report that mapped a model is gone).
size_t watchedMappings();

}  // namespace lanescope::cache
