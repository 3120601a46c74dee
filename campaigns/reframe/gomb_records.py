"""Figures of merit from gomb's record files (JSON Lines, schema gomb/v1).

Standard library only, so that a ReFrame test (gomb_check.py), a CI script
or a notebook can read gomb's records without gomb. docs/records.md
describes every field; docs/campaigns.md how the ReFrame class uses this.
"""

import json

SCHEMA = "gomb/v1"

# The time IMB's tables lead with: t[usec] of the slower rank for the
# ping-pong benchmarks, t_avg over the ranks for the others.
_T_MAX_BENCHMARKS = {"PingPong", "PingPing", "PingPongSpecificSource", "PingPingSpecificSource"}


class RecordError(Exception):
    """A record file gomb did not write, or a figure it does not hold."""


def read(path):
    """Returns (run, results, end) of one record file.

    run and end are dicts (end is None for a run cut short), results a list
    of dicts in file order. A last line cut short by a killed job is
    skipped, as gomb's own readers do; any other malformed line is an error.
    """
    run, results, end = None, [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError as e:
            if i == len(lines) - 1 or (i == len(lines) - 2 and not lines[-1]):
                break  # torn last record of a killed job
            raise RecordError("%s:%d: %s" % (path, i + 1, e)) from e
        if rec.get("schema") != SCHEMA:
            raise RecordError("%s:%d: schema %r, want %r" % (path, i + 1, rec.get("schema"), SCHEMA))
        kind = rec.get("type")
        if kind == "run":
            run = rec
        elif kind == "result":
            results.append(rec)
        elif kind == "end":
            end = rec
    if run is None:
        raise RecordError("%s: no run record" % path)
    return run, results, end


def end_status(path):
    """How the run ended: complete, interrupted, deadline, failed,
    check-failed; "cut" when the file has no end record."""
    _, _, end = read(path)
    return end["status"] if end else "cut"


def result(path, benchmark, size, np=None):
    """The ok result of benchmark at size bytes (and np processes, else the
    largest measured)."""
    _, results, _ = read(path)
    rows = [r for r in results
            if r["benchmark"] == benchmark and r["bytes"] == size and r["status"] == "ok"
            and (np is None or r["np"] == np)]
    if not rows:
        raise RecordError("%s: no ok result for %s at %d bytes%s" %
                          (path, benchmark, size, "" if np is None else " on %d processes" % np))
    return max(rows, key=lambda r: r["np"])


def latency_us(path, benchmark, size, np=None):
    """The time IMB's table leads with, in microseconds."""
    r = result(path, benchmark, size, np)
    return r["t_max_us"] if benchmark in _T_MAX_BENCHMARKS else r["t_avg_us"]


def bandwidth_mbps(path, benchmark, size, np=None):
    """The bandwidth as IMB prints it (MB/s, 10^6 bytes)."""
    return result(path, benchmark, size, np)["mbytes_per_sec"]


def labels(path):
    """The run's labels: system, config, campaign, a cell's coordinates."""
    run, _, _ = read(path)
    return run.get("labels") or {}
