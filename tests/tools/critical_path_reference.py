#!/usr/bin/env python3
"""Reference implementation of Lanescope's critical path (docs/analyses.md, "Critical path").

Independent of the C++ code: Python 3 and its standard library only. It reads an Nsight
Systems SQLite export or a PyTorch profiler (Kineto) Chrome trace (.json or .json.gz) and
prints the critical path of a time range as segments.

    critical_path_reference.py FILE... [--range A:B] [--format csv|json] [--what-if REGEX=FACTOR]

All times are integer nanoseconds on the report's own clock (an nsys export's timestamps; a
Kineto trace's `ts` and `dur`, in microseconds, converted to ns by decimal rounding of the
text to three decimals, half up, `end = ts + dur`, less the trace's first time as Lanescope's
timeline of it starts there: see kineto_origin). Without --range the range is
[first start, last end] over the events this script reads (CPU calls, GPU operations and the
NVTX ranges or PyTorch operators/annotations used for naming).

With several files (the ranks of one job) the CSV has a `Rank` column after `Lane`.

Lanes (the `Lane` column):
    "pid P tid T CUDA API"      a CUDA runtime or driver call of thread T of process P
    "pid P tid T OS runtime"    an OS runtime call (nsys OSRT_API)
    "pid P tid T MPI"           an MPI call (nsys MPI_*_EVENTS)
    "pid P tid T"               a `CPU` gap of that thread (no call recorded)
    "pid P GPU D stream S"      a GPU operation, and the `Launch latency` before it
A `Sync latency` segment is on the lane of its synchronizing call.

Ties are broken the same way everywhere, so the output is deterministic:
    * a thread's calls: by start, then by end (longest first), then by input order; a call
      lying wholly inside an earlier kept call of the same thread is dropped (the outer call
      stands for it; its correlation id then resolves to the outer call);
    * a stream's operations: by start, end, correlation id, input order;
    * the binding dependency: the latest effective end, then a GPU operation before a CPU
      call, then the earlier start, then the lower input order.

Exit status 0 after printing the path; 2 on a usage or input error.
"""

import argparse
import bisect
import collections
import csv
import decimal
import gzip
import io
import json
import re
import sqlite3
import sys

# --------------------------------------------------------------------------------------------
# The model: CPU calls, GPU operations, naming ranges, synchronization facts.
# --------------------------------------------------------------------------------------------

CPU, GPU = 0, 1

CAT_CUDA_API = "CUDA API"
CAT_OS = "OS runtime"
CAT_MPI = "MPI"
CAT_KERNEL = "Kernel"
CAT_MEMCPY = "Memcpy"
CAT_MEMSET = "Memset"
CAT_GRAPH = "CUDA graph"
CAT_COMM = "Communication"
CAT_CPU = "CPU"
CAT_LAUNCH = "Launch latency"
CAT_SYNC = "Sync latency"
CAT_WAIT_RANK = "Wait for rank"

ALL_CATEGORIES = [CAT_KERNEL, CAT_MEMCPY, CAT_MEMSET, CAT_GRAPH, CAT_COMM, CAT_CUDA_API, CAT_OS, CAT_MPI,
                  CAT_CPU, CAT_LAUNCH, CAT_SYNC, CAT_WAIT_RANK]


class Item:
    """One CPU call or one GPU operation."""

    __slots__ = ("order", "side", "category", "name", "start", "end", "pid", "tid", "device", "stream", "corr",
                 "sync_kind", "rank", "prefix")

    def __init__(self, side, category, name, start, end, pid, tid=None, device=None, stream=None, corr=None):
        self.order = -1  # input order, set by Trace.finish
        self.side = side
        self.category = category
        self.name = name
        self.start = start
        self.end = end
        self.pid = pid
        self.tid = tid
        self.device = device
        self.stream = stream
        self.corr = corr  # correlation id, None when unknown
        self.sync_kind = None  # for CPU calls: None, "device", "stream", "event" or "memcpy"
        self.rank = 0  # index of the file among several (ranks of one job)
        self.prefix = ""  # "rank R " in lanes when several files are given

    def lane(self):
        if self.side == GPU:
            return "%spid %d GPU %d stream %d" % (self.prefix, self.pid, self.device, self.stream)
        return "%spid %d tid %d %s" % (self.prefix, self.pid, self.tid, self.category)

    def thread_lane(self):
        return "%spid %d tid %d" % (self.prefix, self.pid, self.tid)

    def thread_key(self):
        return (self.rank, self.pid, self.tid)

    def stream_key(self):
        return (self.pid, self.stream)


