#include "tests/support/SyntheticWorkload.h"

#include <algorithm>

namespace lanescope::bench {
namespace {

// Kernels of a small transformer, with names and launch attributes copied from a real
// PyTorch DDP capture (corpus/nsys-2025.3/ddp_rank0.sqlite). Durations in ns.
const KernelType kLayerNorm{
    "void at::native::<unnamed>::vectorized_layer_norm_kernel<float, float, (bool)0>(int, T2, "
    "const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
    "vectorized_layer_norm_kernel",
    "_ZN2at6native53_GLOBAL__N__21739cd4_20_layer_norm_kernel_cu_9c5ada8a28vectorized_layer_"
    "norm_kernelIffLb0EEEviT0_PKT_S6_S6_PS3_S7_PS4_",
    {{16384, 1, 1}, {32, 4, 1}, 39, 0, 24, 250871808, 1, 32768},
    {6000, 18000}};
const KernelType kGemm{
    "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas",
    "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas",
    "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas",
    {{128, 6, 1}, {128, 1, 1}, 255, 0, 33792, 285474816, 4, 135168},
    {40000, 260000}};
const KernelType kSoftmax{
    "void <unnamed>::softmax_warp_forward<float, float, float, (int)4, (bool)1, (bool)0>(T2 *, "
    "const T1 *, int, int, int, const bool *, int, bool)",
    "softmax_warp_forward",
    "_ZN43_GLOBAL__N__b6de9c8c_10_SoftMax_cu_9f978f6320softmax_warp_forwardIfffLi4ELb1ELb0EEEvPT0_"
    "PKT_iiiPKbib",
    {{4, 1, 1}, {16, 8, 1}, 21, 0, 0, 250871808, 1, 32768},
    {10000, 45000}};
const KernelType kAdd{
    "void at::native::elementwise_kernel<(int)128, (int)2, void "
    "at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<float>>(at::"
    "TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
    "elementwise_kernel",
    "_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastINS0_15CUDAFunctor_"
    "addIfEEEEvRNS_18TensorIteratorBaseERKT_EUliE_EEviT1_",
    {{65536, 1, 1}, {128, 1, 1}, 18, 0, 0, 250871808, 1, 32768},
    {5000, 30000}};
const KernelType kRelu{
    "void at::native::elementwise_kernel<(int)128, (int)2, void "
    "at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, void "
    "at::native::<unnamed>::threshold_kernel_impl<float>(at::TensorIteratorBase &, T1, T1)::"
    "[lambda(float, float) (instance 1)]>>(at::TensorIteratorBase &, const T1 &)::[lambda(int) "
    "(instance 1)]>(int, T3)",
    "elementwise_kernel",
    "_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastINS0_"
    "13BinaryFunctorIfffZNS0_67_GLOBAL__N__06c19b41_28_ActivationThresholdKernel_cu_751192d7_"
    "1581121threshold_kernel_implIfEEvRNS_18TensorIteratorBaseET_S8_EUlffE_EEEEvS7_RKS8_EUliE_"
    "EEviT1_",
    {{16384, 1, 1}, {128, 1, 1}, 18, 0, 0, 250871808, 1, 32768},
    {8000, 35000}};
const KernelType kGemmDgrad{
    "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize256x64x8_stage3_warpsize2x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas",
    "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize256x64x8_stage3_warpsize2x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas",
    "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize256x64x8_stage3_warpsize2x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas",
    {{64, 16, 1}, {128, 1, 1}, 255, 0, 31488, 259522560, 4, 135168},
    {40000, 240000}};
const KernelType kGemmWgrad{
    "sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas",
    "sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas",
    "sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas",
    {{1, 8, 1}, {64, 1, 1}, 90, 0, 6144, 250871808, 4, 135168},
    {50000, 300000}};
const KernelType kBiasGrad{
    "void at::native::reduce_kernel<(int)128, (int)4, at::native::ReduceOp<float, "
    "at::native::MeanOps<float, float, float, float>, unsigned int, float, (int)4, (int)4>>(T3)",
    "reduce_kernel",
    "_ZN2at6native13reduce_kernelILi128ELi4ENS0_8ReduceOpIfNS0_7MeanOpsIffffEEjfLi4ELi4EEEEEvT1_",
    {{128, 1, 1}, {32, 4, 1}, 54, 16, 2048, 250871808, 1, 65536},
    {10000, 30000}};
const KernelType kSoftmaxGrad{
    "void <unnamed>::softmax_warp_backward<float, float, float, (int)4, (bool)1, (bool)0>(T2 *, "
    "const T1 *, const T1 *, int, int, int, const bool *)",
    "softmax_warp_backward",
    "_ZN43_GLOBAL__N__b6de9c8c_10_SoftMax_cu_9f978f6321softmax_warp_backwardIfffLi4ELb1ELb0EEEvPT0_"
    "PKT_S5_iiiPKb",
    {{4, 1, 1}, {16, 8, 1}, 24, 0, 0, 250871808, 1, 32768},
    {10000, 40000}};
const KernelType kLayerNormGrad{
    "void at::native::<unnamed>::layer_norm_grad_input_kernel_vectorized<float, float, "
    "(bool)0>(const T1 *, const T1 *, const T2 *, const T2 *, const T1 *, T1 *, int)",
    "layer_norm_grad_input_kernel_vectorized",
    "_ZN2at6native53_GLOBAL__N__21739cd4_20_layer_norm_kernel_cu_9c5ada8a39layer_norm_grad_input_"
    "kernel_vectorizedIffLb0EEEvPKT_S5_PKT0_S8_S5_PS3_i",
    {{16384, 1, 1}, {128, 1, 1}, 32, 0, 16, 250871808, 1, 32768},
    {8000, 25000}};
const KernelType kAllReduce{"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)",
                            "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                            "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE",
                            {{24, 1, 1}, {544, 1, 1}, 96, 21568, 82240, 722337792, 4, 135168},
                            {150000, 900000}};
const KernelType kAdamLerp{
    "void at::native::<unnamed>::multi_tensor_apply_kernel<at::native::<unnamed>::"
    "TensorListMetadata<(int)2>, at::native::<unnamed>::TernaryOpScalarFunctor<float, (int)2, "
    "(int)2, (int)0>, at::native::LerpFunctor<float>, float>(T1, T2, T3...)",
    "multi_tensor_apply_kernel",
    "_ZN2at6native52_GLOBAL__N__4671fab5_19_ForeachTernaryOp_cu_5285c63625multi_tensor_apply_"
    "kernelINS1_18TensorListMetadataILi2EEENS1_22TernaryOpScalarFunctorIfLi2ELi2ELi0EEEJNS0_"
    "11LerpFunctorIfEEfEEEvT_T0_DpT1_",
    {{35, 1, 1}, {512, 1, 1}, 32, 0, 0, 250871808, 1, 16384},
    {30000, 120000}};
const KernelType kAdamSqrt{
    "void at::native::<unnamed>::multi_tensor_apply_kernel<at::native::<unnamed>::"
    "TensorListMetadata<(int)2>, at::native::<unnamed>::UnaryOpFunctor<float, (int)2, (int)1, "
    "(int)1>, at::native::Sqrt<float>>(T1, T2, T3...)",
    "multi_tensor_apply_kernel",
    "_ZN2at6native50_GLOBAL__N__b6ca21f8_17_ForeachUnaryOp_cu_77fe623d25multi_tensor_apply_"
    "kernelINS1_18TensorListMetadataILi2EEENS1_14UnaryOpFunctorIfLi2ELi1ELi1EEEJNS0_4SqrtIfEEEEEv"
    "T_T0_DpT1_",
    {{35, 1, 1}, {512, 1, 1}, 32, 0, 0, 250871808, 1, 16384},
    {20000, 80000}};

constexpr int kBlocks = 8;                        // transformer blocks in a forward or backward pass
constexpr int kBlocksPerBucket = 2;               // DDP all-reduces the gradients of 2 blocks at a time
constexpr int64_t kFirstPid = 4100;               // rank r is pid kFirstPid + 64 * r
constexpr int64_t kCaptureWarmupNs = 30'000'000;  // the first step starts 30 ms into the capture
constexpr int64_t kComputeStream = 7, kCopyStream = 13, kNcclStream = 17;

// NVTX colors (ARGB) of the main thread's outer ranges; blocks and NCCL ranges have none.
constexpr int64_t kStepColor = 0xFF76B900, kDataColor = 0xFF1F77B4, kForwardColor = 0xFF2CA02C,
                  kBackwardColor = 0xFFD62728, kOptimizerColor = 0xFF9467BD, kAttentionColor = 0xFFFF7F0E,
                  kMlpColor = 0xFF8C564B;

// ENUM_NSYS_EVENT_CLASS, ENUM_CUDA_MEMCPY_OPER and ENUM_CUDA_MEM_KIND values.
constexpr int64_t kCudaDriver = 1;
constexpr int64_t kHostToDevice = 1, kDeviceToHost = 2;
constexpr int64_t kPageable = 0, kPinned = 1, kDevice = 2;

KernelKind kindOf(const KernelType& type, StringIdTable& strings) {
    return {&type, strings.intern(type.demangled), strings.intern(type.short_name), strings.intern(type.mangled)};
}

int64_t globalPidOf(int64_t pid) { return (int64_t{1} << 48) | (pid << 24); }

}  // namespace

WorkloadNames::WorkloadNames(StringIdTable& s)
    : launch_kernel(s.intern("cudaLaunchKernel_v7000")),
      launch_kernel_ex(s.intern("cuLaunchKernelEx")),
      memcpy_async(s.intern("cudaMemcpyAsync_v3020")),
      memset_async(s.intern("cudaMemsetAsync_v3020")),
      event_record(s.intern("cudaEventRecord_v3020")),
      stream_wait_event(s.intern("cudaStreamWaitEvent_v3020")),
      stream_synchronize(s.intern("cudaStreamSynchronize_v3020")),
      cond_wait(s.intern("pthread_cond_wait")),
      cond_timedwait(s.intern("pthread_cond_timedwait")),
      cond_signal(s.intern("pthread_cond_signal")),
      mutex_lock(s.intern("pthread_mutex_lock")),
      read(s.intern("read")),
      poll(s.intern("poll")),
      data(s.intern("data")),
      forward(s.intern("forward")),
      backward(s.intern("backward")),
      optimizer(s.intern("optimizer")),
      attention(s.intern("attention")),
      mlp(s.intern("mlp")),
      load_batch(s.intern("load batch")),
      decode(s.intern("decode")),
      collate(s.intern("collate")),
      nccl_all_reduce(s.intern("ncclAllReduce")),
      main_thread(s.intern("python3")),
      loader_thread(s.intern("pt_data_loader")),
      event_thread(s.intern("cuda-EvtHandlr")),
      watchdog_thread(s.intern("pt_nccl_watchdg")),
      layer_norm(kindOf(kLayerNorm, s)),
      gemm(kindOf(kGemm, s)),
      softmax(kindOf(kSoftmax, s)),
      add(kindOf(kAdd, s)),
      relu(kindOf(kRelu, s)),
      gemm_dgrad(kindOf(kGemmDgrad, s)),
      gemm_wgrad(kindOf(kGemmWgrad, s)),
      bias_grad(kindOf(kBiasGrad, s)),
      softmax_grad(kindOf(kSoftmaxGrad, s)),
      layer_norm_grad(kindOf(kLayerNormGrad, s)),
      all_reduce(kindOf(kAllReduce, s)),
      adam_lerp(kindOf(kAdamLerp, s)),
      adam_sqrt(kindOf(kAdamSqrt, s)) {
    for (int b = 0; b < kBlocks; ++b) blocks.push_back(s.intern("block " + std::to_string(b)));
}

RankModel::RankModel(const WorkloadNames& names, int rank, uint64_t seed)
    : names_(&names),
      rng_(seed),
      pid_(kFirstPid + 64 * rank),
      global_pid_(globalPidOf(pid_)),
      device_(rank),
      main_{global_pid_ | pid_, kCaptureWarmupNs, {}},
      loader_{global_pid_ | (pid_ + 11), kCaptureWarmupNs, {}},
      events_{global_pid_ | (pid_ + 12), kCaptureWarmupNs, {}},
      watchdog_{global_pid_ | (pid_ + 13), kCaptureWarmupNs, {}},
      compute_{kComputeStream, 0},
      copy_{kCopyStream, 0},
      nccl_{kNcclStream, 0} {}

SyntheticProcess RankModel::process() const { return {pid_, global_pid_, main_.global_tid, device_}; }

std::vector<SyntheticThread> RankModel::threads() const {
    const WorkloadNames& n = *names_;
    return {{main_.global_tid, n.main_thread, 20},
            {loader_.global_tid, n.loader_thread, 20},
            {events_.global_tid, n.event_thread, 20},
            {watchdog_.global_tid, n.watchdog_thread, 20}};
}

// An NVTX push and pop each cost the thread a fraction of a microsecond.
void RankModel::push(CpuThread& thread, NvtxRow range) {
    range.start = thread.now;
    range.global_tid = thread.global_tid;
    thread.now += rng_.between(200, 600);
    thread.open.push_back(std::move(range));
}

void RankModel::pop(CpuThread& thread, RowBatch& out) {
    thread.now += rng_.between(200, 600);
    NvtxRow range = std::move(thread.open.back());
    thread.open.pop_back();
    range.end = thread.now;
    out.nvtx.push_back(std::move(range));
}

// A CUDA API call on the main thread lasting [minNs, maxNs] but not ending before notBefore,
// followed by a few microseconds of Python between calls.
ApiRow RankModel::call(int64_t nameId, int64_t minNs, int64_t maxNs, RowBatch& out, int64_t notBefore,
                       int64_t eventClass) {
    const int64_t start = main_.now;
    const int64_t end = std::max(start + rng_.between(minNs, maxNs), notBefore);
    const ApiRow row{start, end, eventClass, main_.global_tid, next_correlation_++, nameId};
    out.api.push_back(row);
    main_.now = end + rng_.between(1000, 12000);
    return row;
}

// GPU work runs once its launch reached the GPU and the stream's earlier work is done; returns
// its start and makes the stream busy until start + durationNs.
int64_t RankModel::schedule(const ApiRow& call, Stream& stream, int64_t durationNs) {
    const int64_t start = std::max(call.start + rng_.between(2000, 6000), stream.free_at + rng_.between(500, 2500));
    stream.free_at = start + durationNs;
    return start;
}

void RankModel::launch(const KernelKind& kind, Stream& stream, RowBatch& out, bool viaDriver) {
    const ApiRow c = viaDriver ? call(names_->launch_kernel_ex, 3000, 9000, out, 0, kCudaDriver)
                               : call(names_->launch_kernel, 2500, 8000, out);
    const int64_t start = schedule(c, stream, rng_.between(kind.type->duration_ns.min, kind.type->duration_ns.max));
    out.kernels.push_back(
        {start, stream.free_at, {device_, stream.id, global_pid_}, c.correlation_id, next_grid_++, &kind});
}

// Pinned copies move 25 bytes a nanosecond, pageable ones 6.
void RankModel::copy(int64_t bytes, int64_t copyKind, int64_t srcKind, int64_t dstKind, Stream& stream, RowBatch& out) {
    const ApiRow c = call(names_->memcpy_async, 3000, 9000, out);
    const int64_t bytesPerNs = srcKind == kPageable || dstKind == kPageable ? 6 : 25;
    const int64_t start = schedule(c, stream, 1200 + bytes / bytesPerNs + rng_.between(0, 500));
    out.memcpys.push_back({start,
                           stream.free_at,
                           {device_, stream.id, global_pid_},
                           c.correlation_id,
                           bytes,
                           copyKind,
                           srcKind,
                           dstKind});
}

// Device memory is set at 2,000 bytes a nanosecond.
void RankModel::memset(int64_t bytes, Stream& stream, RowBatch& out) {
    const ApiRow c = call(names_->memset_async, 2500, 7000, out);
    const int64_t start = schedule(c, stream, 1000 + bytes / 2000 + rng_.between(0, 500));
    out.memsets.push_back({start, stream.free_at, {device_, stream.id, global_pid_}, c.correlation_id, bytes, 0});
}

// cudaEventRecord on `on`, then cudaStreamWaitEvent: `waiter`'s next work follows `on`'s.
void RankModel::waitFor(Stream& waiter, const Stream& on, RowBatch& out) {
    call(names_->event_record, 1500, 4000, out);
    call(names_->stream_wait_event, 1000, 3000, out);
    waiter.free_at = std::max(waiter.free_at, on.free_at);
}

void RankModel::synchronize(const Stream& stream, RowBatch& out) {
    call(names_->stream_synchronize, 1500, 3000, out, stream.free_at + rng_.between(1500, 5000));
}

void RankModel::osrt(CpuThread& thread, int64_t nameId, int64_t durationNs, RowBatch& out) {
    out.osrt.push_back({thread.now, thread.now + durationNs, thread.global_tid, nameId});
    thread.now += durationNs + rng_.between(500, 5000);
}

void RankModel::step(int64_t index, int64_t start, RowBatch& out) {
    const WorkloadNames& n = *names_;
    main_.now = std::max(main_.now, start);
    push(main_, {.text = "step " + std::to_string(index), .color = kStepColor});

    range(n.data, kDataColor);
    copy(3 << 20, kHostToDevice, kPinned, kDevice, copy_, out);  // the input batch
    copy(4096, kHostToDevice, kPinned, kDevice, copy_, out);     // its labels
    waitFor(compute_, copy_, out);
    pop(main_, out);

    forward(out);
    backward(out);

    range(n.optimizer, kOptimizerColor);
    waitFor(compute_, nccl_, out);
    launch(n.adam_lerp, compute_, out);
    launch(n.adam_sqrt, compute_, out);
    memset(32 << 20, compute_, out);  // zero the gradients
    pop(main_, out);

    copy(4, kDeviceToHost, kDevice, kPageable, compute_, out);  // loss.item()
    synchronize(compute_, out);
    pop(main_, out);

    loadBatch(start, out);
    helperThreads(start, out);
}

void RankModel::forward(RowBatch& out) {
    const WorkloadNames& n = *names_;
    range(n.forward, kForwardColor);
    for (int b = 0; b < kBlocks; ++b) {
        range(n.blocks[b]);
        range(n.attention, kAttentionColor);
        for (const KernelKind* k : {&n.layer_norm, &n.gemm, &n.softmax, &n.gemm, &n.add}) launch(*k, compute_, out);
        pop(main_, out);
        range(n.mlp, kMlpColor);
        for (const KernelKind* k : {&n.gemm, &n.relu, &n.gemm, &n.add}) launch(*k, compute_, out);
        pop(main_, out);
        pop(main_, out);
    }
    pop(main_, out);
}

void RankModel::backward(RowBatch& out) {
    const WorkloadNames& n = *names_;
    range(n.backward, kBackwardColor);
    for (int b = kBlocks - 1; b >= 0; --b) {
        range(n.blocks[b]);
        for (const KernelKind* k :
             {&n.gemm_dgrad, &n.gemm_wgrad, &n.add, &n.bias_grad, &n.softmax_grad, &n.layer_norm_grad})
            launch(*k, compute_, out);
        if (b % kBlocksPerBucket == 0) allReduce(out);
        pop(main_, out);
    }
    pop(main_, out);
}

// One gradient bucket: an NCCL-domain NVTX range around the all-reduce launch on the NCCL
// stream, which waits for the gradients computed so far.
void RankModel::allReduce(RowBatch& out) {
    push(main_, {.text_id = names_->nccl_all_reduce, .domain_id = kNcclDomainId});
    waitFor(nccl_, compute_, out);
    launch(names_->all_reduce, nccl_, out, true);
    pop(main_, out);
}

// The loader thread waits for the step to ask for the next batch, then reads and collates it.
void RankModel::loadBatch(int64_t start, RowBatch& out) {
    const WorkloadNames& n = *names_;
    const int64_t request = start + rng_.between(20000, 200000);
    osrt(loader_, n.cond_wait, std::max<int64_t>(1000, request - loader_.now), out);
    push(loader_, {.text_id = n.load_batch});
    for (int i = 0; i < 2; ++i) {
        push(loader_, {.text_id = n.decode});
        osrt(loader_, n.read, rng_.between(20000, 300000), out);
        osrt(loader_, n.read, rng_.between(20000, 300000), out);
        pop(loader_, out);
    }
    push(loader_, {.text_id = n.collate});
    osrt(loader_, n.mutex_lock, rng_.between(300, 3000), out);
    pop(loader_, out);
    osrt(loader_, n.cond_signal, rng_.between(1000, 4000), out);
    pop(loader_, out);
}

// The CUDA event thread polls a few times a step; the NCCL watchdog wakes once a step.
void RankModel::helperThreads(int64_t start, RowBatch& out) {
    events_.now = std::max(events_.now, start);
    for (int i = 0; i < 4; ++i) osrt(events_, names_->poll, rng_.between(50000, 1500000), out);
    const int64_t wake = start + rng_.between(0, 100000);
    osrt(watchdog_, names_->cond_timedwait, std::max<int64_t>(1000, wake - watchdog_.now), out);
}

void RankModel::pad(uint64_t count, RowBatch& out) {
    for (uint64_t i = 0; i < count; ++i) osrt(events_, names_->poll, rng_.between(20000, 400000), out);
}

TrainingWorkload::TrainingWorkload(const WorkloadNames& names, uint64_t seed) : rng_(seed) {
    for (int r = 0; r < kRanks; ++r) ranks_.emplace_back(names, r, rng_.next());
}

// A step starts on every rank shortly after the slowest rank finished the previous one.
void TrainingWorkload::step(RowBatch& out) {
    int64_t start = 0;
    for (const RankModel& rank : ranks_) start = std::max(start, rank.busyUntil());
    start += rng_.between(20000, 80000);
    for (RankModel& rank : ranks_) rank.step(next_step_, start + rng_.between(0, 30000), out);
    ++next_step_;
}

std::vector<SyntheticProcess> TrainingWorkload::processes() const {
    std::vector<SyntheticProcess> all;
    for (const RankModel& rank : ranks_) all.push_back(rank.process());
    return all;
}

std::vector<SyntheticThread> TrainingWorkload::threads() const {
    std::vector<SyntheticThread> all;
    for (const RankModel& rank : ranks_) {
        const auto mine = rank.threads();
        all.insert(all.end(), mine.begin(), mine.end());
    }
    return all;
}

}  // namespace lanescope::bench
