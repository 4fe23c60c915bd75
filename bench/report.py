#!/usr/bin/python3
"""Turns the measurements of bench/run into the Markdown table and bench/RESULTS.md.

usage: report.py OUT_DIR WORK_DIR RESULTS_MD DIAGNOSES_MD

Run again by hand on the last results (e.g. after editing DIAGNOSES.md):
  /usr/bin/python3 bench/report.py bench/.work/results bench/.work bench/RESULTS.md bench/DIAGNOSES.md

OUT_DIR holds rows.tsv (one comparison a line: id, title, definitions, hyperfine
JSON, index of the ws command, index of the peer command, target), rss.tsv
(label, definitions, peak KB, target MB) and the hyperfine JSON exports.
DIAGNOSES_MD, when present, is appended to the results; a row whose id has an
anchor `<a id="diag-ID">` there links to it.
"""
import datetime
import json
import os
import platform
import re
import subprocess
import sys


def median_ms(path, index):
    with open(path) as f:
        results = json.load(f)["results"]
    return results[index]["median"] * 1000.0, results[index]["command"]


def cpu_ms(path, index):
    """Mean user + system time: the work done, whatever else runs on the machine."""
    with open(path) as f:
        r = json.load(f)["results"][index]
    return (r["user"] + r["system"]) * 1000.0


def short(command):
    # Absolute paths of the project's binaries and the scratch scripts are noise in a table.
    command = re.sub(r"\S*/bin/(ws(?:-[a-z-]+)?)(?=\s|$)", r"\1", command)
    command = re.sub(r"sh \S*/results/([a-z-]+)\.sh", r"\1.sh", command)
    return command.replace("|", "\\|")


def met(value, target):
    if not target or value is None:
        return ""
    m = re.fullmatch(r"(<=|>=)([0-9.]+)", target)
    if not m:
        return ""
    bound = float(m.group(2))
    ok = value <= bound if m.group(1) == "<=" else value >= bound
    return "yes" if ok else "**no**"


def first_line(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=10).stdout.splitlines()[0].strip()
    except Exception:
        return "?"


def machine():
    cpu = "?"
    mem = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    mem = "%.1f GiB" % (int(line.split()[1]) / 1024 / 1024)
                    break
    except OSError:
        pass
    return cpu, os.cpu_count(), mem