class Trace:
    """What a loader fills in; `finish` builds the indexes the walk uses."""

    def __init__(self):
        self.calls = []  # CPU calls (Items)
        self.ops = []  # GPU operations (Items)
        self.ranges = []  # (pid, tid, start, end, name): NVTX ranges, PyTorch operators and annotations
        # (pid, corr of a synchronizing call) -> {"stream": S} or {"record_stream": S, "record_corr": C}
        self.sync_facts = {}
        # cudaStreamWaitEvent: (pid, corr of the wait call, waiting stream, record stream, record corr)
        self.stream_waits = []
        self.main_pid_hint = None  # a Kineto trace's process, for GPU operations

    # ---- indexes -----------------------------------------------------------------------------

    def finish(self, rank=0, prefix=""):
        """Builds the indexes. `rank` and `prefix` are set on every item (several files)."""
        self.rank = rank
        base = rank * 10 ** 9  # input order, unique over all files
        for i, it in enumerate(self.calls):
            it.order = base + i
            it.rank, it.prefix = rank, prefix
        for i, it in enumerate(self.ops):
            it.order = base + len(self.calls) + i
            it.rank, it.prefix = rank, prefix
            if it.category == CAT_KERNEL and "nccl" in it.name.lower():
                it.category = CAT_COMM

        # A thread's calls: outermost only.
        by_thread = collections.defaultdict(list)
        for c in self.calls:
            by_thread[(c.pid, c.tid)].append(c)
        self.thread_calls = {}
        self.call_by_corr = {}
        all_by_corr = collections.defaultdict(list)
        for key, lst in by_thread.items():
            lst.sort(key=lambda c: (c.start, -c.end, c.order))
            kept = []
            for c in lst:
                if kept and c.start >= kept[-1].start and c.end <= kept[-1].end and c is not kept[-1]:
                    outer = kept[-1]
                    if c.corr is not None:
                        all_by_corr[(c.pid, c.corr)].append(outer)
                    continue
                kept.append(c)
                if c.corr is not None:
                    all_by_corr[(c.pid, c.corr)].append(c)
            self.thread_calls[key] = kept
        for key, lst in all_by_corr.items():
            # A correlation id names one call; if two outermost calls claim it, the earlier wins.
            self.call_by_corr[key] = min(lst, key=lambda c: (c.start, c.order))
        self.prev_call = {}
        for kept in self.thread_calls.values():
            for a, b in zip(kept, kept[1:]):
                self.prev_call[b] = a
        kept_set = set()
        for kept in self.thread_calls.values():
            kept_set.update(kept)
        self.kept_calls = kept_set

        # GPU operations: the process of a Kineto operation is its launching call's.
        for op in self.ops:
            if op.pid is None:
                call = self._call_any_pid(op.corr) if op.corr is not None else None
                op.pid = call.pid if call is not None else (self.main_pid_hint or 0)

        # Streams: execution order (predecessor) and correlation order (what a record or a
        # synchronization covers).
        by_stream = collections.defaultdict(list)
        for op in self.ops:
            by_stream[op.stream_key()].append(op)
        self.stream_exec = {}
        self.stream_by_corr = {}
        self.stream_corrs = {}
        self.prev_op = {}
        for key, lst in by_stream.items():
            ex = sorted(lst, key=lambda o: (o.start, o.end, o.corr if o.corr is not None else -1, o.order))
            self.stream_exec[key] = ex
            for a, b in zip(ex, ex[1:]):
                self.prev_op[b] = a
            with_corr = sorted((o for o in lst if o.corr is not None), key=lambda o: (o.corr, o.start, o.order))
            self.stream_by_corr[key] = with_corr
            self.stream_corrs[key] = [o.corr for o in with_corr]
        self.streams_of_pid = collections.defaultdict(list)
        for key in sorted(by_stream):
            self.streams_of_pid[key[0]].append(key)
        self.ops_by_corr = collections.defaultdict(list)
        for op in self.ops:
            if op.corr is not None:
                self.ops_by_corr[(op.pid, op.corr)].append(op)

        # Cross-stream dependencies from cudaStreamWaitEvent.
        self.event_dep = {}
        for pid, wait_corr, wait_stream, rec_stream, rec_corr in self.stream_waits:
            producer = self.last_op_before((pid, rec_stream), rec_corr)
            consumer = self.first_op_after((pid, wait_stream), wait_corr)
            if producer is None or consumer is None or producer is consumer:
                continue
            old = self.event_dep.get(consumer)
            # Several waits before one operation: keep the producer that ended last (ties: earlier start).
            if old is None or (producer.end, -producer.start, -producer.order) > (old.end, -old.start, -old.order):
                self.event_dep[consumer] = producer

        # Naming ranges, per thread, by start.
        self.thread_ranges = collections.defaultdict(list)
        for pid, tid, s, e, name in self.ranges:
            if e >= s:
                self.thread_ranges[(pid, tid)].append((s, e, name))
        for lst in self.thread_ranges.values():
            lst.sort()

    def _call_any_pid(self, corr):
        if not hasattr(self, "_corr_any"):
            self._corr_any = {}
            for (pid, c), call in sorted(self.call_by_corr.items(), key=lambda kv: (kv[0][1], kv[0][0])):
                self._corr_any.setdefault(c, call)
        return self._corr_any.get(corr)

    # ---- stream queries ----------------------------------------------------------------------

    def last_op_before(self, stream_key, corr):
        """The last operation enqueued on a stream before correlation id `corr` (the operation an
        event record made at `corr` follows)."""
        corrs = self.stream_corrs.get(stream_key)
        if not corrs:
            return None
        i = bisect.bisect_left(corrs, corr)
        return self.stream_by_corr[stream_key][i - 1] if i > 0 else None

    def first_op_after(self, stream_key, corr):
        corrs = self.stream_corrs.get(stream_key)
        if not corrs:
            return None
        i = bisect.bisect_right(corrs, corr)
        return self.stream_by_corr[stream_key][i] if i < len(corrs) else None

    def last_done_on_stream(self, stream_key, corr_bound, end_bound):
        """Of the operations enqueued on the stream before `corr_bound`, the one that ended last
        at or before `end_bound`. A stream runs its operations in enqueue order, so walking back
        in correlation order the first one that ended by `end_bound` is it."""
        corrs = self.stream_corrs.get(stream_key)
        if not corrs:
            return None
        i = bisect.bisect_left(corrs, corr_bound) - 1
        ops = self.stream_by_corr[stream_key]
        best = None
        while i >= 0:
            op = ops[i]
            if op.end <= end_bound:
                if best is None or better_done(op, best):
                    best = op
                # Earlier operations of the stream ended no later than this one started, unless
                # two share a correlation id (graph node kernels): look at those too.
                if i == 0 or ops[i - 1].corr != op.corr:
                    break
            i -= 1
        return best


def better_done(a, b):
    """Whether GPU operation a ended later than b (ties: earlier start, then lower input order)."""
    return (a.end, -a.start, -a.order) > (b.end, -b.start, -b.order)


# --------------------------------------------------------------------------------------------
# Synchronizing calls.
# --------------------------------------------------------------------------------------------

VERSION_SUFFIX = re.compile(r"_v\d+$")


def base_name(name):
    return VERSION_SUFFIX.sub("", name)


def sync_kind_of(name):
    n = base_name(name)
    if n in ("cudaDeviceSynchronize", "cudaThreadSynchronize", "cuCtxSynchronize"):
        return "device"
    if n in ("cudaStreamSynchronize", "cuStreamSynchronize"):
        return "stream"
    if n in ("cudaEventSynchronize", "cuEventSynchronize"):
        return "event"
    if (n.startswith("cudaMemcpy") or n.startswith("cuMemcpy")) and "Async" not in n:
        return "memcpy"
    return None


