#include "query/EnumTables.h"

#include <span>

#include "query/SortedFunctionTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

// One value of an nsys enum: its number, symbol name and label for people; label null when it
// is the name itself.
struct EnumRow {
    int64_t id;
    const char* name;
    const char* label;
};
// Which reports nsys's export writes a table for (it leaves the others out).
enum class Holds : uint8_t {
    Always,
    Cuda,        // reports with CUDA: a GPU or CUDA API calls
    CpuThreads,  // reports with OS runtime calls, CPU samples or thread scheduling
};
// One ENUM_ table: its rows sorted by id.
struct EnumTable {
    const char* name;
    std::span<const EnumRow> rows;
    Holds holds;
};

// The ids, names and labels below follow Nsight Systems 2025.3's SQLite export (they are the
// same in every export of the corpus), so that a join written for an export gives the same
// text here.
constexpr EnumRow kCudaDevMemEventOper[] = {{0, "CUDA_DEV_MEM_EVENT_OPR_ALLOCATION", "Allocation"},
                                            {1, "CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION", "Deallocation"}};
constexpr EnumRow kCudaFuncCacheConfig[] = {{0, "CU_FUNC_CACHE_PREFER_NONE", "None"},
                                            {1, "CU_FUNC_CACHE_PREFER_SHARED", "Shared"},
                                            {2, "CU_FUNC_CACHE_PREFER_L1", "L1"},
                                            {3, "CU_FUNC_CACHE_PREFER_EQUAL", "Equal"}};
constexpr EnumRow kCudaKernelLaunchType[] = {
    {0, "CUDA_KERNEL_LAUNCH_TYPE_UNKNOWN", "Unknown"},
    {1, "CUDA_KERNEL_LAUNCH_TYPE_REGULAR", "Regular"},
    {2, "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE", "Coop Single Device"},
    {3, "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE", "Coop Multi Device"}};
constexpr EnumRow kCudaMemcpyOper[] = {{0, "CUDA_MEMCPY_KIND_UNKNOWN", "Unknown"},
                                       {1, "CUDA_MEMCPY_KIND_HTOD", "Host-to-Device"},
                                       {2, "CUDA_MEMCPY_KIND_DTOH", "Device-to-Host"},
                                       {3, "CUDA_MEMCPY_KIND_HTOA", "Host-to-Array"},
                                       {4, "CUDA_MEMCPY_KIND_ATOH", "Array-to-Host"},
                                       {5, "CUDA_MEMCPY_KIND_ATOA", "Array-to-Array"},
                                       {6, "CUDA_MEMCPY_KIND_ATOD", "Array-to-Device"},
                                       {7, "CUDA_MEMCPY_KIND_DTOA", "Device-to-Array"},
                                       {8, "CUDA_MEMCPY_KIND_DTOD", "Device-to-Device"},
                                       {9, "CUDA_MEMCPY_KIND_HTOH", "Host-to-Host"},
                                       {10, "CUDA_MEMCPY_KIND_PTOP", "Peer-to-Peer"},
                                       {11, "CUDA_MEMCPY_KIND_UVM_HTOD", "Unified Host-to-Device"},
                                       {12, "CUDA_MEMCPY_KIND_UVM_DTOH", "Unified Device-to-Host"},
                                       {13, "CUDA_MEMCPY_KIND_UVM_DTOD", "Unified Device-to-Device"}};
constexpr EnumRow kCudaMemKind[] = {{0, "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", "Pageable"},
                                    {1, "CUDA_MEMOPR_MEMORY_KIND_PINNED", "Pinned"},
                                    {2, "CUDA_MEMOPR_MEMORY_KIND_DEVICE", "Device"},
                                    {3, "CUDA_MEMOPR_MEMORY_KIND_ARRAY", "Array"},
                                    {4, "CUDA_MEMOPR_MEMORY_KIND_MANAGED", "Managed"},
                                    {5, "CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC", "Device Static"},
                                    {6, "CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC", "Managed Static"},
                                    {7, "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN", "Unknown"}};
constexpr EnumRow kCudaSharedMemLimitConfig[] = {{0, "CUDA_SHARED_MEM_LIMIT_DEFAULT", "Default"},
                                                 {1, "CUDA_SHARED_MEM_LIMIT_OPTIN", "Opt in"}};
constexpr EnumRow kCudaUnifMemAccessType[] = {{0, "CUDA_UNIFIED_MEMORY_ACCESS_TYPE_UNKNOWN", "Unknown"},
                                              {1, "CUDA_UNIFIED_MEMORY_ACCESS_TYPE_READ", "Read"},
                                              {2, "CUDA_UNIFIED_MEMORY_ACCESS_TYPE_WRITE", "Write"},
                                              {3, "CUDA_UNIFIED_MEMORY_ACCESS_TYPE_ATOMIC", "Atomic"},
                                              {4, "CUDA_UNIFIED_MEMORY_ACCESS_TYPE_PREFETCH", "Prefetch"}};
