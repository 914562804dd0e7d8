"""JSON for messages the Kiln kernel sends: what json.dumps refuses is turned into what
jupyter_client would send (bytes as base64, dates as ISO 8601, NumPy scalars as numbers,
NaN and infinities as null), so that an odd value never loses an output."""
import base64
import datetime
import json
import math


def _default(obj):
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(obj)).decode("ascii")
    if isinstance(obj, (datetime.datetime, datetime.date)):
        return obj.isoformat()
    if hasattr(obj, "dtype") and hasattr(obj, "item"):
        return obj.item()
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    return repr(obj)


def _finite(obj):
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def dumps(obj):
    try:
        return json.dumps(obj, default=_default, allow_nan=False)
    except ValueError:
        return json.dumps(_finite(json.loads(json.dumps(obj, default=_default))), allow_nan=False)
