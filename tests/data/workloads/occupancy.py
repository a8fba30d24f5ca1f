#!/usr/bin/env python3
"""Kernels of known occupancy, launched through the CUDA driver API with ctypes only.

Compiles a few CUDA C kernels with NVRTC (a cubin for the GPU's own architecture), each
chosen to hit a different occupancy limiter (registers, static shared memory, dynamic
shared memory, threads per block), launches each configuration once, and writes the
driver's own answer (cuOccupancyMaxActiveBlocksPerMultiprocessor) as an oracle:

    occupancy_expected.csv:
    kernel,block_x,dynamic_shared,registers,static_shared,max_active_blocks_per_sm

one row per launched configuration, in launch order. A configuration the driver refuses
(too many registers or threads for the block, too much shared memory) is tried, logged
to stderr and left out of the CSV.

Usage: python3 occupancy.py [CSV_PATH]
Made for tests/data/nsys-2025.3/occupancy.* with
    nsys profile -t cuda --cuda-memory-usage=false -o occupancy python3 occupancy.py
"""
import ctypes
import glob
import os
import sys
import time

# ---------------------------------------------------------------- libraries

def load_cuda():
    return ctypes.CDLL("libcuda.so.1")


def find_nvrtc():
    cands = []
    for p in sys.path:
        if p and os.path.isdir(os.path.join(p, "nvidia")):
            cands += sorted(glob.glob(os.path.join(p, "nvidia", "*", "lib", "libnvrtc.so*")))
    cands += sorted(glob.glob("/usr/local/cuda/lib64/libnvrtc.so*"))
    cands += sorted(glob.glob("/usr/local/cuda*/lib64/libnvrtc.so*"))
    cands += sorted(glob.glob("/usr/local/cuda*/targets/x86_64-linux/lib/libnvrtc.so*"))
    cands = [c for c in cands if "builtins" not in os.path.basename(c)
             and "alt" not in os.path.basename(c)]
    for c in cands:
        try:
            return ctypes.CDLL(c), c
        except OSError:
            continue
    raise SystemExit("libnvrtc not found; looked at: %r" % cands)


cuda = load_cuda()
nvrtc, NVRTC_PATH = find_nvrtc()

CUresult = ctypes.c_int
cuda.cuGetErrorName.argtypes = [CUresult, ctypes.POINTER(ctypes.c_char_p)]
cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor.argtypes = [
    ctypes.POINTER(ctypes.c_int), ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
cuda.cuLaunchKernel.argtypes = [
    ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
    ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
    ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
cuda.cuFuncGetAttribute.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_void_p]
cuda.cuFuncSetAttribute.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
cuda.cuModuleLoadData.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p]
cuda.cuModuleGetFunction.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p,
                                     ctypes.c_char_p]
cuda.cuMemAlloc_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t]
cuda.cuMemsetD32_v2.argtypes = [ctypes.c_uint64, ctypes.c_uint, ctypes.c_size_t]


def err_name(r):
    s = ctypes.c_char_p()
    cuda.cuGetErrorName(r, ctypes.byref(s))
    return s.value.decode() if s.value else str(r)


def ck(r, what):
    if r != 0:
        raise RuntimeError("%s failed: %s (%d)" % (what, err_name(r), r))


def nck(r, what, prog=None):
    if r != 0:
        nvrtc.nvrtcGetErrorString.restype = ctypes.c_char_p
        msg = nvrtc.nvrtcGetErrorString(r).decode()
        log = ""
        if prog is not None:
            n = ctypes.c_size_t()
            nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
            buf = ctypes.create_string_buffer(n.value)
            nvrtc.nvrtcGetProgramLog(prog, buf)
            log = buf.value.decode(errors="replace")
        raise RuntimeError("%s failed: %s\n%s" % (what, msg, log))

# ---------------------------------------------------------------- sources

COMMON_SRC = r"""
// Few registers, no shared memory.
extern "C" __global__ void occ_trivial(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i & 1023] + (float)i;
}

// Static shared memory of BYTES bytes, indexed at run time so it stays.
#define SMEM_KERNEL(NAME, BYTES)                                              \
extern "C" __global__ void NAME(float* out, const float* in, int n) {         \
    __shared__ float buf[(BYTES) / 4];                                        \
    int t = threadIdx.x;                                                      \
    for (int i = t; i < (BYTES) / 4; i += blockDim.x)                         \
        buf[i] = in[i & 1023] * 0.5f + (float)blockIdx.x;                     \
    __syncthreads();                                                          \
    out[blockIdx.x * blockDim.x + t] = buf[(t * 7 + n) % ((BYTES) / 4)];      \
}
SMEM_KERNEL(occ_smem_4k, 4096)
SMEM_KERNEL(occ_smem_20k, 20480)
SMEM_KERNEL(occ_smem_40k, 40960)

// Dynamic shared memory only: n floats of it.
extern "C" __global__ void occ_dyn_smem(float* out, const float* in, int n) {
    extern __shared__ float dyn[];
    int t = threadIdx.x;
    for (int i = t; i < n; i += blockDim.x) dyn[i] = in[i & 1023] + (float)i;
    __syncthreads();
    float v = n > 0 ? dyn[(t * 5) % n] : 1.0f;
    out[blockIdx.x * blockDim.x + t] = v;
}

// 8 KiB static plus n floats of dynamic shared memory.
extern "C" __global__ void occ_mixed_s8k_dyn(float* out, const float* in, int n) {
    __shared__ float st[2048];
    extern __shared__ float dyn[];
    int t = threadIdx.x;
    for (int i = t; i < 2048; i += blockDim.x) st[i] = in[i & 1023];
    for (int i = t; i < n; i += blockDim.x) dyn[i] = in[(i + 3) & 1023];
    __syncthreads();
    float v = st[(t * 3) & 2047];
    if (n > 0) v += dyn[(t * 5) % n];
    out[blockIdx.x * blockDim.x + t] = v;
}
"""

