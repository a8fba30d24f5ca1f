// nvtx_many.cpp: stress workload for Lanescope benchmarks.
// 4 threads emit nested NVTX push/pop ranges (depth 1..4), ~2.2 million in total.
// Default domain: 32 names (every 3rd one pushed with a colour via nvtxEventAttributes).
// Custom domain "Lanescope.bench": 6 names, always with colour and a payload.
//
// Build: g++ -O2 -std=c++17 -pthread -I<nsys>/target-linux-x64/nvtx/include nvtx_many.cpp -ldl -o nvtx_many
// Usage: ./nvtx_many [ranges_per_thread]   (default 550000 -> 2,200,000 ranges)
#include <nvtx3/nvToolsExt.h>

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

struct Worker {
    int tid;
    long budget;  // ranges left to emit
    long emitted = 0;
    Rng rng;

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
            spin(4);
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
        spin(4);
        if (depth < 4) {
            int kids = int((r >> 12) % 4);  // 0..3 children
            for (int k = 0; k < kids && budget - emitted > 0; k++) push(depth + 1);
        }
        nvtxRangePop();
    }

    void run() {
        while (emitted < budget) push(1);
        g_total += emitted;
    }
};

int main(int argc, char** argv) {
    long per_thread = argc > 1 ? atol(argv[1]) : 550000;
    g_dom = nvtxDomainCreateA("Lanescope.bench");
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; t++)
        ts.emplace_back([t, per_thread] {
            Worker w{t, per_thread};
            w.rng.s = 0x9E3779B97F4A7C15ULL * uint64_t(t + 1);
            w.run();
        });
    for (auto& t : ts) t.join();
    printf("emitted %ld ranges\n", g_total.load());
    return 0;
}
