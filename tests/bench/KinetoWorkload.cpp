#include "tests/bench/KinetoWorkload.h"

#include <algorithm>

namespace lanescope::bench {
namespace {

constexpr int kBlocks = 12;          // transformer blocks of the model
constexpr int kBlocksPerBucket = 4;  // DDP all-reduces the gradients of this many blocks at once
constexpr int64_t kUs = 1000;        // ns per us

const KernelShape kLayerNorm{
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, "
    "float const*, float const*, float*, float*, float*)",
    {8192, 1, 1},
    {128, 1, 1},
    32,
    0,
    24 * kUs};
const KernelShape kGemm{
    "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_"
    "cublas",
    {32, 16, 1},
    {384, 1, 1},
    168,
    213248,
    180 * kUs};
const KernelShape kFlash{
    "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::bfloat16_t, "
    "Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, true, false, false, false, true, false, "
    "false>(pytorch_flash::Flash_fwd_params)",
    {16, 32, 8},
    {128, 1, 1},
    255,
    49152,
    240 * kUs};
const KernelShape kGelu{
    "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, "
    "std::array<char*, 2ul> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, "
    "std::array<char*, 2ul>)",
    {65536, 1, 1},
    {128, 1, 1},
    22,
    0,
    30 * kUs};
const KernelShape kAdd{
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> "
    ">(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)",
    {16384, 1, 1},
    {128, 1, 1},
    26,
    0,
    12 * kUs};
const KernelShape kGemmDgrad{
    "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_"
    "cublas",
    {32, 16, 1},
    {384, 1, 1},
    168,
    213248,
    190 * kUs};
const KernelShape kGemmWgrad{
    "sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x256x32_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_"
    "cublas",
    {16, 16, 1},
    {384, 1, 1},
    168,
    213248,
    200 * kUs};
const KernelShape kFlashBwd{
    "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<64, 128, 128, 8, 2, 4, "
    "2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<64, 128, 128, 8, cutlass::bfloat16_t> >, false, false, "
    "false, false, false, false>(pytorch_flash::Flash_bwd_params)",
    {8, 32, 8},
    {256, 1, 1},
    255,
    98304,
    520 * kUs};
const KernelShape kReduce{
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
    "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
    "unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
    "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
    "unsigned int, float, 4, 4>)",
    {512, 1, 1},
    {32, 16, 1},
    40,
    16,
    18 * kUs};
const KernelShape kAdam{
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, "
    "(at::native::ADAM_MODE)1, false>, float*, double, double, double, double, double, double, bool, float*, "
    "float*>(at::native::(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous "
    "namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, double, double, double, "
    "double, double, double, bool, float*, float*)",
    {1320, 1, 1},
    {512, 1, 1},
    96,
    0,
    140 * kUs};
const KernelShape kNcclAllReduce{"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                                 {4, 1, 1},
                                 {640, 1, 1},
                                 96,
                                 103808,
                                 1400 * kUs};

const OpShape kLinear{
    "aten::linear",
    R"("Concrete Inputs": ["", "", ""], "Input type": ["float", "float", "float"], "Input Strides": [[524288, 1024, 1], [1024, 1], [1]], "Input Dims": [[8, 512, 1024], [1024, 1024], [1024]])"};
const OpShape kAddmm{
    "aten::addmm",
    R"("Concrete Inputs": ["", "", "", "1", "1"], "Input type": ["float", "float", "float", "Scalar", "Scalar"], "Input Strides": [[1], [1024, 1], [1, 1024], [], []], "Input Dims": [[1024], [4096, 1024], [1024, 1024], [], []])"};
const OpShape kLayerNormOp{
    "aten::layer_norm",
    R"("Concrete Inputs": ["", "[1024]", "", "", "1e-05", "True"], "Input type": ["float", "ScalarList", "float", "float", "Scalar", "Scalar"], "Input Strides": [[524288, 1024, 1], [], [1], [1], [], []], "Input Dims": [[8, 512, 1024], [], [1024], [1024], [], []])"};
const OpShape kNativeLayerNorm{
    "aten::native_layer_norm",
    R"("Concrete Inputs": ["", "[1024]", "", "", "1e-05"], "Input type": ["float", "ScalarList", "float", "float", "Scalar"], "Input Strides": [[524288, 1024, 1], [], [1], [1], []], "Input Dims": [[8, 512, 1024], [], [1024], [1024], []])"};
const OpShape kSdpa{
    "aten::scaled_dot_product_attention",
    R"("Concrete Inputs": ["", "", "", "", "0.", "True", "", "False"], "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "Scalar", "Scalar", "", "Scalar"], "Input Strides": [[524288, 64, 1024, 1], [524288, 64, 1024, 1], [524288, 64, 1024, 1], [], [], [], [], []], "Input Dims": [[8, 16, 512, 64], [8, 16, 512, 64], [8, 16, 512, 64], [], [], [], [], []])"};
const OpShape kFlashOp{
    "aten::_scaled_dot_product_flash_attention",
    R"("Concrete Inputs": ["", "", "", "0.", "True", "False", ""], "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar", "Scalar", ""], "Input Strides": [[524288, 64, 1024, 1], [524288, 64, 1024, 1], [524288, 64, 1024, 1], [], [], [], []], "Input Dims": [[8, 16, 512, 64], [8, 16, 512, 64], [8, 16, 512, 64], [], [], [], []])"};
const OpShape kGeluOp{
    "aten::gelu",
    R"("Concrete Inputs": ["", "none"], "Input type": ["float", "c10::string_view"], "Input Strides": [[2097152, 4096, 1], []], "Input Dims": [[8, 512, 4096], []])"};
const OpShape kAddOp{
    "aten::add",
    R"("Concrete Inputs": ["", "", "1"], "Input type": ["float", "float", "Scalar"], "Input Strides": [[524288, 1024, 1], [524288, 1024, 1], []], "Input Dims": [[8, 512, 1024], [8, 512, 1024], []])"};
const OpShape kTo{
    "aten::to",
    R"("Concrete Inputs": ["", "", "", "", "", "True", "False", ""], "Input type": ["long int", "", "", "", "", "Scalar", "Scalar", ""], "Input Strides": [[512, 1], [], [], [], [], [], [], []], "Input Dims": [[8, 512], [], [], [], [], [], [], []])"};
const OpShape kCopy{
    "aten::copy_",
    R"("Concrete Inputs": ["", "", "True"], "Input type": ["long int", "long int", "Scalar"], "Input Strides": [[512, 1], [512, 1], []], "Input Dims": [[8, 512], [8, 512], []])"};
const OpShape kMm{
    "aten::mm",
    R"("Concrete Inputs": ["", ""], "Input type": ["float", "float"], "Input Strides": [[1024, 1], [1, 1024]], "Input Dims": [[4096, 1024], [1024, 1024]])"};
const OpShape kSum{
    "aten::sum",
    R"("Concrete Inputs": ["", "[0]", "True", ""], "Input type": ["float", "ScalarList", "Scalar", ""], "Input Strides": [[1024, 1], [], [], []], "Input Dims": [[4096, 1024], [], [], []])"};
const OpShape kFused{
    "aten::_fused_adam_",
    R"("Concrete Inputs": ["", "", "", "", "", "", "0.0001", "0.9", "0.999", "0.01", "1e-08", "False", "False", "", ""], "Input type": ["TensorList", "TensorList", "TensorList", "TensorList", "TensorList", "TensorList", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "", ""], "Input Strides": [[], [], [], [], [], [], [], [], [], [], [], [], [], [], []], "Input Dims": [[], [], [], [], [], [], [], [], [], [], [], [], [], [], []])"};
const OpShape kZero{
    "aten::zero_",
    R"("Concrete Inputs": [""], "Input type": ["float"], "Input Strides": [[1024, 1]], "Input Dims": [[1024, 1024]])"};
const OpShape kRecordComms{
    "record_param_comms",
    R"("Concrete Inputs": ["", "", "", "0", "0", "allreduce", "[]", "[]", "0", "1", "2", "0"], "Input type": ["TensorList", "", "", "Int", "Int", "", "", "", "Int", "Int", "Int", "Int"], "Input Strides": [[], [], [], [], [], [], [], [], [], [], [], []], "Input Dims": [[], [], [], [], [], [], [], [], [], [], [], []])"};
const OpShape kEmpty{"", R"("Concrete Inputs": [], "Input type": [], "Input Strides": [], "Input Dims": [])"};

// The forward ops of one block, each an outer op, the op inside it that launches, and its kernel.
struct ForwardOp {
    const OpShape &outer, &inner;
    const KernelShape& kernel;
    const char* module;  // the python_function around it
};
const ForwardOp kForward[] = {
    {kLayerNormOp, kNativeLayerNorm, kLayerNorm, "torch/nn/functional.py(2910): layer_norm"},
    {kLinear, kAddmm, kGemm, "torch/nn/modules/linear.py(125): forward"},
    {kSdpa, kFlashOp, kFlash, "model.py(61): attention"},
    {kLinear, kAddmm, kGemm, "torch/nn/modules/linear.py(125): forward"},
    {kAddOp, kAddOp, kAdd, "model.py(88): forward"},
    {kLayerNormOp, kNativeLayerNorm, kLayerNorm, "torch/nn/functional.py(2910): layer_norm"},
    {kLinear, kAddmm, kGemm, "torch/nn/modules/linear.py(125): forward"},
    {kGeluOp, kGeluOp, kGelu, "torch/nn/modules/activation.py(734): forward"},
    {kLinear, kAddmm, kGemm, "torch/nn/modules/linear.py(125): forward"},
};
constexpr size_t kForwardOps = std::size(kForward);

// The backward op of each forward op: its autograd function and the two kernels it launches.
struct BackwardOp {
    const char *evaluate, *function;
    const KernelShape &first, &second;
};
const BackwardOp kBackward[] = {
    {"autograd::engine::evaluate_function: NativeLayerNormBackward0", "NativeLayerNormBackward0", kReduce, kLayerNorm},
    {"autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0", kGemmDgrad, kGemmWgrad},
    {"autograd::engine::evaluate_function: ScaledDotProductFlashAttentionBackward0",
     "ScaledDotProductFlashAttentionBackward0", kFlashBwd, kAdd},
    {"autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0", kGemmDgrad, kGemmWgrad},
    {"autograd::engine::evaluate_function: AddBackward0", "AddBackward0", kAdd, kReduce},
    {"autograd::engine::evaluate_function: NativeLayerNormBackward0", "NativeLayerNormBackward0", kReduce, kLayerNorm},
    {"autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0", kGemmDgrad, kGemmWgrad},
    {"autograd::engine::evaluate_function: GeluBackward0", "GeluBackward0", kGelu, kAdd},
    {"autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0", kGemmDgrad, kGemmWgrad},
};
static_assert(std::size(kBackward) == kForwardOps);

}  // namespace

