"""What a running process costs, read from /proc: CPU time, context switches, time on a CPU and memory. Imported by
side-by-side.py, daemon-memory.py and polled-cpu.py here, and by the real-kernel tier's side-by-side test
(Tests/Kernel/test_side_by_side.py); not run. A thread that ends takes its counts with it, so `still` samples every
20 ms and sums each thread's growth from its first sighting."""
import os
import time

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(path):
    """User plus system CPU time so far of /proc/`path` (a PID, or PID/task/TID for one thread), in 1/TICKS steps."""
    with open(f"/proc/{path}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def scheduled_ns(path):
    """Time on a CPU in nanoseconds, from the scheduler's own count: exact where /proc/PID/stat counts ticks."""
    with open(f"/proc/{path}/schedstat") as f:
        return int(f.read().split()[0])


def threads(pid):
    """Per thread ID: (context switches, nanoseconds on a CPU)."""
    counts = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                status = dict(line.split(":", 1) for line in f if ":" in line)
            switches = int(status["voluntary_ctxt_switches"]) + int(status["nonvoluntary_ctxt_switches"])
            counts[tid] = (switches, scheduled_ns(f"{pid}/task/{tid}"))
        except (FileNotFoundError, ProcessLookupError):
            pass
    return counts


def memory(pid):
    """/proc/PID/smaps_rollup's figures (Rss, Pss, Anonymous ...) in MB."""
    with open(f"/proc/{pid}/smaps_rollup") as f:
        return {line.split(":")[0]: int(line.split()[1]) / 1024 for line in f if line.endswith("kB\n")}


def still(processes, seconds):
    """Each process's cost over `seconds`, `processes` being {label: pid}: {label: (CPU %, context switches a
    second, memory at the end, µs on a CPU a second)}, threads sampled every 20 ms (from 0 for one born inside the
    window)."""
    start = {label: (cpu_seconds(pid), threads(pid)) for label, pid in processes.items()}
    first = {label: dict(start[label][1]) for label in processes}
    last = {label: dict(start[label][1]) for label in processes}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.02)
        for label, pid in processes.items():
            for tid, count in threads(pid).items():
                first[label].setdefault(tid, (0, 0))
                last[label][tid] = count
    result = {}
    for label, pid in processes.items():
        used = cpu_seconds(pid) - start[label][0]
        woke = sum(last[label][tid][0] - first[label][tid][0] for tid in last[label])
        on_cpu = sum(last[label][tid][1] - first[label][tid][1] for tid in last[label])
        result[label] = (100 * used / seconds, woke / seconds, memory(pid), on_cpu / 1000 / seconds)
    return result
