"""The counts the README and the docs state are the ones the commands print (a fresh clone's first read)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from algorithms import METHODS
from tasks.datasets.builtin_offline import OFFLINE_DATASETS
from tasks.datasets.builtin_online import ONLINE_DATASETS

PROJECT = Path(__file__).resolve().parents[1]


def _run_sh_default(variable: str) -> str:
    match = re.search(rf"\${{{variable}:-([^}}]*)}}", (PROJECT / "scripts" / "run.sh").read_text())
    assert match, f"scripts/run.sh has no default for {variable}"
    return match.group(1)


def test_the_readme_states_the_cells_make_run_fits():
    datasets = shlex.split(_run_sh_default("CSLEARN_RUN_DATASETS"))
    folds = int(_run_sh_default("CSLEARN_RUN_FOLDS")) * int(_run_sh_default("CSLEARN_RUN_REPEATS"))
    stated = re.search(
        r"It\s+runs\s+([\d,]+)\s+cells\s+\((\d+)\s+datasets\s+x\s+(\d+)\s+methods\s+x\s+(\d+)\s+folds\)",
        (PROJECT / "README.md").read_text(),
    )
    assert stated, "the README no longer says how many cells `make run` fits"
    cells, n_datasets, n_methods, n_folds = (int(group.replace(",", "")) for group in stated.groups())
    assert (n_datasets, n_methods, n_folds) == (len(datasets), len(METHODS), folds)
    assert cells == len(datasets) * len(METHODS) * folds


def test_the_docs_state_the_datasets_the_catalogue_lists():
    offline, online = len(OFFLINE_DATASETS), len(ONLINE_DATASETS)
    usage = (PROJECT / "docs/usage.md").read_text()
    assert f"# {offline} offline datasets + {online} online-only ones" in usage
    catalogue = (PROJECT / "docs/datasets.md").read_text()
    assert f"**{offline + online} datasets**" in catalogue and f"**{offline} offline**" in catalogue
