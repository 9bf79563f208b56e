"""Watching the champion: feature drift, prediction drift and realized savings of a batch, as time series.

- :mod:`~tasks.monitoring.drift`: the population stability index per feature (0.1 / 0.25 bands) and
  scipy's two-sample Kolmogorov-Smirnov test for numeric columns, against the champion's training rows;
- :mod:`~tasks.monitoring.watch`: one batch watched (prediction drift, realized savings once labels have
  arrived, the thresholds that call for a retrain), the MLflow series, the figure and the Prefect tasks.
"""