KinetoWorkload::KinetoWorkload(uint64_t seed) : rng_(seed), cpu_(4459284000000ll * kUs) {
    computeFree_ = ncclFree_ = cpu_;
}

size_t KinetoWorkload::open(TraceKind kind, std::string_view name, int64_t tid, int64_t start, const OpShape* op) {
    TraceEvent e{kind};
    e.tid = tid;
    e.start_ns = start;
    e.name = name;
    e.op = op;
    if (kind == TraceKind::Python)
        e.value = python_++;
    else
        e.external = external_++;
    events_.push_back(e);
    return events_.size() - 1;
}

void KinetoWorkload::flow(TraceKind kind, int64_t tid, int64_t at, uint64_t id) {
    TraceEvent e{kind};
    e.tid = tid;
    e.start_ns = at;
    e.id = id;
    events_.push_back(e);
}

void KinetoWorkload::close(size_t index, int64_t end) { events_[index].dur_ns = end - events_[index].start_ns; }

int64_t KinetoWorkload::api(TraceKind kind, std::string_view name, int64_t tid, int64_t& cpu) {
    const uint64_t correlation = correlation_++;
    TraceEvent call{kind};
    call.tid = tid;
    call.start_ns = cpu;
    call.dur_ns = rng_.between(4 * kUs, 9 * kUs);
    call.id = correlation;
    call.name = name;
    events_.push_back(call);
    flow(TraceKind::LaunchFlow, tid, cpu, correlation);
    const int64_t launched = cpu;
    cpu += call.dur_ns;
    return launched;
}