def waited_op(trace, call):
    """The last GPU operation a synchronizing call waited for that ended at or before the call
    did, or None."""
    kind = call.sync_kind
    if kind is None or call.corr is None:
        return None
    pid = call.pid
    if kind == "memcpy":
        best = None
        for op in trace.ops_by_corr.get((pid, call.corr), []):
            if op.category == CAT_MEMCPY and op.end <= call.end and (best is None or better_done(op, best)):
                best = op
        return best
    facts = trace.sync_facts.get((pid, call.corr), {})
    if kind == "stream" and facts.get("stream") is not None:
        return trace.last_done_on_stream((pid, facts["stream"]), call.corr, call.end)
    if kind == "event" and facts.get("record_corr") is not None:
        rec_stream, rec_corr = facts["record_stream"], facts["record_corr"]
        return trace.last_done_on_stream((pid, rec_stream), rec_corr, call.end)
    # cudaDeviceSynchronize, or a stream or event synchronization whose stream or event
    # record the report does not give: all GPU work of the process launched before the call.
    best = None
    for key in trace.streams_of_pid.get(pid, []):
        op = trace.last_done_on_stream(key, call.corr, call.end)
        if op is not None and (best is None or better_done(op, best)):
            best = op
    return best


# --------------------------------------------------------------------------------------------
# Loaders.
# --------------------------------------------------------------------------------------------

def valid_id(v):
    """CUPTI writes 0 or 0xFFFFFFFF where an event (sync) id is not known."""
    return v is not None and v != 0 and v != 0xFFFFFFFF


def split_gtid(gtid):
    return (gtid >> 24) & 0xFFFFFF, gtid & 0xFFFFFF


def load_nsys(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}

    def columns(table):
        return {r[1] for r in db.execute("PRAGMA table_info(%s)" % table)}

    strings = dict(db.execute("SELECT id, value FROM StringIds"))
    t = Trace()

    for table in ("CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER"):
        if table not in tables:
            continue
        for s, e, gtid, corr, name_id in db.execute(
                "SELECT start, end, globalTid, correlationId, nameId FROM %s ORDER BY rowid" % table):
            if e is None or gtid is None:
                continue
            pid, tid = split_gtid(gtid)
            c = Item(CPU, CAT_CUDA_API, strings.get(name_id, ""), s, e, pid, tid, corr=corr)
            c.sync_kind = sync_kind_of(c.name)
            t.calls.append(c)
    if "OSRT_API" in tables:
        has_class = "eventClass" in columns("OSRT_API")
        sql = "SELECT start, end, globalTid, nameId, %s FROM OSRT_API ORDER BY rowid" % (
            "eventClass" if has_class else "27")
        for s, e, gtid, name_id, cls in db.execute(sql):
            # eventClass 27 is a call; the other classes mark tracing start/stop.
            if e is None or gtid is None or cls != 27:
                continue
            pid, tid = split_gtid(gtid)
            t.calls.append(Item(CPU, CAT_OS, strings.get(name_id, ""), s, e, pid, tid))
    for table in sorted(x for x in tables if x.startswith("MPI_") and x.endswith("_EVENTS")):
        cols = columns(table)
        if not {"start", "end", "globalTid", "textId"} <= cols:
            continue
        for s, e, gtid, text_id in db.execute("SELECT start, end, globalTid, textId FROM %s ORDER BY rowid" % table):
            if e is None or gtid is None:
                continue
            pid, tid = split_gtid(gtid)
            t.calls.append(Item(CPU, CAT_MPI, strings.get(text_id, ""), s, e, pid, tid))

    copy_labels = {0: "Unknown", 1: "Host-to-Device", 2: "Device-to-Host", 3: "Host-to-Array", 4: "Array-to-Host",
                   5: "Array-to-Array", 6: "Array-to-Device", 7: "Device-to-Array", 8: "Device-to-Device",
                   9: "Host-to-Host", 10: "Peer-to-Peer", 11: "Unified Host-to-Device",
                   12: "Unified Device-to-Host", 13: "Unified Device-to-Device"}
    if "CUPTI_ACTIVITY_KIND_KERNEL" in tables:
        for s, e, dev, stream, corr, gpid, dn, sn in db.execute(
                "SELECT start, end, deviceId, streamId, correlationId, globalPid, demangledName, shortName "
                "FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid"):
            name = strings.get(dn) if dn is not None else strings.get(sn, "")
            t.ops.append(Item(GPU, CAT_KERNEL, name or "", s, e, split_gtid(gpid)[0], device=dev, stream=stream,
                              corr=corr))
    if "CUPTI_ACTIVITY_KIND_MEMCPY" in tables:
        for s, e, dev, stream, corr, gpid, kind in db.execute(
                "SELECT start, end, deviceId, streamId, correlationId, globalPid, copyKind "
                "FROM CUPTI_ACTIVITY_KIND_MEMCPY ORDER BY rowid"):
            t.ops.append(Item(GPU, CAT_MEMCPY, "[CUDA memcpy %s]" % copy_labels.get(kind, "Unknown"), s, e,
                              split_gtid(gpid)[0], device=dev, stream=stream, corr=corr))
    if "CUPTI_ACTIVITY_KIND_MEMSET" in tables:
        for s, e, dev, stream, corr, gpid in db.execute(
                "SELECT start, end, deviceId, streamId, correlationId, globalPid "
                "FROM CUPTI_ACTIVITY_KIND_MEMSET ORDER BY rowid"):
            t.ops.append(Item(GPU, CAT_MEMSET, "[CUDA memset]", s, e, split_gtid(gpid)[0], device=dev, stream=stream,
                              corr=corr))
    if "CUPTI_ACTIVITY_KIND_GRAPH_TRACE" in tables:
        for s, e, dev, stream, corr, gpid, gid, xid in db.execute(
                "SELECT start, end, deviceId, streamId, correlationId, globalPid, graphId, graphExecId "
                "FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE ORDER BY rowid"):
            t.ops.append(Item(GPU, CAT_GRAPH, "CUDA graph %d \u00b7 exec %d" % (gid, xid), s, e, split_gtid(gpid)[0],
                              device=dev, stream=stream, corr=corr))

    # Event records: (pid, eventSyncId) -> (stream, corr); (pid, eventId) -> [(corr, stream)].
    records_by_sync_id = {}
    records_by_event = collections.defaultdict(list)
    if "CUPTI_ACTIVITY_KIND_CUDA_EVENT" in tables:
        # Older exports (baseline_nvtx of the corpus) have no eventSyncId.
        sync_id_col = "eventSyncId" if "eventSyncId" in columns("CUPTI_ACTIVITY_KIND_CUDA_EVENT") else "NULL"
        for stream, corr, gpid, event_id, sync_id in db.execute(
                "SELECT streamId, correlationId, globalPid, eventId, %s "
                "FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT ORDER BY rowid" % sync_id_col):
            pid = split_gtid(gpid)[0]
            if valid_id(sync_id):
                records_by_sync_id[(pid, sync_id)] = (stream, corr)
            records_by_event[(pid, event_id)].append((corr, stream))
    for lst in records_by_event.values():
        lst.sort()

    def record_of(pid, sync_id, event_id, before_corr):
        if valid_id(sync_id) and (pid, sync_id) in records_by_sync_id:
            return records_by_sync_id[(pid, sync_id)]
        lst = records_by_event.get((pid, event_id), [])
        i = bisect.bisect_left(lst, (before_corr, -1)) - 1
        return (lst[i][1], lst[i][0]) if i >= 0 else None

    if "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION" in tables:
        cols = columns("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")
        sync_id_col = "eventSyncId" if "eventSyncId" in cols else "NULL"
        rows = list(db.execute(
            "SELECT streamId, correlationId, globalPid, eventId, %s FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION "
            "ORDER BY rowid" % sync_id_col))
        # The row's syncType is not used: nsys 2025.3 writes 2 (stream wait) for
        # cudaStreamSynchronize too. The API call of the same correlation id says what it is.
        calls_by_corr = {}
        for c in t.calls:
            if c.category == CAT_CUDA_API and c.corr is not None:
                calls_by_corr.setdefault((c.pid, c.corr), c)
        for stream, corr, gpid, event_id, sync_id in rows:
            if corr is None or gpid is None:
                continue
            pid = split_gtid(gpid)[0]
            call = calls_by_corr.get((pid, corr))
            if call is None:
                continue
            n = base_name(call.name)
            valid_stream = stream is not None and stream != 0xFFFFFFFF
            if n in ("cudaStreamWaitEvent", "cuStreamWaitEvent"):
                rec = record_of(pid, sync_id, event_id, corr)
                if rec is not None and valid_stream:
                    t.stream_waits.append((pid, corr, stream, rec[0], rec[1]))
            elif call.sync_kind == "stream" and valid_stream:
                t.sync_facts[(pid, corr)] = {"stream": stream}
            elif call.sync_kind == "event":
                rec = record_of(pid, sync_id, event_id, corr)
                if rec is not None:
                    t.sync_facts[(pid, corr)] = {"record_stream": rec[0], "record_corr": rec[1]}

    if "NVTX_EVENTS" in tables:
        for s, e, etype, text, text_id, gtid in db.execute(
                "SELECT start, end, eventType, text, textId, globalTid FROM NVTX_EVENTS ORDER BY rowid"):
            # 59: push/pop range, 60: start/end range (on the thread that started it).
            if etype not in (59, 60) or e is None or gtid is None:
                continue
            name = text if text is not None else strings.get(text_id, "")
            pid, tid = split_gtid(gtid)
            t.ranges.append((pid, tid, s, e, name))
    return t


