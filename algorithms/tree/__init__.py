"""tree estimators."""

TREE_METHODS: dict[str, type] = {}