// GPU work of the last API call: on `stream` once it is free and the launch has reached the GPU.
void KinetoWorkload::launch(const KernelShape& kernel, int64_t tid, int64_t& cpu, uint64_t external, int64_t stream) {
    const bool nccl = stream == kNcclStream;
    const int64_t launched =
        api(nccl ? TraceKind::Driver : TraceKind::Runtime, nccl ? "cuLaunchKernelEx" : "cudaLaunchKernel", tid, cpu);
    int64_t& free = nccl ? ncclFree_ : computeFree_;
    TraceEvent k{TraceKind::Kernel};
    k.tid = stream;
    k.start_ns = std::max(free, launched + rng_.between(3 * kUs, 6 * kUs));
    k.dur_ns = kernel.dur_ns * rng_.between(90, 110) / 100 + rng_.between(0, 999);
    k.id = correlation_ - 1;
    k.external = external;
    k.name = kernel.name;
    k.kernel = &kernel;
    free = k.start_ns + k.dur_ns;
    events_.push_back(k);
    flow(TraceKind::KernelFlow, stream, k.start_ns, k.id);
}

void KinetoWorkload::copy(int64_t tid, int64_t& cpu, uint64_t external, int64_t bytes) {
    const int64_t launched = api(TraceKind::Runtime, "cudaMemcpyAsync", tid, cpu);
    TraceEvent m{TraceKind::Memcpy};
    m.tid = kComputeStream;
    m.start_ns = std::max(computeFree_, launched + 5 * kUs);
    m.dur_ns = bytes / 24 + rng_.between(1500, 2500);  // about 24 GB/s
    m.id = correlation_ - 1;
    m.external = external;
    m.value = bytes;
    m.name = "Memcpy HtoD (Pinned -> Device)";
    computeFree_ = m.start_ns + m.dur_ns;
    events_.push_back(m);
    flow(TraceKind::KernelFlow, kComputeStream, m.start_ns, m.id);
}

