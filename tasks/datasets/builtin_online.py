"""Built-in datasets reachable only online: the imbalanced-learn benchmark archive on Zenodo, OpenML, UCI.

None of these files can be fetched on the project's build machines, so no checksum is pinned: the sha256 is
recorded on first download and enforced afterwards (:class:`tasks.datasets.cache.RecordedChecksums`), and
OpenML files are also checked against the md5 in OpenML's own description. OpenML ids marked verified were
read from third-party code (``*`` in the spec); the others are unverified. Expected row counts come from
the sources' documentation (imbalanced-learn's benchmark table, the UCI and OpenML pages); positives are
pinned only where the label coding is certain, otherwise ``None`` (recorded in the cache metadata, not
verified). None of these counts could be checked on the build machines: a mismatch fails ingestion loudly
rather than mis-binarizing.
"""

from __future__ import annotations

from functools import partial

from schemas import raw_benchmarks as benchmarks
from tasks.datasets import parsers, recipes
from tasks.datasets.builtin_offline import CITE_ADACC, CITE_WOTBOOST
from tasks.datasets.sources import ArchiveMembers, OpenMLDataset, UrlFile
from tasks.datasets.spec import DatasetSpec

#: The imbalanced-learn benchmark archive (the URL of ``imblearn.datasets.fetch_datasets``).
IMBLEARN_ARCHIVE_URL = "https://zenodo.org/record/61452/files/benchmark-imbalanced-learn.tar.gz"
CITE_IMBLEARN = (
    "Lemaitre, Nogueira, Aridas (2017), imbalanced-learn, JMLR 18(17); benchmark archive Zenodo 61452"
)

#: name -> (imbalanced-learn id, title, minority rule, rows (imbalanced-learn docs), papers)
_ARCHIVE_DATASETS = {
    "sick-euthyroid": (6, "Sick euthyroid (UCI thyroid)", "sick euthyroid", 3_163, ("adacc",)),
    "isolet": (9, "ISOLET spoken letters, A and B vs rest", "letters A, B", 7_797, ("adacc",)),
    "scene": (12, "Scene (LIBSVM multi-label)", "more than one label", 2_407, ("adacc",)),
    "thyroid-sick": (14, "Thyroid sick (UCI thyroid)", "sick", 3_772, ("adacc",)),
    "coil-2000": (
        15,
        "CoIL 2000 insurance (caravan policy)",
        "minority (caravan policy holders)",
        9_822,
        ("adacc",),
    ),
    "oil": (18, "Oil spills (Kubat et al. 1998)", "minority (oil slick)", 937, ("wotboost",)),
    "webpage": (23, "Web page (LIBSVM w7a)", "minority", 34_780, ("adacc",)),
    "ozone-level": (24, "Ozone level detection (UCI, one-hour peak)", "ozone day", 2_536, ("adacc",)),
    "mammography": (
        25,
        "Mammography microcalcifications (Woods et al. 1993)",
        "minority (calcification)",
        11_183,
        ("adacc", "wotboost"),
    ),
    "protein-homology": (26, "Protein homology (KDD Cup 2004)", "minority (homologous)", 145_751, ("adacc",)),
}


def _archive_entry(
    name: str, imblearn_id: int, title: str, minority_rule: str, rows: int, papers
) -> DatasetSpec:
    member = f"x{imblearn_id}data.npz"
    return DatasetSpec(
        name=name,
        title=title,
        source=ArchiveMembers(url=IMBLEARN_ARCHIVE_URL, members=(member,)),
        parser=partial(parsers.read_npz_arrays, member=member),
        raw_schema=benchmarks.ImblearnBenchmarkRaw,
        recipe=partial(recipes.label_in, positive=("1",)),
        row_filter="none (imbalanced-learn's binarization)",
        minority_rule=f"{minority_rule} (label 1 in the archive)",
        expected_rows=rows,
        expected_positives=None,
        citation=f"{CITE_IMBLEARN}; {CITE_ADACC if 'adacc' in papers else CITE_WOTBOOST}",
        papers=papers,
        offline=False,
    )


