#!/usr/bin/env bash
# AdaCC paper (Iosifidis et al.), Tables 6-8 on the 12 AdaCC datasets available offline: the 14 methods of
# Table 8 plus AdaN-CC1/2 (Table 7), stratified R x 5-fold CV, T from one fit, C- chosen by training F1.
# The paper's protocol is REPEATS=10 N_ESTIMATORS=25,50,100,200 NEGATIVE_COSTS=0.1,...,1.0 (tens of core-hours
# here, see docs/results/big-runs.md); the defaults below are the reduced run of docs/results/adacc.md.
# One comparison per group of datasets (the nine small ones, then each large one), so that the tables can be
# built from the groups that finished; the tables join every group's run.
#   REPEATS (1)  N_ESTIMATORS (25,50,100)  NEGATIVE_COSTS (0.1,0.4,0.7,1.0)  DATASET_GROUPS (see below)
source "$(dirname "${BASH_SOURCE[0]}")/_common.sh"

GROUPS_DEFAULT="abalone,car-eval,optical-digits,pen-digits,phoneme,satimage,spambase,us-crime,wine-quality letter-img bank adult"
METHODS="adaboost adacc1 adacc2 adamec adamec-cal cgada cgada-cal adacost csb1 csb2 adac1 adac2 adac3 rareboost adancc1 adancc2"
runs=()
for group in ${DATASET_GROUPS:-$GROUPS_DEFAULT}; do
    runs+=("$(compare_run "adacc-${group%%,*}" --datasets "$group" --methods $METHODS --protocol cv --folds 5 \
        --repeats "${REPEATS:-1}" --n-estimators "${N_ESTIMATORS:-25,50,100}" \
        --negative-costs "${NEGATIVE_COSTS:-0.1,0.4,0.7,1.0}" --cost-selection train \
        --experiment cslearn-repro-adacc)")
    echo "group $group: MLflow parent run ${runs[-1]}" >&2
done
# Table 8 ranks the 14 methods of the paper's Table 8 (AdaN-CC1/2 appear in Table 7 only)
tables adacc "${runs[@]}" --tables size,cumulative,ranks --metric balanced_accuracy --percent \
    --rank-methods "$(echo ${METHODS// adancc1 adancc2/} | tr " " ",")"
