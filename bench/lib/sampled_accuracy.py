"""How close the sampling mode's estimates are to the exact profile:
issue 12's check.  The sites (frame 0, as sites.py keys them) that hold
SHARE of the exact profile's bytes, largest first, are compared with the
same sites' estimated bytes in the sampled profile; each must be within
TOLERANCE of the exact bytes."""

import os
import subprocess

import memprof_profile

SHARE = 0.90
TOLERANCE = 0.10


def profile_json(dump_tool, merge_tool, files, work):
    """memprof-dump --json of a run's raw profiles (merged first when the
    run wrote several: memprof-dump shows one file)."""
    if len(files) > 1:
        merged = os.path.join(work, "sampled-accuracy.memprofdata")
        subprocess.run([merge_tool, "-o", merged] + list(files), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        files = [merged]
    return memprof_profile.dump_json(dump_tool, files)


def compare(exact_json, sampled_json, share=SHARE, tolerance=TOLERANCE):
    """A dict: the sites holding SHARE of the exact bytes, how many of them
    the sampled profile estimates within TOLERANCE, the worst one, and
    the error of the total bytes."""
    exact, exact_totals = memprof_profile.read_memprof(exact_json)
    sampled, sampled_totals = memprof_profile.read_memprof(sampled_json)
    total = exact_totals["bytes"]
    order = sorted(exact.counts.items(), key=lambda kv: -kv[1][1])
    rows, covered = [], 0
    for key, (count, nbytes) in order:
        if total and covered >= share * total:
            break
        covered += nbytes
        est = sampled.counts.get(key, [0, 0])[1]
        err = (est - nbytes) / nbytes if nbytes else 0.0
        rows.append({"site": exact.labels[key], "bytes": nbytes,
                     "estimate": est, "error": err})
    within = sum(1 for r in rows if abs(r["error"]) <= tolerance)
    worst = max(rows, key=lambda r: abs(r["error"])) if rows else None
    return {"share": share, "tolerance": tolerance,
            "sites": len(rows), "within": within,
            "covered_bytes": covered, "total_bytes": total,
            "total_error": ((sampled_totals["bytes"] - total) / total
                            if total else 0.0),
            "sampled_records": len(sampled_json.get("records", [])),
            "exact_records": len(exact_json.get("records", [])),
            "worst": worst, "rows": rows}
