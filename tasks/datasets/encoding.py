"""The documented encoding from a prepared frame to the canonical numeric features.

- numeric columns (int, float) keep their source names and become float64;
- boolean columns become 0.0 / 1.0;
- every other column (text, categorical) ``c`` becomes one 0/1 float column per observed level, named
  ``c=level`` (levels sorted; a missing value sets none of them).
"""

from __future__ import annotations

import pandas as pd


def encode_features(frame: pd.DataFrame) -> pd.DataFrame:
    """Numeric float64 features from ``frame`` by the module's encoding (column order: source order)."""
    encoded = []
    for name, column in frame.items():
        if pd.api.types.is_bool_dtype(column) or pd.api.types.is_numeric_dtype(column):
            encoded.append(column.astype("float64").rename(name))
        else:
            dummies = pd.get_dummies(column.astype("category"), prefix=name, prefix_sep="=", dtype="float64")
            encoded.append(dummies.reindex(sorted(dummies.columns), axis=1))
    if not encoded:
        return pd.DataFrame(index=frame.index)
    features = pd.concat(
        [part.to_frame() if isinstance(part, pd.Series) else part for part in encoded], axis=1
    )
    return features.reset_index(drop=True)