void KinetoWorkload::memset(int64_t tid, int64_t& cpu, uint64_t external, int64_t bytes) {
    const int64_t launched = api(TraceKind::Runtime, "cudaMemsetAsync", tid, cpu);
    TraceEvent m{TraceKind::Memset};
    m.tid = kComputeStream;
    m.start_ns = std::max(computeFree_, launched + 4 * kUs);
    m.dur_ns = bytes / 400 + rng_.between(700, 1200);
    m.id = correlation_ - 1;
    m.external = external;
    m.value = bytes;
    m.name = "Memset (Device)";
    computeFree_ = m.start_ns + m.dur_ns;
    events_.push_back(m);
    flow(TraceKind::KernelFlow, kComputeStream, m.start_ns, m.id);
}

void KinetoWorkload::forwardOp(size_t index, int64_t& cpu) {
    const OpShape &outer = kForward[index].outer, &inner = kForward[index].inner;
    const size_t a = open(TraceKind::CpuOp, outer.name, kMainTid, cpu, &outer);
    flow(TraceKind::ForwardFlow, kMainTid, cpu, flow_++);
    cpu += rng_.between(2 * kUs, 5 * kUs);
    size_t b = a;
    if (&inner != &outer) {
        b = open(TraceKind::CpuOp, inner.name, kMainTid, cpu, &inner);
        cpu += rng_.between(2 * kUs, 4 * kUs);
    }
    launch(kForward[index].kernel, kMainTid, cpu, events_[b].external);
    cpu += rng_.between(1 * kUs, 3 * kUs);
    if (b != a) close(b, cpu);
    cpu += rng_.between(1 * kUs, 2 * kUs);
    close(a, cpu);
}

