"""The model of torch_compile.py under torch.compile, recorded by torch.profiler (CPU and CUDA,
record_shapes, with_stack, profile_memory; schedule wait 1, warmup 1, active 6) instead of nsys.
Run: python3 torch_compile_kineto.py default|graphs OUT.pt.trace.json"""
import sys, torch, torch.nn as nn
from torch.profiler import profile, ProfilerActivity, schedule
mode, out = sys.argv[1], sys.argv[2]
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, w):
        super().__init__(); self.norm = nn.LayerNorm(w); self.up = nn.Linear(w, 4 * w); self.down = nn.Linear(4 * w, w)
    def forward(self, x): return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x))))
model = nn.Sequential(*[Block(512) for _ in range(4)]).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
compiled = torch.compile(model, mode="reduce-overhead" if mode == "graphs" else "default")
x = torch.randn(128, 64, 512, device="cuda"); t = torch.randn(128, 64, 512, device="cuda")
def step():
    loss = ((compiled(x) - t) ** 2).mean(); loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
for _ in range(4): step()
torch.cuda.synchronize()
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True, with_stack=True,
             schedule=schedule(wait=1, warmup=1, active=6), profile_memory=True) as prof:
    for _ in range(8):
        step(); prof.step()
prof.export_chrome_trace(out)
print("written", out)
