#!/usr/bin/env bash
# CSDT paper (Correa Bahnsen et al.), Tables 7-9 on its three business datasets: stratified
# train/validation/test splits (40/30/30, Table 3), every training set of Section 6 (t, u, r, o):
# DT and CSDT without pruning (notp), with error pruning (errp) and cost pruning (costp); DT, LR and RF with
# Bayes minimum risk (training set t); and every boosting method with example-dependent costs (t).
#   REPEATS (1)  N_ESTIMATORS (100)  DATASETS (credit-scoring direct-marketing card-fraud)
source "$(dirname "${BASH_SOURCE[0]}")/_common.sh"

DATASETS="${DATASETS:-credit-scoring direct-marketing card-fraud}"
common=(--datasets $DATASETS --protocol tvt --repeats "${REPEATS:-1}" --n-estimators "${N_ESTIMATORS:-100}"
    --experiment cslearn-repro-csdt)
runs=()
for set in train under rejection over; do
    short="${set:0:1}"
    # registry keys: csdt = CSDT costp, dt = DT notp, dt-costp = DT costp; notp and errp by parameters
    runs+=("$(compare_run "csdt-$set" "${common[@]}" --training-set "$set" --methods csdt dt dt-costp)={method} $short")
    runs+=("$(compare_run "csdt-$set-notp" "${common[@]}" --training-set "$set" --methods csdt \
        --method-params '{"csdt": {"pruning": null}}')=csdt-notp $short")
    runs+=("$(compare_run "csdt-$set-errp" "${common[@]}" --training-set "$set" --methods csdt \
        --method-params '{"csdt": {"pruning": "error"}}')=csdt-errp $short")
    runs+=("$(compare_run "dt-$set-errp" "${common[@]}" --training-set "$set" --methods dt \
        --method-params '{"dt": {"pruning": "error"}}')=dt-errp $short")
done
runs+=("$(compare_run csdt-bmr "${common[@]}" --methods bmr-lr bmr-rf bmr-dt)={method} t")
runs+=("$(compare_run csdt-boosting "${common[@]}" --methods adaboost adacc1 adacc2 adancc1 adancc2 cgada \
    cgada-cal adamec adamec-cal rareboost csb1 csb2 adacost adac1 adac2 adac3 cs-adaboost smoteboost wotboost \
    rusboost)={method} t")
echo "MLflow parent runs: ${runs[*]}" >&2
tables csdt "${runs[@]}" --tables cost
