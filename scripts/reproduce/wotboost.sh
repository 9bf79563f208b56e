#!/usr/bin/env bash
# WOTBoost paper (Zhang et al.), Table 3 on the 13 WOTBoost datasets available offline: DT, SMOTE+DT,
# ADASYN+DT, SMOTEBoost, WOTBoost on R stratified 50/50 splits (the paper: R = 100), k = 5, T rounds.
#   REPEATS (5)  N_ESTIMATORS (50)  DATASETS (the 13)
source "$(dirname "${BASH_SOURCE[0]}")/_common.sh"

DATASETS="${DATASETS:-pima abalone-9-18 vowel ionosphere vehicle phoneme haberman wisconsin pc1 segment yeast adult-numeric satimage}"
run=$(compare_run wotboost --datasets $DATASETS --methods dt smote-dt adasyn-dt smoteboost wotboost \
    --protocol holdout --repeats "${REPEATS:-5}" --n-estimators "${N_ESTIMATORS:-50}" --cost-selection none \
    --experiment cslearn-repro-wotboost)
echo "MLflow parent run: $run" >&2
tables wotboost "$run" --tables per-dataset,average