def micros_to_ns(v):
    """A Kineto time in microseconds (decimal.Decimal from the JSON text) as integer ns: the text
    rounded to three decimals, half up (away from zero)."""
    if isinstance(v, int):
        return v * 1000
    d = decimal.Decimal(v) * 1000
    return int(d.to_integral_value(rounding=decimal.ROUND_HALF_UP))


KINETO_LANE_CATEGORIES = {"cpu_op", "Operator", "cpu_instant_event", "user_annotation", "python_function",
                          "cuda_runtime", "cuda_driver", "Runtime", "Driver", "kernel", "Kernel", "gpu_memcpy", "Memcpy",
                          "gpu_memset", "Memset", "gpu_user_annotation", "cuda_sync"}
KINETO_COPY_KINDS = [("HtoD", "Host-to-Device"), ("DtoH", "Device-to-Host"), ("HtoA", "Host-to-Array"),
                     ("AtoH", "Array-to-Host"), ("AtoA", "Array-to-Array"), ("AtoD", "Array-to-Device"),
                     ("DtoA", "Device-to-Array"), ("DtoD", "Device-to-Device"), ("HtoH", "Host-to-Host"),
                     ("PtoP", "Peer-to-Peer")]


def kineto_origin(events):
    """The first time of a Kineto trace, which Lanescope's timeline starts at (its importer shifts every time
    by it): the earliest `ts` of the events it shows, X and B events of the categories it files into rows,
    instants (i, I, R) and counter samples (C)."""
    origin = None
    for ev in events:
        ph = ev.get("ph")
        if "ts" not in ev:
            continue
        if ph in ("X", "B"):
            if ev.get("cat") not in KINETO_LANE_CATEGORIES:
                continue
        elif ph == "C":
            if not any(isinstance(v, (int, decimal.Decimal)) and not isinstance(v, bool)
                       for v in (ev.get("args") or {}).values()):
                continue
        elif ph not in ("i", "I", "R"):
            continue
        t = micros_to_ns(ev["ts"])
        origin = t if origin is None else min(origin, t)
    return origin or 0