def _openml_entry(
    name: str,
    data_id: int,
    verified: bool,
    title: str,
    positive: tuple[str, ...],
    minority_rule: str,
    papers,
    citation: str,
    recipe=None,
    *,
    rows: int,
    positives: int | None = None,
) -> DatasetSpec:
    return DatasetSpec(
        name=name,
        title=title,
        source=OpenMLDataset(data_id=data_id, verified=verified),
        parser=parsers.read_openml_arff,
        raw_schema=None,
        recipe=recipe or partial(recipes.label_in, positive=positive),
        row_filter="none",
        minority_rule=minority_rule,
        expected_rows=rows,
        expected_positives=positives,
        citation=f"{citation}; {CITE_ADACC if 'adacc' in papers else CITE_WOTBOOST}",
        papers=papers,
        offline=False,
        notes="raw columns are those OpenML declares; checked by the canonical model only",
    )


ONLINE_DATASETS: tuple[DatasetSpec, ...] = (
    *(_archive_entry(name, *details) for name, details in _ARCHIVE_DATASETS.items()),
    _openml_entry(
        "credit-default",
        42477,
        True,
        "Default of credit-card clients (Taiwan)",
        ("1",),
        "default payment next month == 1",
        ("adacc",),
        "Yeh, Lien (2009), UCI default of credit card clients",
        rows=30_000,
        positives=6_636,
    ),
    _openml_entry(
        "eeg-eye",
        1471,
        True,
        "EEG eye state",
        ("2",),
        "eye closed (OpenML class 2)",
        ("adacc",),
        "Roesler (2013), UCI EEG eye state",
        rows=14_980,
    ),
    _openml_entry(
        "electricity",
        151,
        True,
        "Electricity (Elec2, NSW market)",
        ("UP",),
        "price UP",
        ("adacc",),
        "Harries (1999), Splice-2 comparative evaluation: electricity pricing",
        rows=45_312,
    ),
    _openml_entry(
        "musk2",
        1116,
        False,
        "Musk version 2",
        ("1",),
        "musk (class 1)",
        ("adacc",),
        "Dietterich et al. (1997), UCI musk version 2",
        rows=6_598,
    ),
    _openml_entry(
        "wilt",
        40983,
        True,
        "Wilt (diseased trees)",
        ("2",),
        "diseased trees (OpenML class 2)",
        ("adacc",),
        "Johnson et al. (2013), UCI wilt",
        rows=4_839,
    ),
    _openml_entry(
        "blood-transfusion",
        1464,
        True,
        "Blood transfusion service center",
        ("2",),
        "donated in March 2007 (OpenML class 2)",
        ("wotboost",),
        "Yeh et al. (2009), UCI blood transfusion",
        rows=748,
        positives=178,
    ),
    _openml_entry(
        "hungarian-heart",
        1565,
        True,
        "Heart disease, Hungarian",
        (),
        "num > 0 (any disease)",
        ("wotboost",),
        "Janosi et al. (1988), UCI heart disease (Hungarian)",
        recipe=partial(recipes.label_in, positive=("1", "2", "3", "4")),
        rows=294,
    ),
    DatasetSpec(
        name="skin",
        title="Skin segmentation (UCI)",
        source=UrlFile(
            url="https://archive.ics.uci.edu/ml/machine-learning-databases/00229/Skin_NonSkin.txt"
        ),
        parser=partial(
            parsers.read_delimited,
            member="Skin_NonSkin.txt",
            separator="\t",
            column_names=("x0", "x1", "x2", "label"),
        ),
        raw_schema=benchmarks.IntegerTableRaw,
        recipe=partial(recipes.label_in, positive=("1",)),
        row_filter="none",
        minority_rule="skin (label 1)",
        expected_rows=245_057,
        expected_positives=50_859,
        citation=f"Bhatt, Dhall (2012), UCI skin segmentation; {CITE_ADACC}",
        papers=("adacc",),
        offline=False,
    ),
    DatasetSpec(
        name="forest-cover",
        title="Forest cover type, type 4 vs type 3 (UCI covertype)",
        source=UrlFile(
            url="https://archive.ics.uci.edu/ml/machine-learning-databases/covtype/covtype.data.gz"
        ),
        parser=partial(
            parsers.read_delimited,
            member="covtype.data.gz",
            compression="gzip",
            column_names=(*(f"x{index}" for index in range(54)), "label"),
        ),
        raw_schema=benchmarks.IntegerTableRaw,
        recipe=recipes.forest_cover_3_vs_4,
        row_filter="cover types 3 and 4 only",
        minority_rule="cover type 4 (Cottonwood/Willow) vs 3 (Ponderosa Pine)",
        expected_rows=38_501,
        expected_positives=2_747,
        citation=f"Blackard, Dean (1999), UCI covertype; {CITE_WOTBOOST}",
        papers=("wotboost",),
        offline=False,
    ),
)
