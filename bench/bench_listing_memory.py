"""Benchmark: the memory the listing of the ignored folders takes (relay.observe.ignored_walk), kept for a whole run.

Not a test. Run from the repository root:

    python bench/bench_listing_memory.py                         # 200k and 1M folders
    python bench/bench_listing_memory.py --folders 50000 --dir /var/tmp

For each size it builds a ``node_modules`` of that many folders (packages of nested folders, a ``package.json`` and
an ``index.js`` per package, a module at the end of each branch: a real tree under ``--dir``, /dev/shm by default,
about 1 GB of memory for a million folders, given back at the end), then, in a fresh Python process, lists it as the
relay does beside a run (``ignored_walk._list``, on this thread) and prints:

- ``listed``: the folders the listing kept (it stops at ``LISTING_MAX`` folders, and at ``LISTING_BYTES_MAX`` bytes
  where there is such a bound: then the look after the run walks them all, as before the listing);
- ``rss`` and ``peak``: the growth of the process's resident memory from before the listing to after it (the listing
  still held: what a relay carries while the worker runs), and at its highest; ``B/folder``: the peak per folder;
- ``held`` and ``peak held``: what the listing's own objects take at the end and at their highest (tracemalloc, in a
  second pass), and the peak per folder;
- ``cpu``: the listing's CPU ms.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

__all__ = ["main"]

_CHILD = r"""
import gc, json, os, resource, sys, time, tracemalloc
import psutil
sys.path.insert(0, sys.argv[2])
from relay.observe import ignored_walk

def once(trace):
    job = ignored_walk._Job()
    gc.collect()
    if trace:
        tracemalloc.start()
    rss = psutil.Process().memory_info().rss
    cpu = time.thread_time()
    ignored_walk._list([(sys.argv[1], "node_modules")], job)
    cpu = (time.thread_time() - cpu) * 1000
    gc.collect()
    grown = psutil.Process().memory_info().rss - rss
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - rss  # Linux: KB
    held = tracemalloc.get_traced_memory() if trace else None
    if trace:
        tracemalloc.stop()
    listing = job.listing
    return listing, (grown, peak), held, cpu

listing, (grown, peak), _held, cpu = once(False)
listed = len(listing.folders) if listing else 0
places = len(listing.places) if listing else 0
del listing
gc.collect()
_l, _g, held, _c = once(True)
print(json.dumps({"listed": listed, "places": places, "rss": grown, "peak": peak, "held": held[0],
                  "held_peak": held[1], "cpu_ms": cpu, "cut": _l is None}))
"""


def _build(top: Path, folders: int) -> None:
    """``folders`` folders under ``top/node_modules``: packages of 21 folders each (5 branches 4 deep), a
    ``package.json`` and an ``index.js`` in each package, a module at the end of each branch."""
    made = 0
    package = 0
    base = os.path.join(top, "node_modules")
    os.mkdir(base)
    while made < folders:
        pkg = os.path.join(base, f"pkg-{package:06d}")
        os.mkdir(pkg)
        for name in ("package.json", "index.js"):
            with open(os.path.join(pkg, name), "w", encoding="utf-8") as fh:
                fh.write("{}\n")
        made += 1
        for branch in range(5):
            path = pkg
            for depth in range(4):
                if made >= folders:
                    break
                path = os.path.join(path, f"lib{branch}" if depth == 0 else f"part{depth}")
                os.mkdir(path)
                made += 1
            with open(os.path.join(path, "mod.js"), "w", encoding="utf-8") as fh:
                fh.write("x\n")
        package += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folders", default="200000,1000000", help="sizes, comma-separated")
    parser.add_argument("--dir", default="/dev/shm" if os.path.isdir("/dev/shm") else None,
                        help="where to build the trees (default: /dev/shm where there is one: a million folders on a "
                        "disk take minutes to make and remove; else the system's temp dir)")
    args = parser.parse_args(argv)
    print(f"{'folders':>9} {'listed':>9} {'rss MB':>7} {'peak MB':>8} {'B/folder':>8} {'held MB':>8} "
          f"{'peak held MB':>12} {'B/folder':>8} {'cpu ms':>7}")
    for size in (int(s) for s in args.folders.split(",")):
        top = Path(tempfile.mkdtemp(prefix="relay-listing-", dir=args.dir))
        try:
            started = time.monotonic()
            _build(top, size)
            built = time.monotonic() - started
            out = subprocess.run([sys.executable, "-c", _CHILD, str(top), str(ROOT)], check=True, capture_output=True,
                                 text=True, encoding="utf-8").stdout
            got = json.loads(out.strip().splitlines()[-1])
            mb = 2 ** 20
            print(f"{size:>9,} {got['listed']:>9,} {got['rss'] / mb:>7.1f} {got['peak'] / mb:>8.1f} "
                  f"{got['peak'] / size:>8.0f} {got['held'] / mb:>8.1f} {got['held_peak'] / mb:>12.1f} "
                  f"{got['held_peak'] / size:>8.0f} {got['cpu_ms']:>7.0f}"
                  f"{'  (cut: dropped, the look walks them all)' if got['cut'] else ''}   [tree built in {built:.0f} s]",
                  flush=True)
        finally:
            shutil.rmtree(top, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
