#!/usr/bin/env python3
"""Summarise a py-spy collapsed-stack file (``py-spy record --format raw``), such as the ones
``submit_to_projector.py --profile DIR`` writes: the share of samples in each function,
inclusive and self, and what a chosen function calls.

    python bench/stack_summary.py DIR/server-1000.txt
    python bench/stack_summary.py DIR/server-1000.txt --callees "Service.fan_out" --top 15
"""

from __future__ import annotations

import argparse
import collections
import re
import sys


def load(path: str) -> list[tuple[list[str], int]]:
    stacks = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack or not count.isdigit():
                continue
            # "func (file:line)" -> "func (file)": one entry per function
            stacks.append(([re.sub(r":\d+\)$", ")", frame) for frame in stack.split(";")], int(count)))
    return stacks


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file")
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--callees", action="append", default=[], help="a function name (substring) to break down")
    args = p.parse_args(argv)
    stacks = load(args.file)
    total = sum(n for _, n in stacks)
    if not total:
        print("no samples")
        return 1
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    for frames, n in stacks:
        own[frames[-1]] += n
        for frame in set(frames):
            inclusive[frame] += n
    print(f"{total} samples")
    print("-- inclusive")
    for name, n in inclusive.most_common(args.top):
        print(f"{100 * n / total:5.1f}%  {name}")
    print("-- self")
    for name, n in own.most_common(args.top):
        print(f"{100 * n / total:5.1f}%  {name}")
    for wanted in args.callees:
        below: collections.Counter[str] = collections.Counter()
        within = 0
        for frames, n in stacks:
            at = next((i for i, f in enumerate(frames) if wanted in f), None)
            if at is None:
                continue
            within += n
            below[frames[at + 1] if at + 1 < len(frames) else "<self>"] += n
        print(f"-- {wanted}: {100 * within / total:.1f}% inclusive; callees:")
        for name, n in below.most_common(args.top):
            print(f"{100 * n / total:5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