# NACC accumulators stay live across a loop whose trip count is known only at run
# time, so the kernel needs about NACC registers (or spills under --maxrregcount).
HEAVY_SRC = r"""
#ifndef KNAME
#define KNAME occ_heavy
#endif
#define NACC 160
extern "C" __global__ void KNAME(float* out, const float* in, int n) {
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    float acc[NACC];
#pragma unroll
    for (int j = 0; j < NACC; ++j) acc[j] = in[(gid + j) & 1023];
    for (int k = 0; k < n; ++k) {
        float x = in[(gid + 31 * k) & 1023];
#pragma unroll
        for (int j = 0; j < NACC; ++j) acc[j] = fmaf(acc[j], x, acc[(j + 1) % NACC]);
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < NACC; ++j) s += acc[j] * (float)(j + 1);
    out[gid] = s;
}
"""


def compile_cubin(src, name, opts, arch):
    prog = ctypes.c_void_p()
    nck(nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), name.encode(), 0, None, None),
        "nvrtcCreateProgram")
    all_opts = ["--gpu-architecture=sm_%d" % arch, "-default-device"] + opts
    arr = (ctypes.c_char_p * len(all_opts))(*[o.encode() for o in all_opts])
    nck(nvrtc.nvrtcCompileProgram(prog, len(all_opts), arr), "nvrtcCompileProgram " + name, prog)
    n = ctypes.c_size_t()
    nck(nvrtc.nvrtcGetCUBINSize(prog, ctypes.byref(n)), "nvrtcGetCUBINSize")
    buf = ctypes.create_string_buffer(n.value)
    nck(nvrtc.nvrtcGetCUBIN(prog, buf), "nvrtcGetCUBIN")
    nvrtc.nvrtcDestroyProgram(ctypes.byref(prog))
    return buf.raw

# ---------------------------------------------------------------- configurations

KB = 1024
DYN = [0, 8 * KB, 32 * KB, 64 * KB, 100 * KB]

# (kernel, [block sizes], [dynamic shared sizes]) in launch order.
PLAN = [
    ("occ_trivial", [32, 96, 256, 1024], [0]),
    ("occ_heavy", [64, 128, 256, 384, 512], [0]),
    ("occ_heavy_r32", [128, 512, 1024], [0]),
    ("occ_heavy_r64", [128, 512, 1024], [0]),
    ("occ_heavy_r128", [128, 256, 512, 1024], [0]),
    ("occ_heavy_r255", [64, 192, 256, 512], [0]),
    ("occ_smem_4k", [64, 256, 1024], [0]),
    ("occ_smem_20k", [64, 256, 1024], [0]),
    ("occ_smem_40k", [64, 256, 1024], [0]),
    ("occ_dyn_smem", [64, 256, 1024], DYN),
    ("occ_mixed_s8k_dyn", [128, 768], [0, 32 * KB, 64 * KB, 100 * KB]),
]

CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0
CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3
CU_FUNC_ATTRIBUTE_NUM_REGS = 4
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8


def fattr(f, a):
    v = ctypes.c_int()
    ck(cuda.cuFuncGetAttribute(ctypes.byref(v), a, f), "cuFuncGetAttribute")
    return v.value


def dattr(dev, a):
    v = ctypes.c_int()
    ck(cuda.cuDeviceGetAttribute(ctypes.byref(v), a, dev), "cuDeviceGetAttribute")
    return v.value


