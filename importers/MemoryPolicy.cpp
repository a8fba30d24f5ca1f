#include "importers/MemoryPolicy.h"

#include <malloc.h>

namespace lanescope {

void returnFreedMemoryToTheSystem() {
#ifdef M_MMAP_THRESHOLD
    constexpr int kMappedFrom = 1 << 20;  // bytes; blocks this large get their own mapping
    mallopt(M_MMAP_THRESHOLD, kMappedFrom);
#endif
}

}  // namespace lanescope