def load_kineto(path):
    """Times are on Lanescope's timeline of the trace: ns since its first time (kineto_origin). Copies and
    sets are named as the timeline names them ("[CUDA memcpy Host-to-Device]", "[CUDA memset]"), as nsys names
    them."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        doc = json.load(io.TextIOWrapper(f, encoding="utf-8"), parse_float=decimal.Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    origin = kineto_origin(events)
    t = Trace()
    cpu_pid_count = collections.Counter()
    syncs = []
    for ev in events:
        if ev.get("ph") != "X":
            continue
        cat = ev.get("cat")
        if "ts" not in ev:
            continue
        args = ev.get("args") or {}
        start = micros_to_ns(ev["ts"]) - origin
        end = start + max(0, micros_to_ns(ev.get("dur", 0)))
        name = ev.get("name", "")
        pid, tid = ev.get("pid"), ev.get("tid")
        if cat in ("cuda_runtime", "cuda_driver"):
            if not isinstance(pid, int) or not isinstance(tid, int):
                continue
            c = Item(CPU, CAT_CUDA_API, name, start, end, pid, tid, corr=args.get("correlation"))
            c.sync_kind = sync_kind_of(name)
            t.calls.append(c)
            cpu_pid_count[pid] += 1
        elif cat in ("kernel", "gpu_memcpy", "gpu_memset"):
            category = {"kernel": CAT_KERNEL, "gpu_memcpy": CAT_MEMCPY, "gpu_memset": CAT_MEMSET}[cat]
            if cat == "kernel" and name.startswith("Memcpy"):
                category = CAT_MEMCPY  # old traces filed copies and sets under kernel
            elif cat == "kernel" and name.startswith("Memset"):
                category = CAT_MEMSET
            if category == CAT_MEMCPY:
                label = next((text for code, text in KINETO_COPY_KINDS if code in name), "Unknown")
                name = "[CUDA memcpy %s]" % label
            elif category == CAT_MEMSET:
                name = "[CUDA memset]"
            device = args.get("device", pid if isinstance(pid, int) else 0)
            stream = args.get("stream", tid if isinstance(tid, int) else 0)
            t.ops.append(Item(GPU, category, name, start, end, None, device=int(device), stream=int(stream),
                              corr=args.get("correlation")))
        elif cat in ("cpu_op", "user_annotation"):
            if isinstance(pid, int) and isinstance(tid, int):
                t.ranges.append((pid, tid, start, end, name))
        elif cat == "cuda_sync":
            syncs.append(args)
    if cpu_pid_count:
        t.main_pid_hint = min(cpu_pid_count, key=lambda p: (-cpu_pid_count[p], p))
    calls_by_corr = {}
    for c in t.calls:
        if c.corr is not None:
            calls_by_corr.setdefault(c.corr, c)
    for a in syncs:
        corr = a.get("correlation")
        call = calls_by_corr.get(corr)
        if call is None:
            continue
        n = base_name(call.name)
        stream = a.get("stream", -1)
        rec_corr = a.get("wait_on_cuda_event_record_corr_id", -1)
        rec_stream = a.get("wait_on_stream", -1)
        if n in ("cudaStreamWaitEvent", "cuStreamWaitEvent"):
            if stream is not None and stream >= 0 and rec_corr is not None and rec_corr >= 0 and rec_stream >= 0:
                t.stream_waits.append((call.pid, corr, stream, rec_stream, rec_corr))
        elif call.sync_kind == "stream" and stream is not None and stream >= 0:
            t.sync_facts[(call.pid, corr)] = {"stream": stream}
        elif call.sync_kind == "event" and rec_corr is not None and rec_corr >= 0 and rec_stream >= 0:
            t.sync_facts[(call.pid, corr)] = {"record_stream": rec_stream, "record_corr": rec_corr}
    return t


def load(path, rank=0, prefix=""):
    with open(path, "rb") as f:
        head = f.read(16)
    if head.startswith(b"SQLite format 3"):
        t = load_nsys(path)
    else:
        t = load_kineto(path)
    t.finish(rank, prefix)
    return t


# --------------------------------------------------------------------------------------------
# Several ranks: NCCL collectives matched and the reports aligned.
# --------------------------------------------------------------------------------------------

END_TOGETHER = {"AllReduce", "AllGather", "ReduceScatter", "AllToAll"}


def nccl_kind(name):
    """The collective kind an NCCL kernel's name gives, as the Ranks panel reads it
    (analysis/ranks/Collectives.cpp): after "ncclDevKernel_" or "ncclKernel_" anywhere in the name, up to
    the next "_", "(" or "<"; None for other names."""
    for prefix in ("ncclDevKernel_", "ncclKernel_"):
        at = name.find(prefix)
        if at < 0:
            continue
        rest = re.split(r"[_(<]", name[at + len(prefix):], maxsplit=1)[0]
        if rest:
            return rest
    return None


def collectives_by_kind(trace):
    """A rank's NCCL kernels per kind ("AllReduce", ...), in end order (ties: start order), as the Ranks
    panel pairs them (analysis/ranks/RankAlignment.cpp)."""
    out = collections.defaultdict(list)
    for op in sorted(trace.ops, key=lambda o: (o.start, o.end, o.order)):
        kind = nccl_kind(op.name) if op.category == CAT_COMM else None
        if kind:
            out[kind].append(op)
    for lst in out.values():
        lst.sort(key=lambda o: o.end)  # stable: ties keep start order
    return out


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) // 2


def align_ranks(traces):
    """Aligns the ranks as the Ranks panel does with NCCL alignment (analysis/ranks/RankAlignment.h): the
    k-th collective of a kind (in end order) matched on every rank; each rank shifted by the median of
    (reference end - its end) over its matched collectives whose ends coincide (AllReduce, AllGather,
    ReduceScatter, AllToAll; every kind when none matched), the reference being the first file with
    collectives. Returns {op: [the matched ops of all ranks]}: the reference's k-th of a kind with the
    ones matched to it. Only when every rank has NCCL collectives: else the Ranks panel aligns by the
    session clocks, which this script does not read, and nothing is moved or matched (a warning says so).
    The Ranks panel also finds up to 16 collectives a capture missed at its start, with the clocks: this
    script assumes none was missed."""
    kinds = [collectives_by_kind(t) for t in traces]
    if not all(kinds):
        print("critical_path_reference: not every rank has NCCL collectives: ranks not aligned", file=sys.stderr)
        return {}
    ref = 0
    for i, t in enumerate(traces):
        if i == ref:
            continue
        pairs = [(kind, a, b) for kind in kinds[ref] for a, b in zip(kinds[ref][kind], kinds[i].get(kind, []))]
        # (kind, the reference's collective, this rank's): offset = reference end - this end.
        voting = [r.end - m.end for kind, r, m in pairs if kind in END_TOGETHER]
        if not voting:
            voting = [r.end - m.end for _, r, m in pairs]
        if not voting:
            continue
        shift(t, median(voting))
    matches = {}
    for kind, ref_ops in kinds[ref].items():
        for j, op in enumerate(ref_ops):
            group = [op] + [ks[kind][j] for i, ks in enumerate(kinds) if i != ref and j < len(ks.get(kind, []))]
            if len(group) > 1:
                for member in group:
                    matches[member] = group
    return matches


def shift(trace, offset):
    for it in trace.calls + trace.ops:
        it.start += offset
        it.end += offset
    trace.ranges = [(p, t, s + offset, e + offset, n) for p, t, s, e, n in trace.ranges]
    for key, lst in trace.thread_ranges.items():
        trace.thread_ranges[key] = [(s + offset, e + offset, n) for s, e, n in lst]


# --------------------------------------------------------------------------------------------
# The walk.
# --------------------------------------------------------------------------------------------

def main_thread(trace):
    """The thread that owns a range given by times: the main thread (tid == pid) of the process
    with the most CUDA API calls (ties: lower pid); if that thread made no call, the process's
    thread with the most CUDA API calls (ties: lower tid). Without CUDA calls, calls of any kind
    count; without any call, NVTX ranges and PyTorch operators and annotations."""
    counts = collections.Counter()
    for c in trace.kept_calls:
        if c.category == CAT_CUDA_API:
            counts[(c.pid, c.tid)] += 1
    if not counts:
        for c in trace.kept_calls:
            counts[(c.pid, c.tid)] += 1
    if not counts:
        # No call at all (a CPU-only PyTorch trace): the thread with the most naming ranges.
        for key, lst in trace.thread_ranges.items():
            counts[key] += len(lst)
    if not counts:
        return None
    per_pid = collections.Counter()
    for (pid, tid), n in counts.items():
        per_pid[pid] += n
    pid = min(per_pid, key=lambda p: (-per_pid[p], p))
    if (pid, pid) in counts:
        return (pid, pid)
    tid = min((k[1] for k in counts if k[0] == pid), key=lambda x: (-counts[(pid, x)], x))
    return (pid, tid)


def dependencies(trace, item):
    """The dependencies of an item, for the released-last rule (a synchronizing call's GPU
    dependency is handled by the walk itself)."""
    deps = []
    if item.side == CPU:
        prev = trace.prev_call.get(item)
        if prev is not None:
            deps.append(prev)
    else:
        if item.corr is not None:
            launch = trace.call_by_corr.get((item.pid, item.corr))
            if launch is not None:
                deps.append(launch)
        prev = trace.prev_op.get(item)
        if prev is not None:
            deps.append(prev)
        ev = trace.event_dep.get(item)
        if ev is not None and ev is not prev:
            deps.append(ev)
    return deps


def binding(deps, release):
    """The dependency that released the item last: the latest end, an end after `release`
    counting as `release`; ties to a GPU operation, then to the earlier start, then to the
    lower input order."""
    best, best_key = None, None
    for d in deps:
        key = (min(d.end, release), 1 if d.side == GPU else 0, -d.start, -d.order)
        if best_key is None or key > best_key:
            best, best_key = d, key
    return best


def start_item(traces, A, B):
    """The owning thread (of the first trace) and its call that ended last within [A, B] (an end
    after B counting as B; ties: the later start, then the lower input order), or None."""
    owner = main_thread(traces[0])
    calls = traces[0].thread_calls.get(owner, []) if owner else []
    first = None
    for c in calls:
        if c.start < B and c.end > A:
            key = (min(c.end, B), c.start, -c.order)
            if first is None or key > first[0]:
                first = (key, c)
    return owner, (first[1] if first else None)


def critical_path(traces, A, B, matches=None):
    """The critical path of [A, B] over one trace, or several (the ranks of one job, aligned,
    with `matches` from align_ranks). The walk starts on the first trace's owning thread."""
    if B < A:
        raise ValueError("range end before start")
    matches = matches or {}
    # Built backwards: (start, end, category, name, lane, thread of a CPU gap).
    segs = []

    owner, first = start_item(traces, A, B)
    if first is None:
        # No call of the owning thread in the range: all of it is one CPU gap.
        prefix = "rank 0 " if len(traces) > 1 else ""
        lane = (prefix + "pid %d tid %d" % owner) if owner else ""
        thread = (0,) + owner if owner else None
        return finish_segments(traces, [(A, B, CAT_CPU, None, lane, thread)] if B > A else [], A, B)
    item = first
    t = min(item.end, B)
    if B > t:
        segs.append((t, B, CAT_CPU, None, item.thread_lane(), item.thread_key()))

    expanded_syncs = set()
    guard = 4 * sum(len(tr.calls) + len(tr.ops) for tr in traces) + 16
    while t > A:
        guard -= 1
        if guard < 0:
            raise RuntimeError("the walk does not terminate")
        trace = traces[item.rank]
        # A synchronizing call reached at its end: the GPU operation it waited for.
        if item.side == CPU and item.sync_kind and t == item.end and item not in expanded_syncs:
            expanded_syncs.add(item)
            w = waited_op(trace, item)
            if w is not None and w.end > item.start:
                if t > w.end:
                    segs.append((max(w.end, A), t, CAT_SYNC, item.name, item.lane(), None))
                item, t = w, w.end
                continue
        # A collective matched on other ranks: the rank that arrived last released it (ties:
        # this rank, then the lower rank). Its own time from that arrival on is on the path;
        # the walk goes on on that rank from its arrival.
        group = matches.get(item)
        if group:
            last = max(group, key=lambda o: (min(o.start, t), 1 if o is item else 0, -o.rank))
            arrival = min(last.start, t)
            if last is not item and arrival > min(item.start, t):
                if t > max(arrival, A):
                    segs.append((max(arrival, A), t, item.category, item.name, item.lane(), None))
                if arrival <= A:
                    break
                item, t = last, arrival
                continue
        s = min(item.start, t)
        if t > max(s, A):
            segs.append((max(s, A), t, item.category, item.name, item.lane(), None))
        if s <= A:
            break
        dep = binding(dependencies(trace, item), s)
        if dep is None:
            e = A
        else:
            e = min(dep.end, s)
        if s > max(e, A):
            if item.side == CPU:
                segs.append((max(e, A), s, CAT_CPU, None, item.thread_lane(), item.thread_key()))
            else:
                segs.append((max(e, A), s, CAT_LAUNCH, item.name, item.lane(), None))
        if dep is None or e <= A:
            break
        item, t = dep, e
    segs.reverse()
    return finish_segments(traces, segs, A, B)


