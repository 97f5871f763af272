"""The ``learned`` bot's network in torch, its training step and its export to the
``.npz`` that :class:`erqishi.bots.learned.LearnedNet` reads (same layout, same maths)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn

from erqishi.bots.learned import FEATURE_VERSION, N_ACTION, N_STATE

__all__ = ["QNet", "export_npz", "losses"]


class QNet(nn.Module):
    """Q(state, action) = scale * (V(z) + A(z, a)), z = relu(l2(relu(l1(s)))) (the module
    text of :mod:`erqishi.bots.learned`).

    Args:
        h1, h2, h3: hidden widths.
        scale: score units per network unit.
    """

    def __init__(self, h1: int = 128, h2: int = 64, h3: int = 128, scale: float = 10.0) -> None:
        super().__init__()
        self.h1, self.h2, self.h3, self.scale = h1, h2, h3, scale
        self.l1 = nn.Linear(N_STATE, h1)
        self.l2 = nn.Linear(h1, h2)
        self.v = nn.Linear(h2, 1)
        self.lz = nn.Linear(h2, h3, bias=False)
        self.la = nn.Linear(N_ACTION, h3)
        self.o = nn.Linear(h3, 1)

    def forward(self, s: torch.Tensor, a: torch.Tensor, owner: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(V per decision [B], A per action [K]) in network units; ``s`` [B, N_STATE],
        ``a`` [K, N_ACTION], ``owner`` [K] the decision of each action."""
        z = torch.relu(self.l2(torch.relu(self.l1(s))))
        v = self.v(z).squeeze(-1)
        u = torch.relu(self.lz(z)[owner] + self.la(a))
        return v, self.o(u).squeeze(-1)

    def q(self, s: torch.Tensor, a: torch.Tensor, owner: torch.Tensor) -> torch.Tensor:
        """Q per action [K] in score units."""
        v, adv = self(s, a, owner)
        q: torch.Tensor = self.scale * (v[owner] + adv)
        return q


def losses(
    net: QNet, s: torch.Tensor, a: torch.Tensor, owner: torch.Tensor, t: torch.Tensor, clip: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """(value loss, advantage loss), mean squared errors in network units: V against the
    mean target of its decision, A against each target less that mean; targets ``t``
    (score units) are divided by ``net.scale`` and clipped to ``±clip``."""
    y = torch.clamp(t / net.scale, -clip, clip)
    b = s.shape[0]
    sums = torch.zeros(b).index_add_(0, owner, y)
    counts = torch.zeros(b).index_add_(0, owner, torch.ones_like(y))
    mean = sums / counts.clamp(min=1)
    v, adv = net(s, a, owner)
    return torch.mean((v - mean) ** 2), torch.mean((adv - (y - mean[owner])) ** 2)


def export_npz(net: QNet, path: str | Path) -> None:
    """Write the weights in :class:`erqishi.bots.learned.LearnedNet`'s layout (float32,
    input-major matrices)."""

    def arr(t: torch.Tensor) -> np.ndarray:
        return np.ascontiguousarray(t.detach().cpu().numpy(), dtype=np.float32)

    meta = np.array([FEATURE_VERSION, N_STATE, N_ACTION, net.h1, net.h2, net.h3, net.scale], dtype=np.float32)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(
        tmp,
        W1=arr(net.l1.weight.T),
        b1=arr(net.l1.bias),
        W2=arr(net.l2.weight.T),
        b2=arr(net.l2.bias),
        wv=arr(net.v.weight[0]),
        bv=arr(net.v.bias),
        Wz=arr(net.lz.weight.T),
        Wa=arr(net.la.weight.T),
        ba=arr(net.la.bias),
        wo=arr(net.o.weight[0]),
        bo=arr(net.o.bias),
        meta=meta,
    )
    tmp.replace(path)
