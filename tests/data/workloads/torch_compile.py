"""A small PyTorch 2 training run as people record it today: the model under torch.compile
(Triton kernels, launched through the CUDA driver API), and with mode "graphs" under
torch.compile(mode="reduce-overhead") (the same, replayed as CUDA graphs). NVTX ranges per step
and phase; the measured part lies between cudaProfilerStart and cudaProfilerStop, after the
compilation. Run: python3 torch_compile.py default|graphs [STEPS]"""
import sys
import torch
import torch.nn as nn

mode = sys.argv[1]
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
torch.manual_seed(0)
dev = "cuda"


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x))))


model = nn.Sequential(*[Block(512) for _ in range(4)]).to(dev)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
compiled = torch.compile(model, mode="reduce-overhead" if mode == "graphs" else "default")
x = torch.randn(128, 64, 512, device=dev)
target = torch.randn(128, 64, 512, device=dev)


def step(i):
    with torch.cuda.nvtx.range(f"step {i}"):
        with torch.cuda.nvtx.range("forward"):
            loss = ((compiled(x) - target) ** 2).mean()
        with torch.cuda.nvtx.range("backward"):
            loss.backward()
        with torch.cuda.nvtx.range("optimizer"):
            opt.step()
            opt.zero_grad(set_to_none=True)
        return loss


for i in range(4):  # compiles, and records the graphs of "reduce-overhead"
    step(i)
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
for i in range(steps):
    loss = step(i)
print(f"loss {loss.item():.4f}")
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
