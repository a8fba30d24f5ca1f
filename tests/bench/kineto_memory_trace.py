"""A synthetic PyTorch profiler trace for timing the memory view (lanescope-bench pytorch,
docs/analyses.md "PyTorch memory"): about EVENTS events, a fifth of them cpu_op operators on two
threads, each holding two allocations ([memory] instants as profile_memory=True writes them)
of a random block, and up to two frees of earlier blocks (1% never freed).

usage: python3 tests/bench/kineto_memory_trace.py EVENTS OUT.json"""
import random
import sys

events = int(sys.argv[1])
out = open(sys.argv[2], "w")
rng = random.Random(1)
ops = events // 5
out.write('{"traceEvents": [\n')
first = True
allocated = reserved = 0
live = []
ts = 1_000_000.0
def w(text):
    global first
    out.write(("" if first else ",\n") + text)
    first = False
for i in range(ops):
    tid = 10 + (i & 1)
    w('{"ph": "X", "cat": "cpu_op", "name": "aten::op%d", "pid": 1, "tid": %d, "ts": %.3f, "dur": 8.000}' % (i % 50, tid, ts))
    for k in range(2):
        size = 512 * rng.randint(1, 4096)
        addr = 0x7f0000000000 + rng.randrange(1 << 20) * 512
        allocated += size
        reserved = max(reserved, allocated + (1 << 24))
        live.append((addr, size))
        w('{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": %d, "ts": %.3f, '
          '"args": {"Total Reserved": %d, "Total Allocated": %d, "Bytes": %d, "Device Id": 0, "Device Type": 1, '
          '"Addr": %d}}' % (tid, ts + 1 + 2 * k, reserved, allocated, size, addr))
    for k in range(2):
        if len(live) > 100 and rng.random() < 0.99:
            addr, size = live.pop(rng.randrange(len(live)))
            allocated -= size
            w('{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": %d, "ts": %.3f, '
              '"args": {"Total Reserved": %d, "Total Allocated": %d, "Bytes": %d, "Device Id": 0, "Device Type": 1, '
              '"Addr": %d}}' % (tid, ts + 5 + k, reserved, allocated, -size, addr))
    ts += 10.0
out.write("\n]}\n")
