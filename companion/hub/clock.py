"""Mapping the hub's microsecond clock onto the host's monotonic clock.

Each HELLO and heartbeat is a sample: the hub's time when it sent the frame, and the
host's time when the frame arrived. Arrival is always late, by the USB transfer plus
however long Linux took to run the reader thread: a few microseconds when idle, tens of
milliseconds when the CPU is busy. Those delays are never negative, so the truth lies on
the lower edge of the cloud of samples. The map is the line below every sample that
hugs them closest (the lower convex hull's edge under their mean): one prompt sample in
a while pins it down, and late ones cannot pull it up.

The slope is the hub crystal's drift against the host clock (tens of ppm for the Pico's
crystal); it is only estimated once the samples span ``min_span`` seconds, and never
beyond ``max_drift``.
"""

from __future__ import annotations

from collections import deque


class ClockMap:
    """Host seconds for a hub microsecond timestamp, from (hub_us, host_s) samples."""

    def __init__(
        self, *, window: float = 300.0, min_span: float = 10.0, max_drift: float = 500e-6
    ) -> None:
        self.window = window
        self.min_span = min_span
        self.max_drift = max_drift
        # (hub seconds, host seconds - hub seconds): working with the offset keeps the
        # numbers small and the slope near zero.
        self._samples: deque[tuple[float, float]] = deque()
        self._x0 = 0.0
        self._y0 = 0.0
        self._slope = 0.0

    @property
    def ready(self) -> bool:
        return bool(self._samples)

    @property
    def drift(self) -> float:
        """Host seconds gained per hub second, minus one (e.g. 3e-5 for 30 ppm)."""
        return self._slope

    def add(self, hub_us: int, host_s: float) -> None:
        x = hub_us / 1e6
        sample = (x, host_s - x)
        samples = self._samples
        if samples and x < samples[-1][0]:
            # Out of order (never from a single hub boot, but cheap to honour).
            items = sorted([*samples, sample])
            samples.clear()
            samples.extend(items)
        else:
            samples.append(sample)
        newest = samples[-1][0]
        while newest - samples[0][0] > self.window:
            samples.popleft()
        self._fit()

    def to_host(self, hub_us: int) -> float:
        """Host monotonic seconds at which the hub's clock read ``hub_us``."""
        if not self._samples:
            raise LookupError("no clock sample from the hub yet")
        x = hub_us / 1e6
        return x + self._y0 + self._slope * (x - self._x0)

    def _fit(self) -> None:
        points = list(self._samples)
        span = points[-1][0] - points[0][0]
        if len(points) == 1 or span < self.min_span:
            low = min(points, key=lambda p: p[1])
            self._x0, self._y0, self._slope = low[0], low[1], 0.0
            return
        hull = _lower_hull(points)
        mean_x = sum(p[0] for p in points) / len(points)
        k = 1
        while k < len(hull) - 1 and hull[k][0] < mean_x:
            k += 1
        (xa, ya), (xb, yb) = hull[k - 1], hull[k]
        slope = (yb - ya) / (xb - xa) if xb > xa else 0.0
        if abs(slope) > self.max_drift:
            # Implausible for a crystal: keep the offset, distrust the slope.
            low = min(points, key=lambda p: p[1])
            self._x0, self._y0, self._slope = low[0], low[1], 0.0
            return
        self._x0, self._y0, self._slope = xa, ya, slope


def _lower_hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Andrew's monotone chain, lower half, for points already sorted by x."""
    hull: list[tuple[float, float]] = []
    for p in points:
        while len(hull) >= 2:
            (ax, ay), (bx, by) = hull[-2], hull[-1]
            if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) <= 0:
                hull.pop()
            else:
                break
        hull.append(p)
    return hull
