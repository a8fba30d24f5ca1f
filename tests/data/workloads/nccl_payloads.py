"""NCCL's NVTX extended payloads in one small capture: a one-rank NCCL communicator created while
Nsight Systems records (its ncclCommInitRankConfig range carries the "No. of ranks" payload), then
an all-reduce of each reduction, a broadcast, an all-gather and a reduce-scatter (which NCCL left
without a range on one rank), then the communicator's finalization and destruction.

nsys profile -t cuda,nvtx -s none --cpuctxsw=none -o nccl_payloads python3 nccl_payloads.py
(then QdstrmImporter and nsys export --type=sqlite --include-blobs=true: tests/data/README.md)
"""
import os

import torch
import torch.distributed as dist

os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29517")
torch.cuda.set_device(0)
dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda", 0))
t = torch.ones(1024, device="cuda")
for op in (dist.ReduceOp.SUM, dist.ReduceOp.PRODUCT, dist.ReduceOp.MAX, dist.ReduceOp.MIN, dist.ReduceOp.AVG):
    dist.all_reduce(t, op=op)
dist.broadcast(t, src=0)
gathered = torch.empty(1024, device="cuda")
dist.all_gather_into_tensor(gathered, t)
scattered = torch.empty(1024, device="cuda")
dist.reduce_scatter_tensor(scattered, t)
torch.cuda.synchronize()
dist.destroy_process_group()