def main():
    csv_path = sys.argv[1] if len(sys.argv) > 1 else "occupancy_expected.csv"
    t0 = time.time()
    ck(cuda.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    ck(cuda.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    dev = dev.value
    name = ctypes.create_string_buffer(256)
    ck(cuda.cuDeviceGetName(name, 256, dev), "cuDeviceGetName")
    major, minor = dattr(dev, 75), dattr(dev, 76)
    sms = dattr(dev, 16)
    drv = ctypes.c_int()
    cuda.cuDriverGetVersion(ctypes.byref(drv))
    nv_maj, nv_min = ctypes.c_int(), ctypes.c_int()
    nvrtc.nvrtcVersion(ctypes.byref(nv_maj), ctypes.byref(nv_min))
    arch = major * 10 + minor
    print("device %s, sm_%d, %d SMs, regs/SM %d, smem/SM %d, smem/block optin %d, driver %d"
          % (name.value.decode(), arch, sms, dattr(dev, 82), dattr(dev, 81), dattr(dev, 97),
             drv.value))
    print("nvrtc %d.%d at %s" % (nv_maj.value, nv_min.value, NVRTC_PATH))

    ctx = ctypes.c_void_p()
    ck(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    ck(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")

    images = [("common", compile_cubin(COMMON_SRC, "common.cu", [], arch))]
    images.append(("heavy", compile_cubin(HEAVY_SRC, "heavy.cu", ["-DKNAME=occ_heavy"], arch)))
    for r in (32, 64, 128, 255):
        images.append(("heavy_r%d" % r, compile_cubin(
            HEAVY_SRC, "heavy_r%d.cu" % r,
            ["-DKNAME=occ_heavy_r%d" % r, "--maxrregcount=%d" % r], arch)))
    print("compiled %d cubins in %.2f s" % (len(images), time.time() - t0))

    funcs = {}
    for _, img in images:
        mod = ctypes.c_void_p()
        ck(cuda.cuModuleLoadData(ctypes.byref(mod), img), "cuModuleLoadData")
        for k, _, _ in PLAN:
            if k in funcs:
                continue
            f = ctypes.c_void_p()
            if cuda.cuModuleGetFunction(ctypes.byref(f), mod, k.encode()) == 0:
                funcs[k] = f
    for k, _, _ in PLAN:
        f = funcs[k]
        print("  %-18s regs %3d static_smem %6d local %5d max_threads %4d" % (
            k, fattr(f, CU_FUNC_ATTRIBUTE_NUM_REGS), fattr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
            fattr(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
            fattr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)))

    grid = 2 * sms
    d_out = ctypes.c_uint64()
    d_in = ctypes.c_uint64()
    ck(cuda.cuMemAlloc_v2(ctypes.byref(d_out), grid * 1024 * 4), "cuMemAlloc out")
    ck(cuda.cuMemAlloc_v2(ctypes.byref(d_in), 1024 * 4), "cuMemAlloc in")
    ck(cuda.cuMemsetD32_v2(d_in.value, 0x3f800000, 1024), "cuMemsetD32")  # 1.0f
    ck(cuda.cuCtxSynchronize(), "cuCtxSynchronize")

    rows = []
    skipped = []
    for k, blocks, dyns in PLAN:
        f = funcs[k]
        regs = fattr(f, CU_FUNC_ATTRIBUTE_NUM_REGS)
        static = fattr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
        for b in blocks:
            for dyn in dyns:
                why = None
                if dyn > 48 * KB:
                    r = cuda.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, dyn)
                    if r != 0:
                        why = "cuFuncSetAttribute: " + err_name(r)
                occ = ctypes.c_int(-1)
                if why is None:
                    r = cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(ctypes.byref(occ), f, b, dyn)
                    if r != 0:
                        why = "cuOccupancyMaxActiveBlocksPerMultiprocessor: " + err_name(r)
                # Launch even when the occupancy is 0, so the refused launch is in the trace.
                if why is None:
                    out = ctypes.c_uint64(d_out.value)
                    inp = ctypes.c_uint64(d_in.value)
                    n = ctypes.c_int(dyn // 4 if "dyn" in k else (4 if "heavy" in k else 3))
                    params = (ctypes.c_void_p * 3)(ctypes.cast(ctypes.byref(out), ctypes.c_void_p),
                                                   ctypes.cast(ctypes.byref(inp), ctypes.c_void_p),
                                                   ctypes.cast(ctypes.byref(n), ctypes.c_void_p))
                    r = cuda.cuLaunchKernel(f, grid, 1, 1, b, 1, 1, dyn, None, params, None)
                    if r != 0:
                        why = "cuLaunchKernel: " + err_name(r)
                    else:
                        ck(cuda.cuCtxSynchronize(), "cuCtxSynchronize after %s" % k)
                if why is not None:
                    skipped.append((k, b, dyn, occ.value, why))
                    print("skip %s block %d dyn %d (occupancy %d): %s" % (k, b, dyn, occ.value, why),
                          file=sys.stderr)
                    continue
                rows.append((k, b, dyn, regs, static, occ.value))

    with open(csv_path, "w") as fh:
        fh.write("kernel,block_x,dynamic_shared,registers,static_shared,max_active_blocks_per_sm\n")
        for row in rows:
            fh.write(",".join(str(x) for x in row) + "\n")
    for row in rows:
        print("  %-18s block %4d dyn %6d regs %3d static %6d -> %2d blocks/SM" % row)
    print("%d configurations launched, %d skipped, grid %d, %.2f s" % (
        len(rows), len(skipped), grid, time.time() - t0))
    ck(cuda.cuDevicePrimaryCtxRelease(dev), "cuDevicePrimaryCtxRelease")


if __name__ == "__main__":
    main()
