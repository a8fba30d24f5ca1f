#include "importers/WatchedMappings.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <mutex>

namespace lanescope {
namespace {

// One watched mapping: its first byte (0: the slot is free), its length (0: it matches no
// address) and its owner's flag. Read by the signal handler, so only atomics: a slot is claimed
// by its begin and then given its flag and length, and freed length first.
struct Slot {
    std::atomic<uintptr_t> begin{0};
    std::atomic<size_t> bytes{0};
    std::atomic<std::atomic<bool>*> cutShort{nullptr};
};
Slot slots[kWatchedMappings];
uintptr_t pageBytes = 4096;
struct sigaction previous {};

void onBusError(int signal, siginfo_t* info, void* context) {
    const auto at = reinterpret_cast<uintptr_t>(info->si_addr);
    for (Slot& slot : slots) {
        const uintptr_t begin = slot.begin.load(std::memory_order_acquire);
        const size_t bytes = slot.bytes.load(std::memory_order_acquire);
        if (begin == 0 || at < begin || at - begin >= bytes) continue;
        const uintptr_t page = at & ~(pageBytes - 1);
        void* zeros = ::mmap(reinterpret_cast<void*>(page), begin + bytes - page, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros != MAP_FAILED) {
            if (std::atomic<bool>* cutShort = slot.cutShort.load(std::memory_order_acquire))
                cutShort->store(true, std::memory_order_relaxed);
            return;  // the read runs again, on zeros
        }
    }
    // Not a watched mapping: whoever handled it before.
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) return previous.sa_sigaction(signal, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler) {
        return previous.sa_handler(signal);
    }
    ::signal(SIGBUS, SIG_DFL);  // and the read faults again, ending the program as it would have
}

void installHandler() {
    static std::once_flag installed;
    std::call_once(installed, [] {
        pageBytes = uintptr_t(::sysconf(_SC_PAGESIZE));
        struct sigaction action {};
        action.sa_sigaction = onBusError;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, &previous);
    });
}

}  // namespace

void watchMapping(const void* begin, size_t bytes, std::atomic<bool>& cutShort) {
    installHandler();
    for (Slot& slot : slots) {
        uintptr_t free = 0;
        if (slot.begin.compare_exchange_strong(free, reinterpret_cast<uintptr_t>(begin), std::memory_order_acq_rel)) {
            slot.cutShort.store(&cutShort, std::memory_order_release);
            slot.bytes.store(bytes, std::memory_order_release);  // until then it matches no address
            return;
        }
    }
}

void unwatchMapping(const void* begin) {
    for (Slot& slot : slots)
        if (slot.begin.load(std::memory_order_acquire) == reinterpret_cast<uintptr_t>(begin)) {
            slot.bytes.store(0, std::memory_order_release);  // first: the slot matches nothing
            slot.begin.store(0, std::memory_order_release);
            return;
        }
}

size_t watchedMappings() {
    return size_t(std::count_if(std::begin(slots), std::end(slots),
                                [](const Slot& slot) { return slot.begin.load(std::memory_order_acquire) != 0; }));
}

}  // namespace lanescope
