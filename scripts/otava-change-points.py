#!/usr/bin/env python3
"""Change points by Apache Otava 0.8.0 (E-divisive means, Hunter's t-test and merge step), the
reference Sleeve's ChangePointSearch is pinned to.

  otava-change-points.py generate > Tests/SleeveQueryTests/Fixtures/otava-change-points.json
      builds the seeded series below and records Otava's change points for each;
  otava-change-points.py check FILE
      recomputes every series of FILE with the installed Otava and exits 1 on any difference
      from what FILE records (the proof that the fixture is Otava's answer);
  otava-change-points.py csv DIR
      runs Otava (min_magnitude 0.05) over every DIR/*.csv (one series a file, one value a
      line) and prints one line `NAME INDEX RETESTED_P RETESTED_MAGNITUDE` per change point
      (its t-test rerun on its final neighbouring segments): the benchmark's reference run.

Otava is imported for its analysis module only (numpy and scipy), so it is installed with
--no-deps (scripts/requirements-otava.txt).
"""
import json
import os
import sys

import numpy as np
from otava.analysis import TTestSignificanceTester, compute_change_points

WINDOW = 50
MAX_P = 0.001


def otava(values, min_magnitude):
    """Otava's change points of `values`. `pValue` is as Otava reports it; `retested` is its
    t-test rerun on each point's final neighbouring segments. They differ where Otava's merge
    left a point's statistics stale: after removing a point it retests the next two points, not
    the previous one, whose right segment has grown."""
    points, _ = compute_change_points(
        list(values), window_len=WINDOW, max_pvalue=MAX_P, min_magnitude=min_magnitude)
    bounds = [0] + [p.index for p in points] + [len(values)]
    tester = TTestSignificanceTester(MAX_P)
    out = []
    for i, p in enumerate(points):
        stats = tester.compare(values[bounds[i]:bounds[i + 1]], values[bounds[i + 1]:bounds[i + 2]])
        out.append({
            "index": int(p.index), "pValue": float(p.stats.pvalue),
            "retested": {"pValue": float(stats.pvalue), "meanBefore": float(stats.mean_1),
                         "meanAfter": float(stats.mean_2)}})
    return out


def step_series(rng, length, level, noise, steps):
    """`level` with normal noise of relative size `noise`, multiplied at each (index, factor)."""
    values = level * (1 + noise * rng.standard_normal(length))
    for index, factor in steps:
        values[index:] *= factor
    return values


def series():
    """(name, seed, values, planted change indices, min_magnitude)."""
    out = []

    def add(name, seed, make, planted, min_magnitude=0.0):
        rng = np.random.default_rng(seed)
        out.append((name, seed, [round(float(v), 6) for v in make(rng)], planted, min_magnitude))

    for seed, (size, noise) in enumerate(
            [(1.05, 0.01), (1.10, 0.02), (1.20, 0.03), (1.50, 0.05), (2.0, 0.05), (0.80, 0.02),
             (1.03, 0.005), (1.08, 0.04)], start=1):
        length = 60 + 20 * seed
        at = length // 2 + seed
        add(f"step x{size} noise {noise}", seed,
            lambda rng, length=length, at=at, size=size, noise=noise:
            step_series(rng, length, 1000.0, noise, [(at, size)]), [at])
    add("two steps up then down", 11,
        lambda rng: step_series(rng, 150, 500.0, 0.02, [(50, 1.3), (110, 1 / 1.3)]), [50, 110])
    add("three steps", 12,
        lambda rng: step_series(rng, 240, 800.0, 0.02, [(60, 1.15), (120, 1.25), (190, 0.7)]),
        [60, 120, 190])
    add("step near the start", 13, lambda rng: step_series(rng, 100, 1000.0, 0.02, [(8, 1.4)]),
        [8])
    add("step near the end", 14, lambda rng: step_series(rng, 100, 1000.0, 0.02, [(93, 1.4)]),
        [93])

    def outliers(rng, steps, length=160):
        values = step_series(rng, length, 1000.0, 0.02, steps)
        for index in rng.choice(length, size=5, replace=False):
            values[index] *= 3
        return values

    add("outliers and a step", 21, lambda rng: outliers(rng, [(80, 1.3)]), [80])
    add("outliers only", 22, lambda rng: outliers(rng, []), [])
    add("heavy-tailed noise and a step", 23,
        lambda rng: 1000.0 * (1 + 0.02 * rng.standard_t(3, 150)) * np.where(
            np.arange(150) >= 70, 1.25, 1.0), [70])
    for seed in (31, 32, 33, 34):
        add(f"pure noise {seed}", seed, lambda rng: step_series(rng, 200, 1000.0, 0.03, []), [])
    add("constant", 41, lambda rng: [1000.0] * 120, [])
    add("error rate rises", 51,
        lambda rng: rng.binomial(400, np.where(np.arange(120) >= 64, 0.05, 0.01)) / 400, [64])
    add("error rate, no change", 52, lambda rng: rng.binomial(400, 0.02, 120) / 400, [])
    add("small step under min-magnitude", 61,
        lambda rng: step_series(rng, 120, 1000.0, 0.005, [(60, 1.03)]), [60], 0.05)
    add("large step over min-magnitude", 62,
        lambda rng: step_series(rng, 120, 1000.0, 0.01, [(60, 1.12)]), [60], 0.05)
    return out


def generate():
    cases = []
    for name, seed, values, planted, min_magnitude in series():
        cases.append({
            "name": name, "seed": seed, "minMagnitude": min_magnitude, "planted": planted,
            "values": values, "otava": otava(values, min_magnitude)})
    json.dump({"generator": "scripts/otava-change-points.py generate",
               "otava": "apache-otava 0.8.0, compute_change_points(window_len=50, "
                        "max_pvalue=0.001, min_magnitude as given)",
               "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")


def check(path):
    with open(path) as f:
        fixture = json.load(f)
    failures = 0
    for case in fixture["cases"]:
        got = otava(case["values"], case["minMagnitude"])
        want = case["otava"]
        same = [p["index"] for p in got] == [p["index"] for p in want] and all(
            abs(g["pValue"] - w["pValue"]) <= 1e-9 * max(1e-300, abs(w["pValue"])) + 1e-300
            for g, w in zip(got, want))
        if not same:
            failures += 1
            print(f"{case['name']}: Otava now gives {got}, the fixture {want}", file=sys.stderr)
    print(f"{len(fixture['cases'])} series, {failures} differ")
    sys.exit(1 if failures else 0)


def csv(directory):
    for name in sorted(os.listdir(directory)):
        if name.endswith(".csv"):
            with open(os.path.join(directory, name)) as f:
                values = [float(line) for line in f if line.strip()]
            points, _ = compute_change_points(
                values, window_len=WINDOW, max_pvalue=MAX_P, min_magnitude=0.05)
            bounds = [0] + [p.index for p in points] + [len(values)]
            tester = TTestSignificanceTester(MAX_P)
            for i, p in enumerate(points):
                stats = tester.compare(
                    values[bounds[i]:bounds[i + 1]], values[bounds[i + 1]:bounds[i + 2]])
                print(name[:-4], p.index, float(stats.pvalue), float(stats.change_magnitude()))


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "generate":
        generate()
    elif command == "check" and len(sys.argv) == 3:
        check(sys.argv[2])
    elif command == "csv" and len(sys.argv) == 3:
        csv(sys.argv[2])
    else:
        sys.exit(__doc__)
