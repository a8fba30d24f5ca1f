#!/usr/bin/env python3
"""Writes the hand-built traces of tests/data/critical_path/ (README.md there says what each is).

    python3 tests/data/critical_path/make_traces.py [OUT_DIR]

Deterministic: the same files every run. Nsight Systems traces are SQLite files shaped as an
nsys 2025.3 export: the CREATE TABLE statements are copied from the real exports in
tests/data/nsys-2025.3/ (sqlite_master), and only the tables a trace needs are filled. PyTorch
traces are Chrome-trace JSON in Kineto's shape (tests/data/kineto/*.json*).

Times are written in whole microseconds here; the files hold nanoseconds (nsys) or
microseconds with three decimals (Kineto). The *.expected.csv files beside them are written
by hand from the constructions below, not by any program.
"""

import json
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SCHEMA_SOURCES = [os.path.join(REPO, "tests", "data", "nsys-2025.3", name)
                  for name in ("cuda_graphs.sqlite", "ddp_rank0.sqlite")]

US = 1000  # ns per microsecond
INVALID = 0xFFFFFFFF  # CUPTI's "no stream / no event" in CUPTI_ACTIVITY_KIND_SYNCHRONIZATION
VM = 1 << 48  # the vmId part of nsys's serialized global ids (globalTid = VM | pid << 24 | tid)

BASE_TABLES = ["StringIds", "PROCESSES", "ThreadNames", "TARGET_INFO_GPU", "TARGET_INFO_CUDA_DEVICE",
               "TARGET_INFO_CUDA_CONTEXT_INFO", "TARGET_INFO_CUDA_STREAM", "TARGET_INFO_SESSION_START_TIME",
               "META_DATA_EXPORT", "ENUM_CUPTI_SYNC_TYPE", "ENUM_CUDA_MEMCPY_OPER", "ENUM_CUDA_MEM_KIND",
               "ENUM_NSYS_EVENT_CLASS", "ENUM_NSYS_EVENT_TYPE"]
ENUM_TABLES = ["ENUM_CUPTI_SYNC_TYPE", "ENUM_CUDA_MEMCPY_OPER", "ENUM_CUDA_MEM_KIND", "ENUM_NSYS_EVENT_CLASS",
               "ENUM_NSYS_EVENT_TYPE"]


def schema():
    """CREATE TABLE text and enum rows, from the first real export that has each table."""
    sql, enums = {}, {}
    for path in SCHEMA_SOURCES:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        for name, text in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            sql.setdefault(name, text)
        for name in ENUM_TABLES:
            if name not in enums:
                enums[name] = list(db.execute("SELECT * FROM %s ORDER BY id" % name))
        if "TARGET_INFO_GPU" not in enums:
            enums["TARGET_INFO_GPU"] = list(db.execute("SELECT * FROM TARGET_INFO_GPU WHERE id = 0"))
        db.close()
    return sql, enums


SCHEMA, SCHEMA_ROWS = schema()


