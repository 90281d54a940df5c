"""numpy arrays and pandas DataFrames, for those who have them installed.
Nothing else in the package imports numpy or pandas."""

from __future__ import annotations

from typing import Any, Dict, List, Sequence


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as e:
        raise ImportError("this needs numpy, which is not installed (pip "
                          "install numpy, or apt install python3-numpy); the "
                          "rest of diskbench works without it") from e
    return numpy


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as e:
        raise ImportError("this needs pandas, which is not installed (pip "
                          "install pandas, or apt install python3-pandas); "
                          "the rest of diskbench works without it") from e
    return pandas


def _array(rows: Sequence[Sequence[int]], fields: Sequence[str]) -> Any:
    np = _numpy()
    dtype = np.dtype([(f, np.uint64) for f in fields])
    return np.array([tuple(r) for r in rows], dtype=dtype)


def buckets_array(buckets: Sequence[Sequence[int]]) -> Any:
    return _array(buckets, ("low", "high", "count"))


def points_array(points: Sequence[Sequence[int]]) -> Any:
    return _array(points, ("offset_ns", "ops", "bytes", "max_latency_ns",
                           "latency_sum_ns"))


def dataframe(rows: Sequence[Sequence[Any]], fields: Sequence[str]) -> Any:
    pd = _pandas()
    np = _numpy()
    return pd.DataFrame({f: np.array([r[i] for r in rows], dtype=np.uint64)
                         for i, f in enumerate(fields)})


def dataframe_of_dicts(rows: List[Dict[str, Any]]) -> Any:
    return _pandas().DataFrame(rows)