constexpr EnumRow kCudaUnifMemMigration[] = {
    {0, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_UNKNOWN", "Unknown"},
    {1, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_USER", "User prefetch"},
    {2, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE", "Page fault"},
    {3, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH", "Speculative prefecth"},
    {4, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION", "Eviction"},
    {5, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_ACCESS_COUNTERS", "Access counters"}};
constexpr EnumRow kCuptiStreamType[] = {{0, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_UNKNOWN", "Unknown stream type"},
                                        {1, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT", "Default stream"},
                                        {2, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING", "Non-blocking stream"},
                                        {3, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL", "Null stream"}};
constexpr EnumRow kCuptiSyncType[] = {{0, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN", "Unknown"},
                                      {1, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE", "Event sync"},
                                      {2, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT", "Stream wait sync"},
                                      {3, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE", "Stream sync"},
                                      {4, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE", "Context sync"}};
constexpr EnumRow kDiagnosticSeverityLevel[] = {{0, "UnknownLevel", "Unknown"},
                                                {1, "Info", nullptr},
                                                {2, "Warning", nullptr},
                                                {3, "Error", nullptr},
                                                {4, "Verbose", nullptr}};
constexpr EnumRow kDiagnosticSourceType[] = {{0, "UnknownSource", "Unknown source"},
                                             {1, "Injection", nullptr},
                                             {2, "Daemon", nullptr},
                                             {3, "Analysis", nullptr}};
constexpr EnumRow kDiagnosticTimestampSource[] = {{0, "UnknownTimestamp", "Unknown timestamp"},
                                                  {1, "TargetTimestamp", "Target timestamp"},
                                                  {2, "HostTimestamp", "Host timestamp"}};
constexpr EnumRow kNsysEventClass[] = {{0, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", "CUDA runtime"},
                                       {1, "TRACE_PROCESS_EVENT_CUDA_DRIVER", "CUDA driver"},
                                       {2, "TRACE_PROCESS_EVENT_GL", "GL"},
                                       {3, "TRACE_PROCESS_EVENT_TSP_OVERHEAD", "TSP overhead"},
                                       {4, "TRACE_PROCESS_EVENT_GL_DEBUG", "GL debug"},
                                       {5, "TRACE_PROCESS_EVENT_GL_WORKLOAD", "GL workload"},
                                       {6, "TRACE_PROCESS_EVENT_NVTX_START", "NVTX start"},
                                       {7, "TRACE_PROCESS_EVENT_NVTX_FINISH", "NVTX finish"},
                                       {8, "TRACE_PROCESS_EVENT_GL_START", "GL start"},
                                       {9, "TRACE_PROCESS_EVENT_GL_FINISH", "GL finish"},
                                       {10, "TRACE_PROCESS_EVENT_CUDA_START", "CUDA start"},
                                       {11, "TRACE_PROCESS_EVENT_CUDA_FINISH", "CUDA finish"},
                                       {12, "TRACE_PROCESS_EVENT_CUDA_INIT_ERROR", "CUDA init error"},
                                       {13, "TRACE_PROCESS_EVENT_CUDA_EGL_DRIVER", "CUDA EGL driver"},
                                       {18, "TRACE_PROCESS_EVENT_VSYNC", "Vsync"},
                                       {26, "TRACE_PROCESS_EVENT_CUDA_API", "CUDA API"},
                                       {27, "TRACE_PROCESS_EVENT_OS_RUNTIME", "OSRT runtime"},
                                       {28, "TRACE_PROCESS_EVENT_CUDNN", "cuDNN"},
                                       {29, "TRACE_PROCESS_EVENT_CUBLAS", "cuBLAS"},
                                       {31, "TRACE_PROCESS_EVENT_OS_RUNTIME_START", "OSRT start"},
                                       {32, "TRACE_PROCESS_EVENT_OS_RUNTIME_FINISH", "OSRT finish"},
                                       {33, "TRACE_PROCESS_EVENT_CUDNN_START", "cuDNN start"},
                                       {34, "TRACE_PROCESS_EVENT_CUDNN_FINISH", "cuDNN finish"},
                                       {35, "TRACE_PROCESS_EVENT_CUBLAS_START", "cuBLAS start"},
                                       {36, "TRACE_PROCESS_EVENT_CUBLAS_FINISH", "cuBLAS finish"},
                                       {37, "TRACE_PROCESS_EVENT_THREAD_BLOCK", "Thread block"},
                                       {38, "TRACE_PROCESS_EVENT_NVMEDIA", "NVmedia"},
                                       {39, "TRACE_PROCESS_EVENT_NVMEDIA_START", "NVmedia start"},
                                       {40, "TRACE_PROCESS_EVENT_NVMEDIA_FINISH", "NVmedia finish"},
                                       {41, "TRACE_PROCESS_EVENT_DX12_API", "DX12 API"},
                                       {42, "TRACE_PROCESS_EVENT_DX12_WORKLOAD", "DX12 workload"},
                                       {43, "TRACE_PROCESS_EVENT_DX12_START", "DX12 start"},
                                       {44, "TRACE_PROCESS_EVENT_DX12_FINISH", "DX12 finish"},
                                       {45, "TRACE_PROCESS_EVENT_OPENACC_START", "OpenACC start"},
                                       {46, "TRACE_PROCESS_EVENT_OPENACC_FINISH", "OpenACC finish"},
                                       {47, "TRACE_PROCESS_EVENT_OPENACC_INIT_ERROR", "OpenACC init error"},
                                       {48, "TRACE_PROCESS_EVENT_OPENACC", "OpenACC"},
                                       {49, "TRACE_PROCESS_EVENT_CPU_FPS", "CPU FPS"},
                                       {50, "TRACE_PROCESS_EVENT_GPU_FPS", "GPU FPS"},
                                       {51, "TRACE_PROCESS_EVENT_GL_MULTI_ERROR", "GL multi-error"},
                                       {52, "TRACE_PROCESS_EVENT_DX12_DISPLAY", "DX12 display"},
                                       {53, "TRACE_PROCESS_EVENT_VULKAN_API", "Vulkan API"},
                                       {54, "TRACE_PROCESS_EVENT_VULKAN_WORKLOAD", "Vulkan workload"},
                                       {55, "TRACE_PROCESS_EVENT_VULKAN_START", "Vulkan start"},
                                       {56, "TRACE_PROCESS_EVENT_VULKAN_FINISH", "Vulkan finish"},
                                       {57, "TRACE_PROCESS_EVENT_SYSTEM_EVENT", "System event"},
                                       {58, "TRACE_PROCESS_EVENT_GPU_MEMORY", "GPU memory"},
                                       {59, "TRACE_PROCESS_EVENT_DX12_CREATE_OBJECT", "DX12 create object"},
                                       {60, "TRACE_PROCESS_EVENT_VULKAN_CREATE_OBJECT", "Vulkan create object"},
                                       {61, "TRACE_PROCESS_EVENT_CUSTOM_ETW_TRACE", "Custom ETW trace"},
                                       {62, "TRACE_PROCESS_EVENT_SLI", "SLI"},
                                       {63, "TRACE_PROCESS_EVENT_SLI_START", "SLI start"},
                                       {64, "TRACE_PROCESS_EVENT_SLI_FINISH", "SLI finish"},
                                       {65, "TRACE_PROCESS_EVENT_DX12_DEBUG_API", "DX12 debug API"},
                                       {66, "TRACE_PROCESS_EVENT_VULKAN_DEBUG_API", "Vulkan debug API"},
                                       {67, "TRACE_PROCESS_EVENT_CUDABACKTRACE", "CUDA backtrace"},
                                       {68, "TRACE_PROCESS_EVENT_CUDABACKTRACE_START", "CUDA backtrace start"},
                                       {69, "TRACE_PROCESS_EVENT_CUDABACKTRACE_FINISH", "CUDA backtrace finish"},
                                       {70, "TRACE_PROCESS_EVENT_WDDM", "WDDM"},
                                       {71, "TRACE_PROCESS_EVENT_DX11_API", "DX11 API"},
                                       {72, "TRACE_PROCESS_EVENT_DX11_START", "DX11 start"},
                                       {73, "TRACE_PROCESS_EVENT_DX11_FINISH", "DX11 finish"},
                                       {74, "TRACE_PROCESS_EVENT_DX11_CREATE_OBJECT", "DX11 create object"},
                                       {75, "TRACE_PROCESS_EVENT_DX11_DEBUG_API", "DX11 debug API"},
                                       {76, "TRACE_PROCESS_EVENT_DXCOMMON_API", "DX common API"},
                                       {77, "TRACE_PROCESS_EVENT_CUDA_GRAPH_NODE_CREATION", "CUDA graph node creation"},
                                       {78, "TRACE_PROCESS_EVENT_OPENMP", "OpenMP"},
                                       {79, "TRACE_PROCESS_EVENT_OPENMP_START", "OpenMP start"},
                                       {80, "TRACE_PROCESS_EVENT_OPENMP_FINISH", "OpenMP finish"},
                                       {81, "TRACE_PROCESS_EVENT_NVAPI", "NV API"},
                                       {82, "TRACE_PROCESS_EVENT_ETWDXGKRNL", "ETW DXG KRNL"},
                                       {83, "TRACE_PROCESS_EVENT_NVENC", "NVENC"},
                                       {84, "TRACE_PROCESS_EVENT_NVENC_START", "NVENC start"},
                                       {85, "TRACE_PROCESS_EVENT_NVENC_FINISH", "NVENC finish"},
                                       {86, "TRACE_PROCESS_EVENT_NVDEC", "NVDEC"},
                                       {87, "TRACE_PROCESS_EVENT_NVDEC_START", "NVDEC start"},
                                       {88, "TRACE_PROCESS_EVENT_NVDEC_FINISH", "NVDEC finish"},
                                       {89, "TRACE_PROCESS_EVENT_NVJPEG", "nvJPEG"},
                                       {90, "TRACE_PROCESS_EVENT_NVJPEG_START", "nvJPEG start"},
                                       {91, "TRACE_PROCESS_EVENT_NVJPEG_FINISH", "nvJPEG finish"},
                                       {92, "TRACE_PROCESS_EVENT_DX12_BATCH_WORKLOAD", "DX12 batch workload"},
                                       {93, "TRACE_PROCESS_EVENT_VULKAN_BATCH_WORKLOAD", "Vulkan batch workload"},
                                       {94, "TRACE_PROCESS_EVENT_CUDA_GRAPHEXEC_CREATION", "CUDA graph exec creation"},
                                       {95, "TRACE_PROCESS_EVENT_CUDA_GRAPH_CREATION", "CUDA graph creation"},
                                       {96, "TRACE_PROCESS_EVENT_CUDA_GRAPH_CLONE", "CUDA graph clone"},
                                       {107, "TRACE_PROCESS_EVENT_SYSCALL", "Syscall"},
                                       {108, "TRACE_PROCESS_EVENT_TEGRA_INTERNAL", "Tegra Internal API"},
                                       {109, "TRACE_PROCESS_EVENT_TEGRA_INTERNAL_START", "Tegra Internal API start"},
                                       {110, "TRACE_PROCESS_EVENT_TEGRA_INTERNAL_FINISH", "Tegra Internal API finish"}};
constexpr EnumRow kNsysEventType[] = {{0, "Unknown", nullptr},
                                      {1, "CpuCycles", nullptr},
                                      {2, "Instructions", nullptr},
                                      {3, "CacheReferences", nullptr},
                                      {4, "L1CacheDataWriteMisses", nullptr},
                                      {5, "L1CacheDataReadMisses", nullptr},
                                      {6, "L1CacheInstructionMisses", nullptr},
                                      {7, "L2CacheDataWriteMisses", nullptr},
                                      {8, "L2CacheDataReadMisses", nullptr},
                                      {9, "L2CacheInstructionMisses", nullptr},
                                      {10, "BranchInstructions", nullptr},
                                      {11, "BranchMisses", nullptr},
                                      {12, "BusCycles", nullptr},
                                      {13, "CpuClock", nullptr},
                                      {14, "TaskClock", nullptr},
                                      {15, "PageFault", nullptr},
                                      {16, "ContextSwitches", nullptr},
                                      {17, "CpuMigrations", nullptr},
                                      {18, "PageFaultsMin", nullptr},
                                      {19, "PageFaultsMax", nullptr},
                                      {20, "AlignmentFaults", nullptr},
                                      {21, "EmulationFaults", nullptr},
                                      {22, "ThreadState", nullptr},
                                      {23, "Frames", nullptr},
                                      {24, "Annotations", nullptr},
                                      {25, "SchedSwitch", nullptr},
                                      {26, "SchedWakeup", nullptr},
                                      {27, "Command", nullptr},
                                      {28, "Mmap", nullptr},
                                      {29, "MemUsage", nullptr},
                                      {30, "Emc", nullptr},
                                      {31, "Composite", nullptr},
                                      {32, "NvtxEvents", nullptr},
                                      {33, "NvtxCategory", nullptr},
                                      {34, "NvtxMark", nullptr},
                                      {35, "NvtxPushRange", nullptr},
                                      {36, "NvtxPopRange", nullptr},
                                      {37, "NvtxStartRange", nullptr},
                                      {38, "NvtxEndRange", nullptr},
                                      {39, "NvtxThread", nullptr},
                                      {40, "PowerRate", nullptr},
                                      {41, "Sched", nullptr},
                                      {42, "CpuCyclesSelf", nullptr},
                                      {43, "CpuCyclesTotal", nullptr},
                                      {44, "CpuCyclesSelfPlus", nullptr},
                                      {45, "Cuda", nullptr},
                                      {46, "CudaDevice", nullptr},
                                      {47, "TraceProcess", nullptr},
                                      {48, "TraceFunctions", nullptr},
                                      {49, "Diagnostic", nullptr},
                                      {50, "GlWorkload", nullptr},
                                      {51, "BandwidthUsage", nullptr},
                                      {52, "KhrDebugMark", nullptr},
                                      {53, "KhrDebugPushRange", nullptr},
                                      {54, "KhrDebugPopRange", nullptr},
                                      {55, "KhrDebugGpuMark", nullptr},
                                      {56, "KhrDebugGpuPushRange", nullptr},
                                      {57, "KhrDebugGpuPopRange", nullptr},
                                      {58, "GpuCtxsw", nullptr},
                                      {59, "NvtxPushPopRange", nullptr},
                                      {60, "NvtxStartEndRange", nullptr},
                                      {61, "ProfTime", nullptr},
                                      {62, "KhrDebugPushPopRange", nullptr},
                                      {63, "KhrDebugGpuPushPopRange", nullptr},
                                      {64, "NvtxtCategory", nullptr},
                                      {65, "NvtxtMark", nullptr},
                                      {66, "NvtxtPushRange", nullptr},
                                      {67, "NvtxtPopRange", nullptr},
                                      {68, "NvtxtStartRange", nullptr},
                                      {69, "NvtxtEndRange", nullptr},
                                      {70, "NvtxtPushPopRange", nullptr},
                                      {71, "NvtxtStartEndRange", nullptr},
                                      {72, "NvtxtMetaThread", nullptr},
                                      {73, "NvtxtMetaProcess", nullptr},
                                      {74, "NvtxtMetaFileDisplay", nullptr},
                                      {75, "NvtxDomainCreate", nullptr},
                                      {76, "NvtxDomainDestroy", nullptr},
                                      {77, "NvnGpuCmdBuf", nullptr},
                                      {78, "TraceVSync", nullptr},
                                      {79, "CudaDeviceKernel", nullptr},
                                      {80, "CudaDeviceMemory", nullptr},
                                      {81, "Pmu", nullptr},
                                      {82, "NvnGpuDraw", nullptr},
                                      {83, "NvnGpuCompute", nullptr},
                                      {84, "NvnGpuDebug", nullptr},
                                      {85, "OS runtime libraries", nullptr},
                                      {86, "CuDNN", nullptr},
                                      {87, "CuBLAS", nullptr},
                                      {88, "NvMedia", nullptr},
                                      {89, "OpenACC", nullptr},
                                      {90, "Correlation", nullptr},
                                      {91, "DX12", nullptr},
                                      {92, "DX12Workload", nullptr},
                                      {93, "PmuRawEvent", nullptr},
                                      {94, "GraphicsFrame", nullptr},
                                      {95, "Vulkan", nullptr},
                                      {96, "VulkanWorkload", nullptr},
                                      {97, "NvtxNameCudaDevice", nullptr},
                                      {98, "NvtxNameCudaContext", nullptr},
                                      {99, "NvtxNameCudaStream", nullptr},
                                      {100, "SystemEvent", nullptr},
                                      {101, "GpuMemoryEvent", nullptr},
                                      {102, "DX12CreateObject", nullptr},
                                      {103, "VulkanCreateObject", nullptr},
                                      {104, "UnitTraceEvent", nullptr},
                                      {105, "CustomETWEvent", nullptr},
                                      {106, "CudaSyncEvent", nullptr},
                                      {107, "SLIEvent", nullptr},
                                      {108, "CudaBacktrace", nullptr},
                                      {109, "WddmEvent", nullptr},
                                      {110, "DX11", nullptr},
                                      {111, "DX11CreateObject", nullptr},
                                      {112, "DXGI", nullptr},
                                      {113, "CudaGraphNodeCreation", nullptr},
                                      {114, "OpenMP", nullptr},
                                      {115, "UncorePmuEvent", nullptr},
                                      {116, "UncorePmuCarmel", nullptr},
                                      {117, "CudaDeviceMemoryUsage", nullptr},
                                      {118, "ETWDxgKrnlEvent", nullptr},
                                      {119, "CudaUvmCpuPageFaultEvent", nullptr},
                                      {120, "CudaUvmGpuPageFaultEvent", nullptr},
                                      {121, "NICMetricsValuesEvent", nullptr},
                                      {122, "NICMetricsListEvent", nullptr},
                                      {123, "InterruptHandler", nullptr},
                                      {124, "NVENC", nullptr},
                                      {125, "NVDEC", nullptr},
                                      {126, "nvJPEG", nullptr},
                                      {127, "CudaEventRecord", nullptr},
                                      {128, "PerfEventCountEvent", nullptr},
                                      {129, "CudaDeviceMemoryPool", nullptr},
                                      {130, "CudaDeviceGraph", nullptr},
                                      {131, "CudaGraphExecCreation", nullptr},
                                      {132, "CudaGraphCreation", nullptr},
                                      {133, "CudaGraphClone", nullptr},
                                      {134, "GpuMemoryTransferEvent", nullptr},
                                      {135, "GlTrace", nullptr},
                                      {136, "GpuVideoEngineWorkload", nullptr},
                                      {137, "IBSwitchMetricsValuesEvent", nullptr},
                                      {138, "GenericEvent", nullptr},
                                      {139, "UncorePmuT23xScf", nullptr},
                                      {140, "UncorePmuT23xDsu", nullptr},
                                      {141, "IBSwitchCongestionEvent", nullptr},
                                      {142, "CudaDeviceMemcpy", nullptr},
                                      {143, "PerfMetricValueEvent", nullptr},
                                      {144, "OpenXREvent", nullptr},
                                      {145, "TegraInternalEvent", nullptr},
                                      {146, "TraceStartFinish", nullptr},
                                      {147, "Syscall", nullptr},
                                      {148, "CudaConfidentialComputeKeyRotation", nullptr},
                                      {149, "CudaGraphExecNodeSetParams", nullptr}};
constexpr EnumRow kSamplingThreadState[] = {
    {0, "Unknown", nullptr},         {1, "Running", nullptr},    {2, "Interruptible", nullptr},
    {3, "Uninterruptible", nullptr}, {4, "Stopped", nullptr},    {5, "Terminated", nullptr},
    {6, "Unscheduled", nullptr},     {7, "Waiting", nullptr},    {8, "OSRuntime", "OS runtime"},
    {9, "Initialized", nullptr},     {10, "Transition", nullptr}};
constexpr EnumRow kSchedulingThreadBlock[] = {{0, "NonBlocked", nullptr},
                                              {1, "Unknown", nullptr},
                                              {2, "SigSuspend", nullptr},
                                              {3, "Stopped", nullptr},
                                              {4, "Nanosleep", nullptr},
                                              {5, "Intr", nullptr},
                                              {6, "Mutex", nullptr},
                                              {7, "CondVar", nullptr},
                                              {8, "Sem", nullptr},
                                              {9, "Join", nullptr},
                                              {10, "SigWaitInfo", nullptr},
                                              {11, "WaitCtx", nullptr},
                                              {12, "Send", nullptr},
                                              {13, "Receive", nullptr},
                                              {14, "Reply", nullptr},
                                              {15, "Stack", nullptr},
                                              {16, "WaitThread", nullptr},
                                              {17, "WaitPage", nullptr},
                                              {18, "NetSend", nullptr},
                                              {19, "NetReply", nullptr},
                                              {20, "FreePage", nullptr},
                                              {21, "PageIn", nullptr},
                                              {22, "PoolAllocation", nullptr},
                                              {23, "DelayExecution", nullptr},
                                              {24, "Suspended", nullptr},
                                              {25, "UserRequest", nullptr},
                                              {26, "EventPair", nullptr},
                                              {27, "Queue", nullptr},
                                              {28, "LPCReceive", nullptr},
                                              {29, "LPCReply", nullptr},
                                              {30, "VirtualMemory", nullptr},
                                              {31, "PageOut", nullptr},
                                              {32, "Rendezvous", nullptr},
                                              {33, "KeyedEvent", nullptr},
                                              {34, "Terminated", nullptr},
                                              {35, "ProcessInSwap", nullptr},
                                              {36, "CPURateControl", nullptr},
                                              {37, "WrCalloutStack", nullptr},
                                              {38, "Kernel", nullptr},
                                              {39, "Resource", nullptr},
                                              {40, "PushLock", nullptr},
                                              {41, "WindowsMutex", nullptr},
                                              {42, "QuantumEnd", nullptr},
                                              {43, "DispatchInt", nullptr},
                                              {44, "Preempted", nullptr},
                                              {45, "YieldExecution", nullptr},
                                              {46, "FastMutex", nullptr},
                                              {47, "GuardedMutex", nullptr},
                                              {48, "Rundown", nullptr},
                                              {49, "ReadyToRun", nullptr},
                                              {50, "AlertByThreadId", nullptr},
                                              {51, "DeferredPreempt", nullptr},
                                              {52, "PhysicalFault", nullptr}};
constexpr EnumRow kStackUnwindMethod[] = {{0, "Unknown", nullptr},
                                          {1, "FramePointer", "Frame pointer"},
                                          {2, "UnwindTable", "Unwind table"},
                                          {3, "LR_FramePointer", "LR frame pointer"},
                                          {4, "LR_UnwindTable", "LR unwind table"},
                                          {5, "KernelContext", "Kernel context"},
                                          {6, "DWARF_EH", "DWARF EH"},
                                          {7, "DWARF_DF", "DWARF DF"},
                                          {8, "LBR", nullptr},
                                          {1000, "Undefined", nullptr}};
constexpr EnumRow kCudaMempoolOper[] = {{0, "CUDA_MEMPOOL_OPERATION_TYPE_INVALID", "Invalid"}, {1, "CUDA_MEMPOOL_OPERATION_TYPE_CREATED", "Created"}, {2, "CUDA_MEMPOOL_OPERATION_TYPE_DESTROYED", "Destroyed"}, {3, "CUDA_MEMPOOL_OPERATION_TYPE_TRIMMED", "Trimmed"}};
constexpr EnumRow kCudaMempoolType[] = {{0, "CUDA_MEMPOOL_TYPE_INVALID", "Invalid"}, {1, "CUDA_MEMPOOL_TYPE_LOCAL", "Local"}, {2, "CUDA_MEMPOOL_TYPE_IMPORTED", "Imported"}};
constexpr EnumRow kGenericEventSource[] = {{0, "NotSpecified", "Not Specified"}, {1, "ClockMonotonicRaw", "Clock Monotoic Raw"}, {2, "CntVct", "Counter-Timer Virtual Count Register"}, {3, "SessionNs", "Session Nanoseconds"}};
constexpr EnumRow kGenericEventGroup[] = {{0, "Unknown", nullptr}, {1, "FTrace", nullptr}, {2, "NvMedia", "NV Media"}, {3, "Hypervisor", nullptr}, {4, "ETW", nullptr}};
constexpr EnumRow kGenericEventFieldType[] = {{0, "Signed", "Signed Integer"}, {1, "Unsigned", "Unsigned Integer"}, {2, "Float", nullptr}, {3, "Double", nullptr}};
constexpr EnumRow kGenericEventEtwProperty[] = {{1, "PropertyStruct", "Struct"}, {2, "PropertyParamLength", "Param Length"}, {4, "PropertyParamCount", "Param Count"}, {8, "PropertyWBEMXmlFragment", "WBEM XML Fragment"}, {16, "PropertyParamFixedLength", "Param Fixed Length"}, {32, "PropertyParamFixedCount", "Param Fixed Count"}, {64, "PropertyHasTags", "Has tags"}, {128, "PropertyHasCustomSchema", "Has Custom Schema"}};
constexpr EnumRow kGenericEventEtwType[] = {{0, "TDH_INTYPE_NULL", "NULL"}, {1, "TDH_INTYPE_UNICODESTRING", "Unicode String"}, {2, "TDH_INTYPE_ANSISTRING", "ANSI String"}, {3, "TDH_INTYPE_INT8", "int8"}, {4, "TDH_INTYPE_UINT8", "uint8"}, {5, "TDH_INTYPE_INT16", "int16"}, {6, "TDH_INTYPE_UINT16", "uint16"}, {7, "TDH_INTYPE_INT32", "int32"}, {8, "TDH_INTYPE_UINT32", "uint32"}, {9, "TDH_INTYPE_INT64", "int64"}, {10, "TDH_INTYPE_UINT64", "uint64"}, {11, "TDH_INTYPE_FLOAT", "float"}, {12, "TDH_INTYPE_DOUBLE", "double"}, {13, "TDH_INTYPE_BOOLEAN", "boolean"}, {14, "TDH_INTYPE_BINARY", "binary data"}, {15, "TDH_INTYPE_GUID", "GUID"}, {16, "TDH_INTYPE_POINTER", "Pointer"}, {17, "TDH_INTYPE_FILETIME", "File-time"}, {18, "TDH_INTYPE_SYSTEMTIME", "System-time"}, {19, "TDH_INTYPE_SID", "SID"}, {20, "TDH_INTYPE_HEXINT32", "Hex int32"}, {21, "TDH_INTYPE_HEXINT64", "Hex int64"}};
constexpr EnumRow kGenericEventEtwFlags[] = {{1, "EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP", "Manifest Value Map"}, {2, "EVENTMAP_INFO_FLAG_MANIFEST_BITMAP", "Manifest Bitmap"}, {4, "EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP", "Manifest Pattern Map"}, {8, "EVENTMAP_INFO_FLAG_WBEM_VALUEMAP", "WBEM Value Map"}, {16, "EVENTMAP_INFO_FLAG_WBEM_BITMAP", "WBEM Bitmap"}, {32, "EVENTMAP_INFO_FLAG_WBEM_FLAG", "WBEM Flag"}, {64, "EVENTMAP_INFO_FLAG_WBEM_NO_MAP", "WBEM No Map"}};

constexpr EnumTable kTables[] = {
    {"ENUM_CUDA_DEV_MEM_EVENT_OPER", kCudaDevMemEventOper, Holds::Cuda},
    {"ENUM_CUDA_FUNC_CACHE_CONFIG", kCudaFuncCacheConfig, Holds::Cuda},
    {"ENUM_CUDA_KERNEL_LAUNCH_TYPE", kCudaKernelLaunchType, Holds::Cuda},
    {"ENUM_CUDA_MEMCPY_OPER", kCudaMemcpyOper, Holds::Cuda},
    {"ENUM_CUDA_MEMPOOL_OPER", kCudaMempoolOper, Holds::Cuda},
    {"ENUM_CUDA_MEMPOOL_TYPE", kCudaMempoolType, Holds::Cuda},
    {"ENUM_CUDA_MEM_KIND", kCudaMemKind, Holds::Cuda},
    {"ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG", kCudaSharedMemLimitConfig, Holds::Cuda},
    {"ENUM_CUDA_UNIF_MEM_ACCESS_TYPE", kCudaUnifMemAccessType, Holds::Cuda},
    {"ENUM_CUDA_UNIF_MEM_MIGRATION", kCudaUnifMemMigration, Holds::Cuda},
    {"ENUM_CUPTI_STREAM_TYPE", kCuptiStreamType, Holds::Cuda},
    {"ENUM_CUPTI_SYNC_TYPE", kCuptiSyncType, Holds::Cuda},
    {"ENUM_DIAGNOSTIC_SEVERITY_LEVEL", kDiagnosticSeverityLevel, Holds::Always},
    {"ENUM_DIAGNOSTIC_SOURCE_TYPE", kDiagnosticSourceType, Holds::Always},
    {"ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE", kDiagnosticTimestampSource, Holds::Always},
    {"ENUM_NSYS_EVENT_CLASS", kNsysEventClass, Holds::Always},
    {"ENUM_NSYS_EVENT_TYPE", kNsysEventType, Holds::Always},
    {"ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_FLAGS", kGenericEventEtwFlags, Holds::Always},
    {"ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY", kGenericEventEtwProperty, Holds::Always},
    {"ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE", kGenericEventEtwType, Holds::Always},
    {"ENUM_NSYS_GENERIC_EVENT_FIELD_TYPE", kGenericEventFieldType, Holds::Always},
    {"ENUM_NSYS_GENERIC_EVENT_GROUP", kGenericEventGroup, Holds::Always},
    {"ENUM_NSYS_GENERIC_EVENT_SOURCE", kGenericEventSource, Holds::Always},
    {"ENUM_SAMPLING_THREAD_STATE", kSamplingThreadState, Holds::CpuThreads},
    {"ENUM_SCHEDULING_THREAD_BLOCK", kSchedulingThreadBlock, Holds::CpuThreads},
    {"ENUM_STACK_UNWIND_METHOD", kStackUnwindMethod, Holds::CpuThreads}};

// Whether nsys's export of the report has the table: it names the kinds of data the report holds.
bool reportHolds(const Report& report, Holds holds) {
    if (holds == Holds::Always) return true;
    if (holds == Holds::Cuda && !report.gpus.empty()) return true;
    for (const Lane& lane : report.lanes) {
        const LaneKind k = lane.kind;
        if (holds == Holds::Cuda && (k == LaneKind::CudaApi || k == LaneKind::GpuStream)) return true;
        if (holds == Holds::CpuThreads && (k == LaneKind::OsRuntime || k == LaneKind::CpuSamples ||
                                           k == LaneKind::ThreadState || k == LaneKind::CpuCore))
            return true;
    }
    return false;
}

}  // namespace

void addEnumTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    constexpr auto I = ColumnType::Integer;
    constexpr auto T = ColumnType::Text;
    for (const EnumTable& table : kTables) {
        // A table nsys leaves out has no rows here, so that the export leaves it out too.
        const std::span<const EnumRow> rows = reportHolds(report, table.holds) ? table.rows : std::span<const EnumRow>();
        tables.push_back(std::make_unique<SortedFunctionTable>(
            table.name, std::vector<ColumnDef>{{"id", I}, {"name", T}, {"label", T}},
            [rows] { return uint32_t(rows.size()); },
            [rows](uint32_t row, int column, sqlite3_context* ctx) {
                const EnumRow& e = rows[row];
                if (column == 0) return resultInt(ctx, e.id);
                resultText(ctx, column == 1 || !e.label ? e.name : e.label);
            },
            0, [rows](uint32_t row) { return rows[row].id; }));
    }
}

}  // namespace lanescope::sql