class Nsys:
    """One process (pid) of an nsys export; every time argument is in microseconds."""

    def __init__(self, pid, process_name="python3", device=0, streams=(7,), rank=None, clock_offset=0):
        self.pid = pid
        self.clock_offset = clock_offset  # us added to every time: a report whose clock runs ahead
        self.device = device
        self.streams = list(streams)
        self.rank = rank
        self.strings = {}
        self.rows = {}
        self.threads = {}
        self.process_name = process_name
        self.thread(pid, process_name)

    def ns(self, us):
        return (us + self.clock_offset) * US

    # ids and strings
    def gtid(self, tid):
        return VM | (self.pid << 24) | tid

    def gpid(self):
        return VM | (self.pid << 24)

    def sid(self, text):
        if text not in self.strings:
            self.strings[text] = len(self.strings) + 1
        return self.strings[text]

    def add(self, table, row):
        self.rows.setdefault(table, []).append(row)

    # CPU side
    def thread(self, tid, name):
        self.threads[tid] = name

    def cuda(self, name, start, end, corr, tid=None):
        """A CUDA runtime call (eventClass 0: TRACE_PROCESS_EVENT_CUDA_RUNTIME)."""
        self.add("CUPTI_ACTIVITY_KIND_RUNTIME",
                 (self.ns(start), self.ns(end), 0, self.gtid(tid or self.pid), corr, self.sid(name), 0, None))

    def osrt(self, name, start, end, tid=None):
        """An OS runtime call (eventClass 27: TRACE_PROCESS_EVENT_OS_RUNTIME; no call chain)."""
        self.add("OSRT_API", (self.ns(start), self.ns(end), 27, self.gtid(tid or self.pid), self.sid(name), 0, 0, 0))

    def nvtx(self, text, start, end, tid=None):
        """A push/pop range (eventType 59) with its text inline, as PyTorch's NVTX ranges are."""
        self.add("NVTX_EVENTS", (self.ns(start), self.ns(end), 59, None, None, None, text, self.gtid(tid or self.pid),
                                 None, None, 0) + (None,) * 9)

    # GPU side
    def kernel(self, name, start, end, corr, stream=7, graph_node=None):
        n = self.sid(name)
        self.add("CUPTI_ACTIVITY_KIND_KERNEL",
                 (self.ns(start), self.ns(end), self.device, 1, 0, stream, corr, self.gpid(), n, n, None, 1, 1, 32,
                  128, 1, 1, 256, 1, 1, 0, 0, 0, 0, len(self.rows.get("CUPTI_ACTIVITY_KIND_KERNEL", [])) + 1, 0,
                  graph_node, 0))

    def memcpy(self, copy_kind, start, end, corr, nbytes, stream=7, src_kind=0, dst_kind=2):
        self.add("CUPTI_ACTIVITY_KIND_MEMCPY",
                 (self.ns(start), self.ns(end), self.device, 1, 0, stream, corr, self.gpid(), nbytes, copy_kind, None,
                  src_kind, dst_kind, None, None, None, None, None, None, None, 1))

    def memset(self, start, end, corr, nbytes, stream=7):
        self.add("CUPTI_ACTIVITY_KIND_MEMSET",
                 (self.ns(start), self.ns(end), self.device, 1, 0, stream, corr, self.gpid(), 0, nbytes, None, 2))

    def graph(self, start, end, corr, graph_id, exec_id, stream=7):
        self.add("CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
                 (self.ns(start), self.ns(end), self.device, 1, 0, stream, corr, self.gpid(), graph_id, exec_id))

    def sync(self, start, end, corr, sync_type, stream=INVALID, event_id=INVALID, event_sync_id=INVALID):
        """A CUPTI_ACTIVITY_KIND_SYNCHRONIZATION row. nsys 2025.3 writes syncType 2 for both
        cudaStreamWaitEvent and cudaStreamSynchronize (see the corpus exports)."""
        self.add("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                 (self.ns(start), self.ns(end), self.device, 1, None, stream, corr, self.gpid(), None, sync_type, event_id,
                  event_sync_id))

    def event_record(self, corr, stream, event_id, event_sync_id):
        self.add("CUPTI_ACTIVITY_KIND_CUDA_EVENT",
                 (self.device, 1, 0, stream, corr, self.gpid(), event_id, event_sync_id))

    # output
    def write(self, path):
        if os.path.exists(path):
            os.remove(path)
        db = sqlite3.connect(path)
        db.execute("PRAGMA page_size = 1024")  # small files; readers do not care
        tables = BASE_TABLES + sorted(self.rows)
        if self.rank is not None:
            tables.append("TARGET_INFO_SYSTEM_ENV")
        for t in tables:
            db.execute(SCHEMA[t])
        for t in ENUM_TABLES:
            for row in SCHEMA_ROWS[t]:
                db.execute("INSERT INTO %s VALUES (%s)" % (t, ",".join("?" * len(row))), row)
        for row in SCHEMA_ROWS["TARGET_INFO_GPU"]:
            row = list(row)
            row[1] = row[14] = self.device  # id, cuDevice
            db.execute("INSERT INTO TARGET_INFO_GPU VALUES (%s)" % ",".join("?" * len(row)), row)
        for tid in sorted(self.threads):
            self.sid(self.threads[tid])
        db.executemany("INSERT INTO StringIds VALUES (?, ?)", sorted((i, s) for s, i in self.strings.items()))
        db.execute("INSERT INTO PROCESSES VALUES (?, ?, ?)", (self.gpid(), self.pid, self.process_name))
        db.executemany("INSERT INTO ThreadNames VALUES (?, ?, ?)",
                       [(self.sid(self.threads[tid]), 20, self.gtid(tid)) for tid in sorted(self.threads)])
        db.execute("INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES (?, ?, ?)", (self.device, self.device, self.pid))
        db.execute("INSERT INTO TARGET_INFO_CUDA_CONTEXT_INFO VALUES (7, 0, 1, ?, ?, 1, 0, 0)",
                   (self.pid, self.device))
        for s in self.streams:
            db.execute("INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (?, 0, 1, ?, 1, 0, ?)",
                       (s, self.pid, 1 if s == 7 else 2))
        db.execute("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?, ?, ?)",
                   (1795000000000000000, "2026-11-18T07:06:40", "2026-11-18T07:06:40"))
        for name, value in (("EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"), ("EXPORT_PRODUCT_VERSION", "2025.3.2.0"),
                            ("EXPORT_SCHEMA_VERSION", "3.20.3"), ("EXPORT_SCHEMA_VERSION_MAJOR", "3"),
                            ("EXPORT_SCHEMA_VERSION_MINOR", "20"), ("EXPORT_SCHEMA_VERSION_MICRO", "3"),
                            ("EXPORT_PARAM_OUTPUT_FILE", os.path.basename(path))):
            db.execute("INSERT INTO META_DATA_EXPORT VALUES (?, ?)", (name, value))
        if self.rank is not None:
            env = "RANK=%d;LOCAL_RANK=%d;WORLD_SIZE=2;MASTER_ADDR=127.0.0.1" % (self.rank, self.rank)
            db.execute("INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (?, ?, ?, ?, ?)",
                       (VM, "Local (CLI)", "DeviceEnvironment", 100, env))
        for t in sorted(self.rows):
            rows = self.rows[t]
            db.executemany("INSERT INTO %s VALUES (%s)" % (t, ",".join("?" * len(rows[0]))), rows)
        db.commit()
        db.execute("VACUUM")
        db.close()


