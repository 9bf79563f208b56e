"""boosting estimators."""

BOOSTING_METHODS: dict[str, type] = {}
