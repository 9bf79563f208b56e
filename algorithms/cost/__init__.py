"""cost estimators."""

COST_METHODS: dict[str, type] = {}
