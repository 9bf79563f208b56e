"""Recipes: a validated raw frame to (features, target) — the filter and minority rule of each dataset.

Each recipe reproduces the row filter and binarization that ``docs/datasets.md`` records for the
papers' tables, then encodes the features by :func:`tasks.datasets.encoding.encode_features`. The target is
0/1
with 1 = positive = minority. Column names come from the raw pandera models.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from schemas.raw_benchmarks import (
    AbaloneRaw,
    AdultRaw,
    BreastCancerRaw,
    CarEvaluationRaw,
    CommunitiesRaw,
    KeelNumericRaw,
    Pc1Raw,
    WineQualityRaw,
    YeastRaw,
)
from schemas.raw_business import BankMarketingRaw, CardFraudRaw, GiveMeSomeCreditRaw, PakddCreditRaw
from tasks.datasets.encoding import encode_features

Prepared = tuple[pd.DataFrame, np.ndarray]


def _split(frame: pd.DataFrame, is_positive: pd.Series, drop: Iterable[str]) -> Prepared:
    frame = frame.reset_index(drop=True)
    target = np.asarray(is_positive, dtype=np.int8)
    return encode_features(frame.drop(columns=list(drop))), target


def label_in(raw: pd.DataFrame, *, label: str = KeelNumericRaw.label, positive: tuple[str, ...]) -> Prepared:
    """No filter; positive when the text label is in ``positive`` (KEEL files, imbalanced-learn archive)."""
    labels = raw[label].astype("str").str.strip()
    return _split(raw, labels.isin(positive), drop=[label])


def credit_scoring(raw: pd.DataFrame) -> Prepared:
    """Give Me Some Credit: drop rows with any NA; ``MonthlyIncome > 0``, ``DebtRatio < 1`` (CSDT Table 4)."""
    kept = raw.drop(columns=[GiveMeSomeCreditRaw.id]).dropna()
    kept = kept[(kept[GiveMeSomeCreditRaw.MonthlyIncome] > 0) & (kept[GiveMeSomeCreditRaw.DebtRatio] < 1)]
    label = GiveMeSomeCreditRaw.SeriousDlqin2yrs
    return _split(kept, kept[label] == 1, drop=[label])


def credit_pakdd(raw: pd.DataFrame) -> Prepared:
    """PAKDD 2009: drop the 12 shifted rows (label ``"N"``); ``100 < PERSONAL_NET_INCOME < 10000``."""
    label, income = PakddCreditRaw.TARGET_LABEL_BAD, PakddCreditRaw.PERSONAL_NET_INCOME
    kept = raw[raw[label] != "N"].drop(columns=[PakddCreditRaw.trailing_field])
    kept = kept.assign(**{income: kept[income].astype("float64")})
    kept = kept[(kept[income] > 100) & (kept[income] < 10000)]
    return _split(kept, kept[label] == "1", drop=[label])


def direct_marketing(raw: pd.DataFrame) -> Prepared:
    """UCI bank-full: keep ``balance > 0``; positive when ``y == "yes"`` (CSDT, Table 5)."""
    kept = raw[raw[BankMarketingRaw.balance] > 0]
    return _split(kept, kept[BankMarketingRaw.y] == "yes", drop=[BankMarketingRaw.y])


def bank_without_divorced(raw: pd.DataFrame) -> Prepared:
    """UCI bank-full as in AdaCC Table 4: drop ``marital == "divorced"``; positive when ``y == "yes"``."""
    kept = raw[raw[BankMarketingRaw.marital] != "divorced"]
    return _split(kept, kept[BankMarketingRaw.y] == "yes", drop=[BankMarketingRaw.y])


def card_fraud(raw: pd.DataFrame, *, drop_duplicates: bool) -> Prepared:
    """ULB card fraud; positive when ``Class == 1``. ``drop_duplicates`` removes the 1,081 repeated rows."""
    kept = raw.drop_duplicates() if drop_duplicates else raw
    return _split(kept, kept[CardFraudRaw.Class] == 1, drop=[CardFraudRaw.Class])


def abalone_rings_7(raw: pd.DataFrame) -> Prepared:
    """UCI abalone (AdaCC): positive when ``Rings == 7``; ``Sex`` one-hot encoded."""
    return _split(raw, raw[AbaloneRaw.Rings] == 7, drop=[AbaloneRaw.Rings])


def adult_complete_rows(raw: pd.DataFrame) -> Prepared:
    """UCI adult (AdaCC): strip test labels' ``.``, drop rows with ``?``, then exact duplicates; ``>50K``."""
    income = AdultRaw.income
    cleaned = raw.assign(**{income: raw[income].str.rstrip(".")})
    text_columns = cleaned.select_dtypes(exclude="number").columns
    cleaned = cleaned[~(cleaned[text_columns] == "?").any(axis=1)].drop_duplicates()
    return _split(cleaned, cleaned[income] == ">50K", drop=[income])