void KinetoWorkload::backwardOp(size_t index, uint64_t flowId, int64_t& cpu) {
    const BackwardOp* op = &kBackward[index];
    const size_t evaluate = open(TraceKind::CpuOp, op->evaluate, kAutogradTid, cpu, &kEmpty);
    cpu += rng_.between(3 * kUs, 6 * kUs);
    const size_t fn = open(TraceKind::CpuOp, op->function, kAutogradTid, cpu, &kEmpty);
    flow(TraceKind::BackwardFlow, kAutogradTid, cpu, flowId);
    cpu += rng_.between(2 * kUs, 4 * kUs);
    for (const KernelShape* kernel : {&op->first, &op->second}) {
        const OpShape& inner = kernel == &kReduce ? kSum : kMm;
        const size_t m = open(TraceKind::CpuOp, inner.name, kAutogradTid, cpu, &inner);
        cpu += rng_.between(2 * kUs, 4 * kUs);
        launch(*kernel, kAutogradTid, cpu, events_[m].external);
        cpu += rng_.between(1 * kUs, 3 * kUs);
        close(m, cpu);
    }
    close(fn, cpu);
    cpu += rng_.between(2 * kUs, 4 * kUs);
    close(evaluate, cpu);
}

void KinetoWorkload::allReduce(int64_t& cpu, int bucket) {
    const size_t annotation = open(TraceKind::Annotation, "nccl:all_reduce", kAutogradTid, cpu);
    cpu += rng_.between(3 * kUs, 6 * kUs);
    const size_t comms = open(TraceKind::CpuOp, kRecordComms.name, kAutogradTid, cpu, &kRecordComms);
    cpu += rng_.between(5 * kUs, 10 * kUs);
    if (bucket == 0) memset(kAutogradTid, cpu, events_[comms].external, 4 << 20);
    launch(kNcclAllReduce, kAutogradTid, cpu, events_[comms].external, kNcclStream);
    cpu += rng_.between(3 * kUs, 6 * kUs);
    close(comms, cpu);
    close(annotation, cpu);
}

