// Memory for model columns (Column.h): large ones on transparent huge pages; and pages faulted
// in ahead of being written whole (faultInPages).
#include <cstdint>
#include <cstdlib>
#include <new>

#include "model/Column.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace lanescope {

void* allocateColumnMemory(size_t bytes) {
    if (bytes < kHugeColumnBytes) return ::operator new(bytes);
    constexpr size_t kHugePage = size_t{2} << 20;
    void* memory = nullptr;
    // NOLINTNEXTLINE(cppcoreguidelines-no-malloc): freed by free()
    if (posix_memalign(&memory, kHugePage, bytes) != 0) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    // The whole huge pages inside the column; the rest of its last one stays in plain pages, so
    // that a column cut to its size (shrink_to_fit) holds no memory past its end. Advice: where
    // the system gives no huge page, the memory is made of plain pages.
    madvise(memory, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);
#endif
    return memory;
}

void freeColumnMemory(void* memory, size_t bytes) noexcept {
    if (bytes < kHugeColumnBytes)
        ::operator delete(memory);
    else
        std::free(memory);  // NOLINT(cppcoreguidelines-no-malloc,cppcoreguidelines-owning-memory): posix_memalign's
}

void faultInPages(void* begin, size_t bytes) noexcept {
#if defined(MADV_POPULATE_WRITE)
    static const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto from = (reinterpret_cast<uintptr_t>(begin) + page - 1) / page * page;
    const auto to = (reinterpret_cast<uintptr_t>(begin) + bytes) / page * page;
    if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
#else
    (void)begin;
    (void)bytes;
#endif
}

}  // namespace lanescope
