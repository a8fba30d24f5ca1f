"""One process driving two GPUs (a two-stage pipeline: stage 0 on cuda:0, stage 1 on cuda:1),
with NVTX ranges per step and phase; recorded by nsys between cudaProfilerStart and Stop.
Run: python3 two_gpus_one_process.py"""
import torch, torch.nn as nn
torch.manual_seed(0)
a = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).to("cuda:0")
b = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).to("cuda:1")
opt = torch.optim.SGD(list(a.parameters()) + list(b.parameters()), lr=1e-3)
x = torch.randn(256, 1024, device="cuda:0"); t = torch.randn(256, 1024, device="cuda:1")
def step(i):
    with torch.cuda.nvtx.range(f"step {i}"):
        with torch.cuda.nvtx.range("stage0"):
            h = a(x)
        with torch.cuda.nvtx.range("transfer"):
            h = h.to("cuda:1", non_blocking=True)
        with torch.cuda.nvtx.range("stage1"):
            loss = ((b(h) - t) ** 2).mean()
        with torch.cuda.nvtx.range("backward"):
            loss.backward()
        with torch.cuda.nvtx.range("optimizer"):
            opt.step(); opt.zero_grad()
        torch.cuda.synchronize("cuda:0"); torch.cuda.synchronize("cuda:1")
for i in range(3): step(i)
torch.cuda.cudart().cudaProfilerStart()
for i in range(8): step(i)
torch.cuda.synchronize("cuda:0"); torch.cuda.synchronize("cuda:1")
torch.cuda.cudart().cudaProfilerStop()