def finish_segments(traces, segs, A, B):
    """Names the CPU gaps and returns (start, end, category, name, lane) tuples."""
    name_cpu_gaps(traces, segs)
    out = [(s, e, cat, name, lane) for s, e, cat, name, lane, _ in segs]
    check(out, A, B)
    return out


def name_cpu_gaps(traces, segs):
    """A CPU gap is named by the range of its thread (NVTX range, PyTorch operator or annotation)
    that overlaps most of it; ties to the shorter range (the innermost), then the later start,
    then the name. No overlapping range: an empty name. One sweep per thread over its gaps in
    time order and its ranges by start."""
    gaps_by_thread = collections.defaultdict(list)
    for i, sg in enumerate(segs):
        if sg[2] == CAT_CPU:
            gaps_by_thread[sg[5]].append(i)
    for thread, idxs in gaps_by_thread.items():
        rank, pid, tid = thread
        ranges = traces[rank].thread_ranges.get((pid, tid), [])
        idxs.sort(key=lambda i: segs[i][0])
        active = []
        j = 0
        for i in idxs:
            gs, ge = segs[i][0], segs[i][1]
            while j < len(ranges) and ranges[j][0] < ge:
                active.append(ranges[j])
                j += 1
            active = [r for r in active if r[1] > gs]
            best, best_key = "", None
            for rs, re_, name in active:
                overlap = min(re_, ge) - max(rs, gs)
                if overlap <= 0:
                    continue
                key = (overlap, -(re_ - rs), rs, name)
                if best_key is None or key > best_key:
                    best, best_key = name, key
            s, e, cat, _, lane, th = segs[i]
            segs[i] = (s, e, cat, best, lane, th)


