"""What the table's signature and the PIN's KDF cost (issue 13's budgets).

1. sealing one record (canonical JSON once, SHA-256, Ed25519 signature): unsigned vs signed,
   median of many, CPU time per record. Budget: signing <= 1 ms per record on this machine.
2. ``JournalWriter.append`` (sealed, written, fdatasynced) unsigned vs signed, p50/p99: the
   journal path's latency (bench/latency.py measures the whole edge -> disk path).
3. ``companion verify`` reading signed records (chain + every signature), records per second.
4. One scrypt derivation of a PIN at the stored cost, and what searching all 6-digit PINs
   costs (target: >= 10 CPU-hours).

Run: ``.venv/bin/python bench/signing.py``
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from companion import journal
from companion.arbiter.pin import DEFAULT_N, DEFAULT_P, DEFAULT_R, hash_pin, parse_pin_hash
from companion.keys import SigningKey
from companion.verify import verify_path

BODY = {"t": 1234.567, "ev": "release", "glass": "r2", "to": "c3", "wall": 1790000000.123,
        "src": "table"}


def seal_cost(n: int = 20000) -> tuple[float, float]:
    key = SigningKey.generate()
    prev = journal.GENESIS
    out = []
    for signer in (None, key):
        times = []
        for seq in range(n):
            t0 = time.process_time_ns()
            journal.seal(BODY, seq, prev, signer)
            times.append(time.process_time_ns() - t0)
        out.append(statistics.mean(times) / 1000.0)
    return out[0], out[1]


def append_latency(tmp: Path, n: int = 400) -> dict[str, tuple[float, float]]:
    key = SigningKey.generate()
    result = {}
    for name, signer in (("unsigned", None), ("signed", key)):
        path = tmp / f"{name}.jsonl"
        times = []
        with journal.JournalWriter.create(path, {"game": "tamsk"}, signer) as w:
            for _ in range(n):
                t0 = time.perf_counter()
                w.append(BODY)
                times.append(time.perf_counter() - t0)
        times.sort()
        result[name] = (times[len(times) // 2] * 1000, times[int(len(times) * 0.99)] * 1000)
    return result


def verify_rate(tmp: Path, n: int = 20000) -> float:
    key = SigningKey.generate()
    path = tmp / "big.jsonl"
    header = {"game": "tamsk", "level": 1, "ruleset": "adjusted", "table": 1}
    with journal.JournalWriter.create(path, header, key) as w:
        for i in range(n):
            w.append({"t": float(i), "ev": "note", "text": "x"})
    t0 = time.process_time()
    verdict = verify_path(path, key=key.public)
    spent = time.process_time() - t0
    assert verdict.ok, verdict.report()
    return (n + 1) / spent


def scrypt_cost(rounds: int = 5) -> float:
    stored = parse_pin_hash(hash_pin("123456"))
    times = []
    for _ in range(rounds):
        t0 = time.process_time()
        stored.derive("654321")
        times.append(time.process_time() - t0)
    return statistics.median(times)


def main() -> None:
    unsigned, signed = seal_cost()
    print(f"seal one record: unsigned {unsigned:.1f} us, signed {signed:.1f} us "
          f"(the signature: {signed - unsigned:.1f} us; budget 1000 us)")
    with tempfile.TemporaryDirectory() as d:
        lat = append_latency(Path(d))
        for name, (p50, p99) in lat.items():
            print(f"append + fdatasync, {name}: p50 {p50:.3f} ms  p99 {p99:.3f} ms")
        rate = verify_rate(Path(d))
        print(f"verify (chain + every signature + rules): {rate:,.0f} records/s")
    one = scrypt_cost()
    hours = one * 1_000_000 / 3600
    print(f"scrypt N={DEFAULT_N} r={DEFAULT_R} p={DEFAULT_P}: {one * 1000:.0f} ms per PIN; "
          f"all 6-digit PINs: {hours:.1f} CPU-hours (target >= 10)")


if __name__ == "__main__":
    main()
