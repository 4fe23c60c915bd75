#!/usr/bin/env python3
"""Pools the hyperfine JSON exports of several rounds over the same commands
into one export, as one hyperfine run over all of them would write it.

    bench/pool.py OUT.json ROUND.json...

bench/run measures each comparison in rounds, the commands in turn forward and
backward, so that a slow spell of a shared machine falls on every side; this
puts the rounds' runs back together per command. Only what report.py reads is
written: each command's median, mean, user and system time (the means over
every run), and its times.
"""
import json
import statistics
import sys


def pool(rounds):
    by_command = {}
    order = []
    for path in rounds:
        with open(path) as f:
            for r in json.load(f)["results"]:
                c = r["command"]
                if c not in by_command:
                    by_command[c] = {"times": [], "user": 0.0, "system": 0.0}
                    order.append(c)
                p = by_command[c]
                n = len(r["times"])
                p["times"] += r["times"]
                # hyperfine's user and system are means over its runs.
                p["user"] += r["user"] * n
                p["system"] += r["system"] * n
    results = []
    for c in order:
        p = by_command[c]
        n = len(p["times"])
        results.append({
            "command": c,
            "median": statistics.median(p["times"]),
            "mean": statistics.fmean(p["times"]),
            "user": p["user"] / n,
            "system": p["system"] / n,
            "times": p["times"],
        })
    return {"results": results}


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: bench/pool.py OUT.json ROUND.json...")
    with open(sys.argv[1], "w") as f:
        json.dump(pool(sys.argv[2:]), f, indent=1)


if __name__ == "__main__":
    main()