def check(segs, A, B):
    pos = A
    for s, e, _, _, _ in segs:
        if s != pos or e <= s:
            raise AssertionError("segments not contiguous at %d: %r" % (pos, (s, e)))
        pos = e
    if pos != B and not (A == B and not segs):
        raise AssertionError("segments end at %d, not %d" % (pos, B))


# --------------------------------------------------------------------------------------------
# What if: scale some items' durations and replay the dependency graph.
# --------------------------------------------------------------------------------------------

def parse_what_if(text):
    regex, sep, factor = text.rpartition("=")
    if not sep or not regex:
        raise ValueError("--what-if wants REGEX=FACTOR")
    f = float(factor)
    if not f > 0:
        raise ValueError("--what-if factor must be positive")
    return re.compile(regex), f


def scaled(duration, factor):
    """A duration made `factor` times faster, to the nearest ns (halves up)."""
    return int(decimal.Decimal(duration) / decimal.Decimal(repr(factor)) + decimal.Decimal("0.5"))


def replay(traces, matches, rules, A):
    """New (start, end) of every item after scaling the durations of the items whose name one
    of `rules` (regex, factor) matches (re.search; the first matching rule applies).

    Items that end at or before A keep their times. Every other item keeps its gap to each
    dependency (the original offset from the binding dependency's end, which may be
    negative where a launch call returned after its kernel started; no more than
    min(0, original offset) after any other dependency's end):
      * a CPU call starts its original gap after the previous call of its thread;
      * a GPU operation starts when its dependencies allow (launch call, stream predecessor,
        event producer); the operation a synchronous memcpy waits for counts from that call's
        start, not its end (the call ends only after it);
      * an item lasts its (scaled) duration, except a synchronizing call that the walk's rule
        binds to a GPU operation W (W ended after the call began): it ends its original Sync
        latency after W's new end (and not before its new start); an unbound synchronizing call
        ends no earlier than W's new end; a matched collective ends its original transfer time
        (end minus the last rank's arrival, scaled with it) after the last new arrival.
    Returns {item: (start, end)}."""
    def factor_of(item):
        for regex, f in rules:
            if regex.search(item.name):
                return f
        return 1.0

    items = []
    for tr in traces:
        items += sorted(tr.kept_calls, key=lambda c: c.order) + tr.ops
    waited = {}
    for it in items:
        if it.side == CPU and it.sync_kind:
            w = waited_op(traces[it.rank], it)
            if w is not None:
                waited[it] = w

    def deps_of(it):
        return dependencies(traces[it.rank], it)

    def self_waiting_launch(op, dep):
        return dep.side == CPU and waited.get(dep) is op

    # Node ("s", item) is the new start, ("e", item) the new end; compute in dependency order.
    def needs(node):
        kind, it = node
        if it.end <= A:
            return []
        if kind == "s":
            out = []
            for d in deps_of(it):
                out.append(("s", d) if self_waiting_launch(it, d) else ("e", d))
            return out
        out = [("s", it)]
        if it in waited:
            out.append(("e", waited[it]))
        for y in matches.get(it, []):
            if y is not it:
                out.append(("s", y))
        return out

    value = {}
    for it in items:
        for root in (("s", it), ("e", it)):
            if root in value:
                continue
            stack = [(root, False)]
            on_stack = set()
            while stack:
                node, ready = stack.pop()
                if node in value:
                    continue
                if not ready:
                    if node in on_stack:
                        raise RuntimeError("dependency cycle at %s %s" % (node[0], node[1].name))
                    on_stack.add(node)
                    stack.append((node, True))
                    for n in needs(node):
                        if n not in value:
                            stack.append((n, False))
                    continue
                on_stack.discard(node)
                value[node] = evaluate(node, value, deps_of, waited, matches, factor_of, self_waiting_launch, A)
    return {it: (value[("s", it)], value[("e", it)]) for it in items}