const std::vector<TraceEvent>& KinetoWorkload::nextStep() {
    events_.clear();
    names_.clear();
    names_.reserve(kBlocks + 1);
    const std::string_view stepName = names_.emplace_back("ProfilerStep#" + std::to_string(step_++));
    const int64_t gpuBegin = std::max(computeFree_, cpu_);
    const size_t step = open(TraceKind::Annotation, stepName, kMainTid, cpu_);
    cpu_ += rng_.between(10 * kUs, 20 * kUs);

    // The next batch from the data loader, copied to the GPU.
    const size_t loader =
        open(TraceKind::Annotation, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", kMainTid, cpu_);
    cpu_ += rng_.between(200 * kUs, 900 * kUs);
    close(loader, cpu_);
    const size_t to = open(TraceKind::CpuOp, kTo.name, kMainTid, cpu_, &kTo);
    cpu_ += rng_.between(3 * kUs, 5 * kUs);
    const size_t copyOp = open(TraceKind::CpuOp, kCopy.name, kMainTid, cpu_, &kCopy);
    cpu_ += rng_.between(2 * kUs, 4 * kUs);
    copy(kMainTid, cpu_, events_[copyOp].external, 8 * 512 * 8);
    close(copyOp, cpu_);
    close(to, cpu_ += 2 * kUs);
    TraceEvent memory{TraceKind::MemoryInstant};
    memory.tid = kMainTid;
    memory.start_ns = cpu_;
    memory.value = 8 * 512 * 8;
    events_.push_back(memory);

    // Forward on the main thread, inside the Python stack of the training loop.
    std::vector<uint64_t> flows;
    const size_t train = open(TraceKind::Python, "train.py(88): train_step", kMainTid, cpu_);
    for (int b = 0; b < kBlocks; ++b) {
        cpu_ += rng_.between(3 * kUs, 8 * kUs);
        const size_t call = open(TraceKind::Python, "torch/nn/modules/module.py(1747): _call_impl", kMainTid, cpu_);
        cpu_ += rng_.between(1 * kUs, 3 * kUs);
        const size_t module =
            open(TraceKind::Python, names_.emplace_back("nn.Module: Block_" + std::to_string(b)), kMainTid, cpu_);
        for (size_t i = 0; i < kForwardOps; ++i) {
            cpu_ += rng_.between(2 * kUs, 6 * kUs);
            const size_t fn = open(TraceKind::Python, kForward[i].module, kMainTid, cpu_);
            cpu_ += rng_.between(1 * kUs, 3 * kUs);
            flows.push_back(flow_);
            forwardOp(i, cpu_);
            close(fn, cpu_ += rng_.between(1 * kUs, 2 * kUs));
        }
        close(module, cpu_ += rng_.between(1 * kUs, 3 * kUs));
        close(call, cpu_ += rng_.between(1 * kUs, 2 * kUs));
    }
    close(train, cpu_ += rng_.between(5 * kUs, 10 * kUs));

    // Backward on the autograd thread, gradient buckets all-reduced as they are ready.
    int64_t autograd = cpu_ + rng_.between(20 * kUs, 40 * kUs);
    for (int b = kBlocks - 1; b >= 0; --b) {
        for (size_t i = kForwardOps; i-- > 0;) {
            backwardOp(i, flows[static_cast<size_t>(b) * kForwardOps + i], autograd);
            autograd += rng_.between(2 * kUs, 8 * kUs);
        }
        if (b % kBlocksPerBucket == 0) allReduce(autograd, b / kBlocksPerBucket);
    }
    cpu_ = std::max(cpu_, autograd) + rng_.between(10 * kUs, 30 * kUs);

    // The optimizer on the main thread, after zeroing the gradients.
    const size_t zero = open(TraceKind::Annotation, "Optimizer.zero_grad#AdamW.zero_grad", kMainTid, cpu_);
    cpu_ += rng_.between(5 * kUs, 10 * kUs);
    const size_t zeroOp = open(TraceKind::CpuOp, kZero.name, kMainTid, cpu_, &kZero);
    memset(kMainTid, cpu_, events_[zeroOp].external, 1 << 22);
    close(zeroOp, cpu_ += 2 * kUs);
    close(zero, cpu_ += 3 * kUs);
    const size_t optimizer = open(TraceKind::Annotation, "Optimizer.step#AdamW.step", kMainTid, cpu_);
    cpu_ += rng_.between(10 * kUs, 20 * kUs);
    for (int i = 0; i < 2; ++i) {
        const size_t fused = open(TraceKind::CpuOp, kFused.name, kMainTid, cpu_, &kFused);
        cpu_ += rng_.between(20 * kUs, 40 * kUs);
        for (int k = 0; k < 4; ++k) launch(kAdam, kMainTid, cpu_, events_[fused].external);
        close(fused, cpu_ += 5 * kUs);
    }
    close(optimizer, cpu_ += rng_.between(5 * kUs, 10 * kUs));
    close(step, cpu_);

    TraceEvent annotation{TraceKind::GpuAnnotation};
    annotation.tid = kComputeStream;
    annotation.start_ns = gpuBegin;
    annotation.dur_ns = std::max(computeFree_, ncclFree_) - gpuBegin;
    annotation.external = events_[step].external;
    annotation.name = stepName;
    events_.push_back(annotation);
    allocated_ += rng_.between(-(64 << 20), 64 << 20);
    TraceEvent counter{TraceKind::Counter};
    counter.start_ns = cpu_;
    counter.value = allocated_;
    events_.push_back(counter);
    cpu_ += rng_.between(30 * kUs, 80 * kUs);
    return events_;
}

}  // namespace lanescope::bench
