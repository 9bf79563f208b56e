"""The replay: a dataset's history fed period by period through refresh, score, monitor and retrain.

:mod:`tasks.replay.history` cuts a dataset in time order into periods; :mod:`tasks.replay.loop` writes them
as the batches of a source folder and judges three models on each (the champion, the first champion never
retrained, a model retrained every period); :mod:`tasks.replay.verdict` makes the table, the figure and the
report of the ``replay`` flow (``flows.replay``).
"""