class Kineto:
    """A PyTorch profiler trace of one process; times in microseconds."""

    def __init__(self, pid, name):
        self.pid = pid
        self.name = name
        self.events = []
        self.threads = {pid: "thread %d (python3)" % pid}

    def x(self, cat, name, start, end, pid, tid, args=None):
        ev = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": float(start),
              "dur": float(end - start)}
        if args is not None:
            ev["args"] = args
        self.events.append(ev)

    def annotation(self, name, start, end, tid=None):
        self.x("user_annotation", name, start, end, self.pid, tid or self.pid,
               {"External id": len(self.events) + 1, "Record function id": 0, "Ev Idx": len(self.events)})

    def op(self, name, start, end, tid=None):
        self.x("cpu_op", name, start, end, self.pid, tid or self.pid,
               {"External id": len(self.events) + 1, "Record function id": 0, "Ev Idx": len(self.events)})

    def runtime(self, name, start, end, corr, cbid, tid=None, flow=False):
        tid = tid or self.pid
        self.x("cuda_runtime", name, start, end, self.pid, tid, {"External id": 0, "cbid": cbid, "correlation": corr})
        if flow:
            self.events.append({"ph": "s", "id": corr, "pid": self.pid, "tid": tid, "ts": float(start),
                                "cat": "ac2g", "name": "ac2g"})

    def kernel(self, name, start, end, corr, stream=7, device=0):
        self.x("kernel", name, start, end, device, stream,
               {"External id": 0, "queued": 0, "device": device, "context": 1, "stream": stream, "correlation": corr,
                "registers per thread": 32, "shared memory": 0, "blocks per SM": 0.969697, "warps per SM": 7.757576,
                "grid": [128, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %": 12})
        self.events.append({"ph": "f", "id": corr, "pid": device, "tid": stream, "ts": float(start),
                            "cat": "ac2g", "name": "ac2g", "bp": "e"})

    def cuda_sync(self, kind, start, end, corr, stream=-1, device=0, wait_on_stream=None, record_corr=None,
                  event_id=None):
        args = {"cuda_sync_kind": kind}
        if wait_on_stream is not None:
            args.update({"wait_on_stream": wait_on_stream, "wait_on_cuda_event_record_corr_id": record_corr,
                         "wait_on_cuda_event_id": event_id})
        args.update({"stream": stream, "correlation": corr, "device": device, "context": 1})
        self.x("cuda_sync", kind, start, end, device, stream, args)

    def write(self, path):
        meta = [{"name": "process_name", "ph": "M", "ts": 0.0, "pid": self.pid, "tid": 0, "args": {"name": "python3"}},
                {"name": "process_name", "ph": "M", "ts": 0.0, "pid": 0, "tid": 0, "args": {"name": "python3"}},
                {"name": "process_labels", "ph": "M", "ts": 0.0, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}}]
        for tid in sorted(self.threads):
            meta.append({"name": "thread_name", "ph": "M", "ts": 0.0, "pid": self.pid, "tid": tid,
                         "args": {"name": self.threads[tid]}})
        streams = sorted({e["tid"] for e in self.events if e.get("cat") == "kernel"})
        for s in streams:
            meta.append({"name": "thread_name", "ph": "M", "ts": 0.0, "pid": 0, "tid": s,
                         "args": {"name": "stream %d " % s}})
        doc = {"schemaVersion": 1,
               "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85017493504,
                                     "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024,
                                     "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32,
                                     "sharedMemPerBlock": 49152, "numSms": 132, "regsPerMultiprocessor": 65536,
                                     "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472}],
               "cuda_driver_version": 13000, "cuda_runtime_version": 13000, "cupti_version": 130001,
               "displayTimeUnit": "ms", "baseTimeNanoseconds": 1795000000000000000,
               "traceEvents": meta + self.events,
               "traceName": os.path.basename(path)}
        with open(path, "w", encoding="utf-8") as f:
            f.write('{\n  "schemaVersion": 1,\n')
            for key in ("deviceProperties", "cuda_driver_version", "cuda_runtime_version", "cupti_version",
                        "displayTimeUnit", "baseTimeNanoseconds"):
                f.write("  %s: %s,\n" % (json.dumps(key), json.dumps(doc[key])))
            f.write('  "traceEvents": [\n')
            f.write(",\n".join("  " + json.dumps(e) for e in doc["traceEvents"]))
            f.write('\n  ],\n  "traceName": %s\n}\n' % json.dumps(doc["traceName"]))


# CUPTI runtime callback ids of the calls used (cupti_runtime_cbid.h), for Kineto's "cbid".
CBID = {"cudaLaunchKernel": 211, "cudaDeviceSynchronize": 165, "cudaStreamSynchronize": 131,
        "cudaEventRecord": 135, "cudaStreamWaitEvent": 147}

LAUNCH = "cudaLaunchKernel_v7000"


# --------------------------------------------------------------------------------------------
# The traces. Each comment gives the path the construction forces; the .expected.csv files say
# the same in nanoseconds.
# --------------------------------------------------------------------------------------------

def gpu_bound(out):
    # Three back-to-back kernels queued far ahead of the GPU, then cudaDeviceSynchronize: the
    # kernels are the path, joined by the GPU's launch gaps.
    t = Nsys(100)
    t.nvtx("step", 1000, 1200)
    t.cuda(LAUNCH, 1000, 1010, 1)
    t.kernel("kernel_a", 1015, 1065, 1)
    t.cuda(LAUNCH, 1012, 1020, 2)
    t.kernel("kernel_b", 1066, 1116, 2)
    t.cuda(LAUNCH, 1022, 1030, 3)
    t.kernel("kernel_c", 1118, 1168, 3)
    t.cuda("cudaDeviceSynchronize_v3020", 1032, 1172, 4)
    t.write(os.path.join(out, "gpu_bound.sqlite"))


def launch_bound(out):
    # A PyTorch step whose kernels each take 3 to 5 us while the CPU needs 40 us between
    # launches: the path is the main thread; the CPU gaps are named by the operator holding them.
    t = Kineto(100, "launch_bound")
    t.annotation("ProfilerStep#0", 1000, 1200)
    t.op("aten::addmm", 1000, 1100)
    t.op("aten::relu", 1100, 1160)
    t.runtime("cudaLaunchKernel", 1020, 1030, 1, CBID["cudaLaunchKernel"], flow=True)
    t.kernel("kernel_a", 1035, 1040, 1)
    t.runtime("cudaLaunchKernel", 1070, 1080, 2, CBID["cudaLaunchKernel"], flow=True)
    t.kernel("kernel_b", 1085, 1090, 2)
    t.runtime("cudaLaunchKernel", 1120, 1130, 3, CBID["cudaLaunchKernel"], flow=True)
    t.kernel("kernel_c", 1135, 1138, 3)
    t.runtime("cudaDeviceSynchronize", 1170, 1180, 4, CBID["cudaDeviceSynchronize"])
    t.write(os.path.join(out, "launch_bound.pt.trace.json"))


def mixed_step(out):
    # Data loading on the CPU (an OS call), a synchronous cudaMemcpy (the path goes through
    # the copy and its Sync latency), GPU-bound kernels and a memset waited for by
    # cudaStreamSynchronize, then a launch-bound tail.
    t = Nsys(100)
    t.nvtx("step 0", 1000, 1400)
    t.nvtx("data", 1000, 1060)
    t.nvtx("forward", 1060, 1300)
    t.osrt("read", 1005, 1045)
    t.cuda("cudaMemcpy_v3020", 1060, 1100, 1)
    t.memcpy(1, 1070, 1095, 1, 4 << 20)
    t.cuda(LAUNCH, 1105, 1110, 2)
    t.kernel("kernel_a", 1112, 1200, 2)
    t.cuda("cudaMemsetAsync_v3020", 1115, 1120, 3)
    t.memset(1201, 1203, 3, 4096)
    t.cuda(LAUNCH, 1125, 1130, 4)
    t.kernel("kernel_b", 1204, 1280, 4)
    t.cuda("cudaStreamSynchronize_v3020", 1135, 1285, 5)
    t.sync(1136, 1284, 5, 2, stream=7)
    t.cuda(LAUNCH, 1300, 1310, 6)
    t.kernel("kernel_c", 1312, 1320, 6)
    t.write(os.path.join(out, "mixed_step.sqlite"))


def two_streams_event(out):
    # kernel_b on stream 7 waits (cudaStreamWaitEvent) for an event recorded on stream 13
    # after kernel_a. kernel_b's launch and its stream predecessor kernel_c ended long before;
    # the event's kernel_a released it, so the path crosses from stream 7 to stream 13.
    t = Nsys(100, streams=(7, 13))
    t.nvtx("step", 1000, 1300)
    t.cuda(LAUNCH, 1000, 1010, 1)
    t.kernel("kernel_c", 1012, 1022, 1, stream=7)
    t.cuda(LAUNCH, 1015, 1025, 2)
    t.kernel("kernel_a", 1027, 1227, 2, stream=13)
    t.cuda("cudaEventRecord_v3020", 1030, 1035, 3)
    t.event_record(3, 13, event_id=5, event_sync_id=1)
    t.cuda("cudaStreamWaitEvent_v3020", 1040, 1045, 4)
    t.sync(1041, 1044, 4, 2, stream=7, event_id=5, event_sync_id=1)
    t.cuda(LAUNCH, 1050, 1060, 5)
    t.kernel("kernel_b", 1229, 1259, 5, stream=7)
    t.cuda("cudaStreamSynchronize_v3020", 1065, 1262, 6)
    t.sync(1066, 1261, 6, 2, stream=7)
    t.write(os.path.join(out, "two_streams_event.sqlite"))

    # The same as a PyTorch trace, with Kineto's cuda_sync events (enable_cuda_sync_events).
    k = Kineto(100, "two_streams_event")
    k.annotation("step", 1000, 1300)
    k.runtime("cudaLaunchKernel", 1000, 1010, 1, CBID["cudaLaunchKernel"], flow=True)
    k.kernel("kernel_c", 1012, 1022, 1, stream=7)
    k.runtime("cudaLaunchKernel", 1015, 1025, 2, CBID["cudaLaunchKernel"], flow=True)
    k.kernel("kernel_a", 1027, 1227, 2, stream=13)
    k.runtime("cudaEventRecord", 1030, 1035, 3, CBID["cudaEventRecord"])
    k.runtime("cudaStreamWaitEvent", 1040, 1045, 4, CBID["cudaStreamWaitEvent"])
    k.cuda_sync("Stream Wait Event", 1041, 1044, 4, stream=7, wait_on_stream=13, record_corr=3, event_id=5)
    k.runtime("cudaLaunchKernel", 1050, 1060, 5, CBID["cudaLaunchKernel"], flow=True)
    k.kernel("kernel_b", 1229, 1259, 5, stream=7)
    k.runtime("cudaStreamSynchronize", 1065, 1262, 6, CBID["cudaStreamSynchronize"])
    k.cuda_sync("Stream Sync", 1066, 1261, 6, stream=7)
    k.write(os.path.join(out, "two_streams_event.pt.trace.json"))


def cuda_graph_launch(out):
    # A CUDA graph traced as a whole (--cuda-graph-trace=graph): the graph execution is one GPU
    # operation, released by its cudaGraphLaunch; a kernel queued behind it waits for it.
    t = Nsys(100)
    t.nvtx("replay", 1000, 1300)
    t.cuda("cudaGraphLaunch_v10000", 1000, 1020, 1)
    t.graph(1030, 1230, 1, graph_id=1, exec_id=2)
    t.cuda(LAUNCH, 1025, 1035, 2)
    t.kernel("kernel_after", 1231, 1241, 2)
    t.cuda("cudaStreamSynchronize_v3020", 1040, 1245, 3)
    t.sync(1041, 1244, 3, 2, stream=7)
    t.write(os.path.join(out, "cuda_graph_launch.sqlite"))

    # The same graph traced per node (--cuda-graph-trace=node): its two kernels carry the
    # correlation id of the cudaGraphLaunch and a graphNodeId.
    t = Nsys(100)
    t.nvtx("replay", 1000, 1300)
    t.cuda("cudaGraphLaunch_v10000", 1000, 1020, 1)
    t.kernel("graph_kernel_1", 1030, 1130, 1, graph_node=(2 << 32) | 0)
    t.kernel("graph_kernel_2", 1131, 1230, 1, graph_node=(2 << 32) | 1)
    t.cuda(LAUNCH, 1025, 1035, 2)
    t.kernel("kernel_after", 1231, 1241, 2)
    t.cuda("cudaStreamSynchronize_v3020", 1040, 1245, 3)
    t.sync(1041, 1244, 3, 2, stream=7)
    t.write(os.path.join(out, "cuda_graph_launch_nodes.sqlite"))


NCCL_ALLREDUCE = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)"


def two_ranks_late(out):
    # Two ranks of a job (torchrun on one host: rank N drives GPU N), one report each. Rank 1's
    # timestamps run 1 ms ahead: the all-reduce ends at 1330 us in rank 0's file and at 2330 us in
    # rank 1's, so the alignment shifts rank 1 by -1 ms. Rank 1's kernel_a takes 280 us, rank 0's
    # 100 us: rank 1 arrives at the all-reduce last and released it. The path starts on rank 0
    # and crosses to rank 1 through the collective.
    for rank, pid, compute_end, sync_end in ((0, 100, 1115, 1335), (1, 200, 1295, 1336)):
        t = Nsys(pid, device=rank, rank=rank, clock_offset=1000 * rank)
        t.nvtx("step 0", 1000, 1400)
        t.cuda(LAUNCH, 1000, 1010, 1)
        t.kernel("kernel_a", 1015, compute_end, 1)
        t.cuda(LAUNCH, 1020, 1030, 2)
        t.kernel(NCCL_ALLREDUCE, compute_end + 1 if rank == 0 else 1300, 1330, 2)
        t.cuda("cudaStreamSynchronize_v3020", 1035, sync_end, 3)
        t.sync(1036, sync_end - 1, 3, 2, stream=7)
        t.write(os.path.join(out, "two_ranks_late_rank%d.sqlite" % rank))


def dataloader_blocks_main_thread(out):
    # The main thread blocks in poll() while a loader thread reads the batch; then it copies the
    # batch, launches a kernel and waits for it. A CPU call depends only on the call before it
    # on its own thread, so the path holds the main thread's poll, not the loader's read.
    t = Nsys(100)
    t.thread(101, "pt_data_worker")
    t.nvtx("step 1", 1000, 1500)
    t.nvtx("data", 1000, 1300)
    t.nvtx("load batch", 1010, 1290, tid=101)
    t.osrt("read", 1020, 1280, tid=101)
    t.osrt("poll", 1005, 1295)
    t.cuda("cudaMemcpyAsync_v3020", 1300, 1310, 1)
    t.memcpy(1, 1312, 1322, 1, 1 << 20, src_kind=1)
    t.cuda(LAUNCH, 1315, 1325, 2)
    t.kernel("kernel_a", 1327, 1427, 2)
    t.cuda("cudaStreamSynchronize_v3020", 1330, 1430, 3)
    t.sync(1331, 1429, 3, 2, stream=7)
    t.write(os.path.join(out, "dataloader_blocks_main_thread.sqlite"))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else HERE
    os.makedirs(out, exist_ok=True)
    for make in (gpu_bound, launch_bound, mixed_step, two_streams_event, cuda_graph_launch, two_ranks_late,
                 dataloader_blocks_main_thread):
        make(out)


if __name__ == "__main__":
    main()