def main():
    out, work, results_md, diagnoses_md = sys.argv[1:5]
    meta = os.path.join(out, "meta.env")
    if os.path.exists(meta):
        with open(meta) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                os.environ.setdefault(k, v)
    diagnoses = ""
    if os.path.exists(diagnoses_md):
        with open(diagnoses_md) as f:
            diagnoses = f.read()
    anchors = set(re.findall(r'<a id="diag-([A-Za-z0-9-]+)">', diagnoses))

    bytes_of = {}
    for name in os.listdir(out):
        m = re.fullmatch(r"ts-parse-(\d+)\.txt", name)
        if m:
            with open(os.path.join(out, name)) as f:
                bytes_of[m.group(1)] = int(re.search(r"bytes (\d+)", f.read()).group(1))

    table = [
        "| benchmark | definitions | ws command | ws (ms) | peer | peer (ms) | ratio ws/peer | target | met? | CPU ratio | notes |",
        "|---|---:|---|---:|---|---:|---:|---:|:---:|---:|---|",
    ]
    missed = []
    with open(os.path.join(out, "rows.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    for rid, title, n, path, ti, pi, target in rows:
        ti, pi = int(ti), int(pi)
        note = ""
        try:
            if rid == "build-flat":
                first, last = path.split("|")
                ws0, cmd = median_ms(first, ti)
                ws1, _ = median_ms(last, ti)
                g0, peer = median_ms(first, pi)
                g1, _ = median_ms(last, pi)
                gw, gg = ws1 / ws0, g1 / g0
                ratio = gw / gg
                ok = "yes" if gw <= max(gg, 1.0) else "**no**"
                c0, c1 = cpu_ms(first, ti), cpu_ms(last, ti)
                line = (f"| {title} | {n} | {short(cmd)} | {ws0:.0f} → {ws1:.0f} | {short(peer)} | {g0:.0f} → {g1:.0f} "
                        f"| ×{gw:.1f} vs ×{gg:.1f} | grows no faster than git status (whose stat pass any "
                        f"working-tree view needs) | {ok} | ×{c1 / c0:.1f} vs ×{cpu_ms(last, pi) / cpu_ms(first, pi):.1f} |")
            else:
                tool, cmd = median_ms(path, ti)
                peer_ms, peer = median_ms(path, pi)
                if rid.startswith("build-cold"):
                    mb = bytes_of.get(n, 0) / 1e6
                    ratio = peer_ms / tool  # throughput ratio: (MB/tool) / (MB/peer)
                    note = f"{mb / (tool / 1000):.1f} MB/s vs {mb / (peer_ms / 1000):.1f} MB/s ({mb:.1f} MB) "
                    ratio_text = f"{ratio:.2f} (throughput)"
                    cpu_text = f"{cpu_ms(path, pi) / cpu_ms(path, ti):.2f}"
                else:
                    ratio = tool / peer_ms
                    ratio_text = f"{ratio:.2f}"
                    cpu_text = f"{cpu_ms(path, ti) / cpu_ms(path, pi):.2f}"
                ok = met(ratio, target)
                line = (f"| {title} | {n} | {short(cmd)} | {tool:.1f} | {short(peer)} | {peer_ms:.1f} | {ratio_text} "
                        f"| {target.replace('<=', '≤ ').replace('>=', '≥ ') or '—'} | {ok} | {cpu_text} |")
        except (OSError, KeyError, IndexError, ValueError, ZeroDivisionError) as e:
            ok = "**no**" if target else ""
            line = f"| {title} | {n} | — | failed | — | — | — | {target or '—'} | {ok} | — |"
            note = f"measurement failed ({type(e).__name__}); see bench/.work/bench.log "
        if ok == "**no**":
            missed.append(rid)
            note += f"[diagnosis](#diag-{rid})" if rid in anchors else "not diagnosed yet"
        table.append(line + f" {note.strip()} |")

    rss_table = ["| command | definitions | peak RSS (MB) | target | met? |", "|---|---:|---:|---:|:---:|"]
    with open(os.path.join(out, "rss.tsv")) as f:
        for line in f:
            if not line.strip():
                continue
            rid, label, n, kb, target = line.rstrip("\n").split("\t")
            if kb == "failed":
                rss_table.append(f"| {label} | {n} | failed | {target or '—'} | |")
                continue
            mb = int(kb) / 1024
            ok = ("yes" if mb < float(target) else "**no**") if target else ""
            note = ""
            if ok == "**no**":
                missed.append(rid)
                note = f" ([diagnosis](#diag-{rid}))" if rid in anchors else " (not diagnosed yet)"
            rss_table.append(f"| {label} | {n} | {mb:.0f} | {('< ' + target) if target else '—'} | {ok}{note} |")

    latency_table = ["| what | definitions | changes | p50 (ms) | p95 (ms) | target p95 (ms) | met? |",
                     "|---|---:|---:|---:|---:|---:|:---:|"]
    latency_path = os.path.join(out, "latency.tsv")
    for line in open(latency_path) if os.path.exists(latency_path) else []:
        if not line.strip():
            continue
        rid, label, n, path, target = line.rstrip("\n").split("\t")
        try:
            with open(path) as f:
                m = json.load(f)
            ok = "yes" if m["p95_ms"] <= float(target) else "**no**"
            latency_table.append(f"| {label} | {n} | {m['changes']} | {m['p50_ms']:.1f} | {m['p95_ms']:.1f} "
                                 f"| ≤ {target} | {ok} |")
        except (OSError, KeyError, ValueError):
            ok = "**no**"
            latency_table.append(f"| {label} | {n} | — | failed | failed | ≤ {target} | {ok} |")
        if ok == "**no**":
            missed.append(rid)

    mcp_table = ["| tool | definitions | server p50 (ms) | process p50 (ms) | ratio | target | met? |",
                 "|---|---:|---:|---:|---:|---:|:---:|"]
    peers = {"grep": "`ws-grep -F --json --max 1000`", "build": "`ws-build --format json`", "write": "`cp`"}
    for n in os.environ.get("BENCH_ALL_SIZES", "").split():
        path = os.path.join(out, f"mcp-{n}.json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            m = json.load(f)
        for tool in ("grep", "build", "write"):
            r = m[tool]
            ok = "yes" if r["ratio"] <= 0.5 else "**no**"
            note = ""
            if ok == "**no**":
                rid = f"mcp-{tool}-{n}"
                missed.append(rid)
                note = f" ([diagnosis](#diag-{rid}))" if rid in anchors else " (not diagnosed yet)"
            mcp_table.append(f"| {tool} / {peers[tool]} | {n} | {r['server_p50_ms']:.1f} | {r['cli_p50_ms']:.1f} "
                             f"| {r['ratio']:.2f} | ≤ 0.5 | {ok}{note} |")

    print("\n".join(table))
    print()
    print("\n".join(latency_table))
    print()
    print("\n".join(mcp_table))
    print()
    print("\n".join(rss_table))

    cpu, cores, mem = machine()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    gen_lines = []
    for n in os.environ.get("BENCH_ALL_SIZES", "").split():
        p = os.path.join(work, f"ws{n}.gen.txt")
        if os.path.exists(p):
            with open(p) as f:
                gen_lines.append("  - " + f.readline().strip().replace(work + "/", "bench/.work/"))

    stats_table = ["| definitions | files parsed | cache hits | cache misses |", "|---:|---:|---:|---:|"]
    for n in os.environ.get("BENCH_WARM_SIZES", "").split():
        p = os.path.join(out, f"stats-{n}.txt")
        text = open(p).read() if os.path.exists(p) else ""
        m = re.search(r"parsed (\d+), cache hits (\d+), cache misses (\d+)", text)
        if m:
            stats_table.append(f"| {n} | {m.group(1)} | {m.group(2)} | {m.group(3)} |")
        else:
            stats_table.append(f"| {n} | ? | ? | ? |")
    summary = ""
    mid = [r[2] for r in rows if r[0].startswith("commit-apply")]
    if mid:
        p = os.path.join(work, f"ws{mid[0]}.changes", "summary")
        if os.path.exists(p):
            with open(p) as f:
                summary = f.read().strip()

    env = os.environ
    doc = [
        "# Benchmarks (bench/README.md)",
        "",
        "Generated by `bench/run`; do not edit by hand (diagnoses live in `bench/DIAGNOSES.md` and are appended).",
        "",
        f"- date: {now}",
        f"- source measured: {env.get('BENCH_TREE', '?')}",
        f"- command: `{env.get('BENCH_COMMAND', 'bench/run')}` ({env.get('BENCH_ELAPSED', '?')} s)",
        f"- machine: {cpu}, {cores} cores (`nproc`), {mem} memory, Linux {platform.release()}",
        f"- load average at start → end: {env.get('BENCH_LOAD', '?')} — the 2 cores are shared with other "
        "engineers' builds, so absolute times are noisy; ratios are measured side by side in the same run",
        f"- tools: {first_line(['git', '--version'])}, {first_line(['rg', '--version'])}, "
        f"{first_line(['hyperfine', '--version'])}",
        f"- hyperfine: {env.get('BENCH_RUNS_INFO', '?')}, `-N` (no shell), median of the runs",
        f"- workspaces: `ws-bench-gen --seed {env.get('BENCH_SEED_INFO', '1')} --definitions N "
        f"--changeset {env.get('BENCH_CHANGES_INFO', '20')}`, committed and packed, the changeset applied to "
        "the working tree:",
        *gen_lines,
        "",
        "The changeset (same shape at every size; this one at the ws-grep/ws-commit size):",
        "",
        "```",
        summary,
        "```",
        "",
        "## Speed",
        "",
        "Ratio = ws median / peer median of wall-clock time (for throughput rows, ws MB/s / peer MB/s); "
        "targets are judged on it. CPU ratio = the same with mean user + system time, i.e. the work done: "
        "on this shared machine a process often gets a fraction of a core, so where the two ratios "
        "disagree the CPU ratio is the steadier one (wall-clock throughput on 2 threads in particular "
        "depends on whether both threads get a core). "
        "`ws-bench-ts-parse` is bench/ts_parse.cpp: the same grammars (ws_grammars) parsing every definition "
        "file, nothing else.",
        "",
        *table,
        "",
        "What a warm `ws-build` did at each size (`ws-build --stats`, after the timed runs): it parses only "
        "the changed files, whatever the size of the workspace.",
        "",
        *stats_table,
        "",
        "## Latency",
        "",
        "`ws-bench-lsp` (bench/lsp_latency.cpp) drives `ws lsp` as an editor would: each change replaces one "
        "character of an `Agents.` chain (a typo, then its fix), 20 ms after the last diagnostics, and is "
        "timed from the write of its didChange to the read of the diagnostics of its version, the server's "
        "debounce included.",
        "",
        *latency_table,
        "",
        "`ws-bench-mcp` (bench/mcp_latency.cpp) keeps one `ws mcp` running and times each tool call from the "
        "write of its request to the read of its answer, against a run of the process that answers the same "
        "question (for `write`, `cp` of the same bytes). 21 rounds each, p50.",
        "",
        *mcp_table,
        "",
        "## Peak memory (`/usr/bin/time -f %M`, one run)",
        "",
        *rss_table,
        "",
    ]
    if missed:
        doc += ["Targets missed in this run: " + ", ".join(f"`{m}`" for m in missed) + ".", ""]
    if diagnoses:
        doc += [diagnoses.strip(), ""]
    with open(results_md, "w") as f:
        f.write("\n".join(doc))


if __name__ == "__main__":
    main()
