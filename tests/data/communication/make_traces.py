#!/usr/bin/env python3
"""Writes the hand-cut PyTorch profiler traces of tests/data/communication (README.md says what
each holds and what the communication analysis must find in it). Run from any directory."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DEVICE = {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85017493504, "computeMajor": 9,
          "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
          "regsPerBlock": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 132,
          "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472}
ALLGATHER = {"Collective name": "_allgather_base", "In msg nelems": 1048576, "Out msg nelems": 2097152,
             "Group size": 2, "dtype": "BFloat16", "Process Group Name": "0", "Process Group Ranks": "[0, 1]"}
ALLREDUCE = {"Collective name": "allreduce", "In msg nelems": 262144, "Out msg nelems": 262144,
             "Group size": 2, "dtype": "Float", "Process Group Name": "0", "Process Group Ranks": "[0, 1]"}


def trace(on_kernel):
    """Two collectives launched from thread 100, each inside a record_param_comms operator; their
    args on the kernels (PyTorch 2.1+) or only on the operators. A compute kernel on stream 7
    overlaps half of the all-gather (on stream 17); nothing overlaps the all-reduce."""
    ev = [
        {"name": "process_name", "ph": "M", "ts": 0.0, "pid": 100, "tid": 0, "args": {"name": "python3"}},
        {"name": "process_name", "ph": "M", "ts": 0.0, "pid": 0, "tid": 0, "args": {"name": "python3"}},
        {"name": "process_labels", "ph": "M", "ts": 0.0, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
    ]

    def collective(ts, corr, kernel, args, dur):
        ev.append({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 100, "tid": 100, "ts": ts,
                   "dur": 50.0, "args": dict(args, **{"External id": corr, "Record function id": 0})})
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100,
                   "ts": ts + 10, "dur": 10.0, "args": {"correlation": corr, "External id": corr}})
        kargs = {"device": 0, "stream": 17, "correlation": corr, "External id": corr}
        if on_kernel:
            kargs.update(args)
        ev.append({"ph": "X", "cat": "kernel", "name": kernel, "pid": 0, "tid": 17, "ts": ts + 100, "dur": dur,
                   "args": kargs})

    collective(1000.0, 7, "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", ALLGATHER, 100.0)
    collective(2000.0, 9, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
               ALLREDUCE, 50.0)
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100, "ts": 1060.0,
               "dur": 10.0, "args": {"correlation": 8, "External id": 8}})
    ev.append({"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 1150.0, "dur": 100.0,
               "args": {"device": 0, "stream": 7, "correlation": 8, "External id": 8}})
    return {"schemaVersion": 1, "deviceProperties": [DEVICE], "displayTimeUnit": "ms",
            "baseTimeNanoseconds": 1795000000000000000, "traceEvents": ev}


for name, on_kernel in [("kernel_args", True), ("record_param_comms_only", False)]:
    with open(os.path.join(HERE, f"{name}.pt.trace.json"), "w") as f:
        json.dump(trace(on_kernel), f, indent=1)
        f.write("\n")