ADULT_NUMERIC_FEATURES = (
    AdultRaw.age,
    AdultRaw.fnlwgt,
    AdultRaw.education_num,
    AdultRaw.capital_gain,
    AdultRaw.capital_loss,
    AdultRaw.hours_per_week,
)


def adult_numeric(raw: pd.DataFrame) -> Prepared:
    """UCI adult (WOTBoost): every row, the six numeric features; positive when the income is ``>50K``."""
    is_positive = raw[AdultRaw.income].str.rstrip(".") == ">50K"
    return _split(raw[list(ADULT_NUMERIC_FEATURES)], is_positive, drop=[])


def car_good_or_very_good(raw: pd.DataFrame) -> Prepared:
    """UCI car evaluation: positive when acceptability is ``good`` or ``vgood``; attributes one-hot."""
    label = CarEvaluationRaw.Acceptability
    return _split(raw, raw[label].isin(["good", "vgood"]), drop=[label])


COMMUNITIES_NON_PREDICTIVE = ("state", "county", "community", CommunitiesRaw.communityname, "fold")
COMMUNITIES_TARGET = "ViolentCrimesPerPop"


def us_crime(raw: pd.DataFrame) -> Prepared:
    """UCI communities and crime: drop the 5 non-predictive columns and the 22 mostly-missing ones (1,675 NA),
    impute ``OtherPerCap``'s single NA with its median; positive when ``ViolentCrimesPerPop > 0.65``."""
    predictive = raw.drop(columns=list(COMMUNITIES_NON_PREDICTIVE))
    missing = predictive.isna().sum()
    predictive = predictive.drop(columns=missing[missing > 1].index)
    predictive = predictive.fillna(predictive.median(numeric_only=True))
    return _split(predictive, predictive[COMMUNITIES_TARGET] > 0.65, drop=[COMMUNITIES_TARGET])


def white_wine_low_quality(raw: pd.DataFrame) -> Prepared:
    """UCI white wine quality: positive when ``quality <= 4``."""
    return _split(raw, raw[WineQualityRaw.quality] <= 4, drop=[WineQualityRaw.quality])


def yeast_mit(raw: pd.DataFrame) -> Prepared:
    """UCI yeast: drop the sequence name; positive when the localisation site is ``MIT``."""
    label = YeastRaw.localization_site
    return _split(raw, raw[label] == "MIT", drop=[label, YeastRaw.sequence_name])


def pc1_defects(raw: pd.DataFrame) -> Prepared:
    """NASA PC1: positive when ``defects == "true"``."""
    return _split(raw, raw[Pc1Raw.defects] == "true", drop=[Pc1Raw.defects])


def breast_cancer_malignant(raw: pd.DataFrame) -> Prepared:
    """WDBC via scikit-learn (``target`` 0 = malignant): positive when malignant."""
    return _split(raw, raw[BreastCancerRaw.target] == 0, drop=[BreastCancerRaw.target])


def forest_cover_3_vs_4(raw: pd.DataFrame) -> Prepared:
    """UCI covertype (WOTBoost): keep cover types 3 and 4; positive when the type is 4 (the smaller class)."""
    label = KeelNumericRaw.label
    kept = raw[raw[label].astype("str").isin(["3", "4"])]
    return _split(kept, kept[label].astype("str") == "4", drop=[label])
