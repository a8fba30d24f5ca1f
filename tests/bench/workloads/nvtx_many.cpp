// nvtx_many.cpp: stress workload for Lanescope benchmarks.
// 4 threads emit nested NVTX push/pop ranges (depth 1..4), ~2.2 million in total.
// Default domain: 32 names (every 3rd one pushed with a colour via nvtxEventAttributes).
// Custom domain "Lanescope.bench": 6 names, always with colour and a payload.
// With osrt_every = N > 0, every Nth range of a thread also makes one short libc call inside it
// (read, write, pread, poll in turn) that `nsys profile -t osrt --osrt-threshold=1` records.
// spin sets the busy work inside each range (default 4). A larger value slows the workload down so
// that nsys's in-process event buffers are written out as fast as they fill (with tens of millions
// of events they otherwise grow by several GB). Neither option touches the random sequence, so the
// NVTX ranges are the same whatever osrt_every and spin are.
//
// Build: g++ -O2 -std=c++17 -pthread -I<nsys>/target-linux-x64/nvtx/include nvtx_many.cpp -ldl -o nvtx_many
// Usage: ./nvtx_many [ranges_per_thread [osrt_every [spin]]]
//        (default 550000 0 4 -> 2,200,000 ranges, no OS runtime calls)
#include <fcntl.h>
#include <nvtx3/nvToolsExt.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

static const char* kNames[32] = {
    "step",      "data_load", "h2d_copy",   "forward",   "conv1",     "conv2",     "bn",        "relu",
    "pool",      "attention", "qkv_proj",   "softmax",   "matmul",    "layernorm", "mlp",       "gelu",
    "dropout",   "loss",      "backward",   "grad_conv", "grad_attn", "grad_mlp",  "allreduce", "optimizer",
    "adam_step", "zero_grad", "checkpoint", "logging",   "metrics",   "scheduler", "prefetch",  "sync"};
static const uint32_t kColors[8] = {0xFF76B900, 0xFF1F77B4, 0xFFFF7F0E, 0xFF2CA02C,
                                    0xFFD62728, 0xFF9467BD, 0xFF8C564B, 0xFFE377C2};
static const char* kDomNames[6] = {"io_read", "decode", "augment", "collate", "queue_put", "queue_get"};

static nvtxDomainHandle_t g_dom;
static std::atomic<long> g_total{0};
static std::atomic<long> g_calls{0};
static long g_osrtEvery = 0;  // 0: no OS runtime calls
static int g_spin = 4;        // busy-loop iterations per range
static int g_zero = -1, g_null = -1;

struct Rng {  // xorshift64*, deterministic per thread
    uint64_t s;
    uint32_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return uint32_t((s * 2685821657736338717ULL) >> 32);
    }
};

static volatile double g_sink;
static inline void spin(int n) {
    double x = 0;
    for (int i = 0; i < n; i++) x += i * 0.5;
    g_sink = x;
}

// One short libc call that nsys traces as an OS runtime event (each well under 1 us here).
static long osrtCall(long k) {
    char buf[64];
    switch (k & 3) {
        case 0:
            return long(read(g_zero, buf, sizeof buf));
        case 1:
            return long(write(g_null, buf, sizeof buf));
        case 2:
            return long(pread(g_zero, buf, sizeof buf, 0));
        default:
            return long(poll(nullptr, 0, 0));
    }
}

struct Worker {
    int tid;
    long budget;  // ranges left to emit
    long emitted = 0;
    long calls = 0;
    Rng rng;

    void maybeCall() {
        if (g_osrtEvery > 0 && emitted % g_osrtEvery == 0) osrtCall(calls++);
    }

    void push(int depth) {
        uint32_t r = rng.next();
        if ((r & 15) == 0) {  // ~1/16: custom domain, coloured, with payload
            nvtxEventAttributes_t a = {};
            a.version = NVTX_VERSION;
            a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
            a.colorType = NVTX_COLOR_ARGB;
            a.color = kColors[(r >> 4) & 7];
            a.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
            a.payload.ullValue = uint64_t(emitted);
            a.messageType = NVTX_MESSAGE_TYPE_ASCII;
            a.message.ascii = kDomNames[(r >> 8) % 6];
            nvtxDomainRangePushEx(g_dom, &a);
            ++emitted;
            spin(g_spin);
            maybeCall();
            if (depth < 4 && budget - emitted > 0 && ((r >> 16) & 1)) push(depth + 1);
            nvtxDomainRangePop(g_dom);
            return;
        }
        int idx = (depth == 1) ? ((r >> 4) & 3) * 8 : int((r >> 4) % 32);
        if (idx % 3 == 0) {  // coloured default-domain range
            nvtxEventAttributes_t a = {};
            a.version = NVTX_VERSION;
            a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
            a.colorType = NVTX_COLOR_ARGB;
            a.color = kColors[idx & 7];
            a.messageType = NVTX_MESSAGE_TYPE_ASCII;
            a.message.ascii = kNames[idx];
            nvtxRangePushEx(&a);
        } else {
            nvtxRangePushA(kNames[idx]);
        }
        ++emitted;
        spin(g_spin);
        maybeCall();
        if (depth < 4) {
            int kids = int((r >> 12) % 4);  // 0..3 children
            for (int k = 0; k < kids && budget - emitted > 0; k++) push(depth + 1);
        }
        nvtxRangePop();
    }

    void run() {
        while (emitted < budget) push(1);
        g_total += emitted;
        g_calls += calls;
    }
};

int main(int argc, char** argv) {
    long per_thread = argc > 1 ? atol(argv[1]) : 550000;
    g_osrtEvery = argc > 2 ? atol(argv[2]) : 0;
    g_spin = argc > 3 ? atoi(argv[3]) : 4;
    if (g_osrtEvery > 0) {
        g_zero = open("/dev/zero", O_RDONLY);
        g_null = open("/dev/null", O_WRONLY);
        if (g_zero < 0 || g_null < 0) {
            perror("open");
            return 1;
        }
    }
    g_dom = nvtxDomainCreateA("Lanescope.bench");
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; t++)
        ts.emplace_back([t, per_thread] {
            Worker w{t, per_thread};
            w.rng.s = 0x9E3779B97F4A7C15ULL * uint64_t(t + 1);
            w.run();
        });
    for (auto& t : ts) t.join();
    if (g_osrtEvery > 0)
        printf("emitted %ld ranges, %ld OS runtime calls\n", g_total.load(), g_calls.load());
    else
        printf("emitted %ld ranges\n", g_total.load());
    return 0;
}
