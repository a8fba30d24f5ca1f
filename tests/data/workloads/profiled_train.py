"""A small PyTorch training run recorded by torch.profiler with every optional part on:
steps (schedule + prof.step()), record_shapes, profile_memory, with_stack, with_modules, and a
multi-process DataLoader. Writes OUT_gpu.pt.trace.json (skipped when the second argument is
"cpu"), and OUT_cpu.pt.trace.json with the CPU only and no optional parts. Run: python3 profiled_train.py OUT [cpu]"""
import sys
import torch
import torch.nn as nn
from torch.profiler import profile, schedule, ProfilerActivity

out = sys.argv[1]
torch.manual_seed(0)


class Images(torch.utils.data.Dataset):
    def __len__(self):
        return 4096

    def __getitem__(self, i):
        return torch.randn(3, 32, 32), i % 10


class Block(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.norm = nn.BatchNorm2d(cout)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(Block(3, 32), nn.MaxPool2d(2), Block(32, 64), nn.MaxPool2d(2))
        self.head = nn.Linear(64 * 8 * 8, 10)

    def forward(self, x):
        return self.head(torch.flatten(self.features(x), 1))


def train(device, steps, prof):
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = torch.utils.data.DataLoader(Images(), batch_size=64, num_workers=2)
    for i, (x, y) in enumerate(loader):
        if i == steps:
            break
        x, y = x.to(device), y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        prof.step()


if sys.argv[2:] != ["cpu"]:
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=1, warmup=1, active=6), record_shapes=True, profile_memory=True,
                 with_stack=True, with_modules=True) as prof:
        train(torch.device("cuda"), 8, prof)
        torch.cuda.synchronize()
    prof.export_chrome_trace(f"{out}_gpu.pt.trace.json")

with profile(activities=[ProfilerActivity.CPU]) as prof:
    train(torch.device("cpu"), 4, prof)
prof.export_chrome_trace(f"{out}_cpu.pt.trace.json")