def evaluate(node, value, deps_of, waited, matches, factor_of, self_waiting_launch, A):
    kind, it = node
    if it.end <= A:
        return it.start if kind == "s" else it.end
    if kind == "s":
        deps = deps_of(it)
        if not deps:
            return it.start
        bind = binding(deps, it.start)
        best = None
        for d in deps:
            if self_waiting_launch(it, d):
                t = value[("s", d)] + (it.start - d.start)
            elif d is bind:
                t = value[("e", d)] + (it.start - d.end)
            else:
                t = value[("e", d)] + min(0, it.start - d.end)
            best = t if best is None else max(best, t)
        return best
    start = value[("s", it)]
    f = factor_of(it)
    if it in waited:
        w = waited[it]
        if w.end > it.start:  # bound: the walk's Sync latency rule
            return max(start, value[("e", w)] + (it.end - w.end))
        return max(start + scaled(it.end - it.start, f), value[("e", w)])
    group = matches.get(it)
    if group:
        arrival = max(y.start for y in group)
        if arrival > it.start:
            transfer = scaled(max(0, it.end - arrival), f)
            return max(start, max(value[("s", y)] for y in group) + transfer)
    return start + scaled(it.end - it.start, f)


def what_if(traces, matches, rules, A, B):
    """The replayed traces' path over [A, B'], B' being B moved as the walk's first item moved.
    Returns (B', segments). The items' times are replaced by their replayed times."""
    _, first = start_item(traces, A, B)
    times = replay(traces, matches, rules, A)
    new_B = B if first is None else times[first][1] + (B - first.end)
    for it, (s, e) in times.items():
        it.start, it.end = s, e
    if new_B <= A:
        return new_B, []
    return new_B, critical_path(traces, A, new_B, matches)


# --------------------------------------------------------------------------------------------
# Output.
# --------------------------------------------------------------------------------------------

def report_bounds(traces):
    starts, ends = [], []
    for trace in traces:
        starts += [x.start for x in trace.calls] + [x.start for x in trace.ops] + [r[2] for r in trace.ranges]
        ends += [x.end for x in trace.calls] + [x.end for x in trace.ops] + [r[3] for r in trace.ranges]
    if not starts:
        raise ValueError("no events")
    return min(starts), max(ends)


def by_category(segs):
    totals = collections.OrderedDict((c, 0) for c in ALL_CATEGORIES)
    for s, e, cat, _, _ in segs:
        totals[cat] += e - s
    return totals


def by_name(segs, top=50):
    totals = collections.Counter()
    for s, e, cat, name, _ in segs:
        totals[(cat, name)] += e - s
    rows = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0][0], kv[0][1]))[:top]
    return [{"category": c, "name": n, "ns": v} for (c, n), v in rows]


def write_csv(segs, out, several=False):
    """With several files a Rank column follows (CLI.md: `...,Lane[,Rank]`)."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["Start (ns)", "End (ns)", "Duration (ns)", "Category", "Name", "Lane"] + (["Rank"] if several else []))
    for s, e, cat, name, lane in segs:
        w.writerow([s, e, e - s, cat, name, lane] + ([rank_of_lane(lane)] if several else []))


def rank_of_lane(lane):
    return int(re.match(r"rank (\d+) ", lane).group(1))


def segment_json(seg, several):
    s, e, c, n, l = seg
    doc = {"start_ns": s, "end_ns": e, "category": c, "name": n, "lane": l}
    if several:
        doc["rank"] = rank_of_lane(l)
    return doc


def write_json(segs, A, B, out, what_if_result=None, several=False):
    doc = {
        "range": [A, B],
        "length_ns": B - A,
        "by_category": {k: v for k, v in by_category(segs).items() if v},
        "by_name": by_name(segs),
        "segments": [segment_json(sg, several) for sg in segs],
    }
    if what_if_result is not None:
        new_B, new_segs = what_if_result
        doc["what_if_length_ns"] = new_B - A
        doc["what_if"] = {"range": [A, new_B],
                          "by_category": {k: v for k, v in by_category(new_segs).items() if v},
                          "by_name": by_name(new_segs)}
    json.dump(doc, out, indent=1, ensure_ascii=False)
    out.write("\n")


def parse_range(text):
    m = re.fullmatch(r"\s*(-?\d+)\s*:\s*(-?\d+)\s*", text)
    if not m:
        raise ValueError("--range wants START_NS:END_NS")
    return int(m.group(1)), int(m.group(2))


def main(argv=None):
    p = argparse.ArgumentParser(description="Critical path of a time range (reference implementation).")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="Nsight Systems SQLite export, or PyTorch profiler trace (.json, .json.gz); several "
                        "files are the ranks of one job, rank 0 first")
    p.add_argument("--range", dest="range", help="START_NS:END_NS on the (first) report's clock (default: whole "
                                                 "report)")
    p.add_argument("--format", choices=("csv", "json"), default="csv")
    p.add_argument("--what-if", dest="what_if", action="append", default=[], metavar="REGEX=FACTOR",
                   help="make the items whose name REGEX matches (re.search) FACTOR times faster and replay; "
                        "the JSON adds what_if_length_ns and the new path's totals (repeatable; the first "
                        "matching rule applies)")
    a = p.parse_args(argv)
    try:
        several = len(a.files) > 1
        traces = [load(f, i, "rank %d " % i if several else "") for i, f in enumerate(a.files)]
        matches = align_ranks(traces) if several else {}
        A, B = parse_range(a.range) if a.range else report_bounds(traces)
        segs = critical_path(traces, A, B, matches)
        result = what_if(traces, matches, [parse_what_if(w) for w in a.what_if], A, B) if a.what_if else None
    except (ValueError, OSError, sqlite3.Error, json.JSONDecodeError, KeyError, re.error) as e:
        print("critical_path_reference: %s" % e, file=sys.stderr)
        return 2
    if a.format == "csv":
        write_csv(segs, sys.stdout, several)
    else:
        write_json(segs, A, B, sys.stdout, result, several)
    return 0


if __name__ == "__main__":
    sys.exit(main())
