"""Behaviour of the fitted tree: training cost never above the root leaf, the scikit-learn oracle for Gini,
weights as multiplicities, Laplace probabilities, node arrays, exports, input validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from algorithms import METHODS
from algorithms.metrics import cost_loss
from algorithms.tree import TREE_METHODS, CostSensitiveDecisionTreeClassifier, export_graphviz, export_text
from algorithms.tree._nodes import LEAF


def _cost_data(seed, n_samples=300):
    rng = np.random.default_rng(seed)
    X, y = make_classification(n_samples, 5, n_informative=3, weights=[0.8], random_state=seed)
    costs = np.zeros((n_samples, 4))
    costs[:, 0] = 1.0  # C_FP: administrative cost
    costs[:, 2] = 1.0  # C_TP
    costs[:, 1] = rng.lognormal(1.5, 1.0, n_samples)  # C_FN: example dependent
    return X, y, costs


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("criterion", ["cost", "gini", "entropy"])
def test_training_cost_never_exceeds_the_root_leaf(seed, criterion):
    X, y, costs = _cost_data(seed)
    tree = CostSensitiveDecisionTreeClassifier(criterion=criterion, max_depth=4, min_gain=0.0).fit(
        X, y, cost_matrix=costs
    )
    root_leaf = min(cost_loss(y, np.zeros_like(y), costs), cost_loss(y, np.ones_like(y), costs))
    if criterion == "cost":  # each split lowers the training cost (Eq. 10 gain > 0)
        assert cost_loss(y, tree.predict(X), costs) <= root_leaf + 1e-9
    leaves = tree.apply(X)
    assert np.all(tree.tree_.children_left[leaves] == LEAF)
    # the training cost is the sum of the leaves' costs under their labels
    leaf_costs = tree.tree_.cost[np.unique(leaves)]
    leaf_labels = tree.tree_.label[np.unique(leaves)]
    expected = leaf_costs[np.arange(leaf_labels.size), leaf_labels].sum()
    assert cost_loss(y, tree.predict(X), costs) == pytest.approx(expected)


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_gini_and_entropy_trees_reproduce_scikit_learn(criterion):
    """Oracle: DecisionTreeClassifier finds the same partitions (same node sizes and class fractions).

    Features and thresholds are compared above depth 2 only: deeper nodes isolate single samples, which
    several features do equally well (scikit-learn breaks such ties by a random feature order).
    scikit-learn splits on float32 values, hence the threshold tolerance.
    """
    X, y = make_classification(400, 6, n_informative=4, random_state=3)
    ours = CostSensitiveDecisionTreeClassifier(criterion=criterion, max_depth=3, min_gain=0.0).fit(X, y).tree_
    theirs = DecisionTreeClassifier(criterion=criterion, max_depth=3, random_state=0).fit(X, y).tree_
    np.testing.assert_array_equal(ours.children_left, theirs.children_left)
    np.testing.assert_array_equal(ours.n_node_samples, theirs.n_node_samples)
    np.testing.assert_allclose(ours.value / ours.value.sum(axis=1, keepdims=True), theirs.value[:, 0])
    top = ours.depth < 2
    np.testing.assert_array_equal(ours.feature[top], theirs.feature[top])
    np.testing.assert_allclose(ours.threshold[top], theirs.threshold[top], rtol=1e-6)


def test_unit_costs_make_the_cost_tree_minimise_errors():
    X, y = make_classification(300, 4, random_state=2)
    with_units = CostSensitiveDecisionTreeClassifier(max_depth=3).fit(
        X, y, cost_matrix=np.tile([1, 1, 0, 0], (300, 1))
    )
    without = CostSensitiveDecisionTreeClassifier(max_depth=3).fit(X, y)
    np.testing.assert_array_equal(with_units.predict(X), without.predict(X))
    np.testing.assert_allclose(without.tree_.impurity[0], min(np.bincount(y)))  # errors of the root leaf


def test_scaling_all_costs_leaves_the_tree_unchanged():
    X, y, costs = _cost_data(4)
    base = CostSensitiveDecisionTreeClassifier(max_depth=4).fit(X, y, cost_matrix=costs)
    scaled = CostSensitiveDecisionTreeClassifier(max_depth=4).fit(X, y, cost_matrix=costs * 37.5)
    np.testing.assert_array_equal(base.tree_.feature, scaled.tree_.feature)
    np.testing.assert_array_equal(base.predict(X), scaled.predict(X))


def test_integer_weights_equal_repeated_rows():
    X, y, costs = _cost_data(5, n_samples=120)
    weights = np.random.default_rng(0).integers(0, 4, size=120)
    weighted = CostSensitiveDecisionTreeClassifier(max_depth=4).fit(X, y, weights, cost_matrix=costs)
    rows = np.repeat(np.arange(120), weights)
    repeated = CostSensitiveDecisionTreeClassifier(max_depth=4).fit(X[rows], y[rows], cost_matrix=costs[rows])
    np.testing.assert_array_equal(weighted.tree_.feature, repeated.tree_.feature)
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X))


def test_predict_proba_is_the_laplace_smoothed_leaf_frequency():
    X, y, costs = _cost_data(6)
    tree = CostSensitiveDecisionTreeClassifier(max_depth=2).fit(X, y, cost_matrix=costs)
    leaves = tree.apply(X)
    for leaf in np.unique(leaves):
        members = y[leaves == leaf]
        expected = (members.sum() + 1) / (members.size + 2)
        np.testing.assert_allclose(tree.predict_proba(X[leaves == leaf])[:, 1], expected)


def test_labels_of_any_type_and_the_minority_as_positive():
    X, y, costs = _cost_data(8)
    labels = np.where(y == 1, "buy", "pass")  # "buy" is the minority, but sorts first
    tree = CostSensitiveDecisionTreeClassifier(max_depth=3).fit(X, labels, cost_matrix=costs)
    assert tree.pos_label_ == "buy" and list(tree.classes_) == ["buy", "pass"] and tree.positive_index_ == 0
    coded = CostSensitiveDecisionTreeClassifier(max_depth=3).fit(X, y, cost_matrix=costs)
    np.testing.assert_array_equal(tree.predict(X) == "buy", coded.predict(X) == 1)
    np.testing.assert_allclose(tree.predict_proba(X)[:, 0], coded.predict_proba(X)[:, 1])


def test_max_features_draws_are_seeded():
    X, y, costs = _cost_data(9)
    fit = lambda seed: CostSensitiveDecisionTreeClassifier(max_features=2, random_state=seed).fit(  # noqa: E731
        X, y, cost_matrix=costs
    )
    np.testing.assert_array_equal(fit(0).tree_.feature, fit(0).tree_.feature)
    assert any(not np.array_equal(fit(0).tree_.feature, fit(seed).tree_.feature) for seed in range(1, 6))


def test_depth_and_leaf_limits():
    X, y, costs = _cost_data(10)
    tree = CostSensitiveDecisionTreeClassifier(max_depth=2, min_samples_leaf=20, min_gain=0.0).fit(
        X, y, cost_matrix=costs
    )
    assert tree.tree_.max_depth <= 2
    assert tree.tree_.n_node_samples[tree.tree_.children_left == LEAF].min() >= 20
    stump = CostSensitiveDecisionTreeClassifier(min_samples_split=301).fit(X, y, cost_matrix=costs)
    assert stump.tree_.node_count == 1


def test_decision_path_and_apply_agree():
    X, y, costs = _cost_data(11)
    tree = CostSensitiveDecisionTreeClassifier(max_depth=4).fit(X, y, cost_matrix=costs)
    paths = tree.decision_path(X).toarray()
    leaves = tree.apply(X)
    assert np.all(paths[:, 0] == 1)
    assert np.all(paths[np.arange(len(X)), leaves] == 1)
    np.testing.assert_array_equal(paths.sum(axis=1), tree.tree_.depth[leaves] + 1)


def test_text_and_graphviz_exports():
    X, y = np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([1, 0, 1, 0])
    costs = np.array(
        [[3.0, 10.0, 1.0, 0.0], [2.0, 7.0, 0.0, 0.0], [9.0, 4.0, 1.0, 2.0], [5.0, 1.0, 3.0, 0.0]]
    )
    tree = CostSensitiveDecisionTreeClassifier(max_depth=1).fit(X, y, cost_matrix=costs)
    assert export_text(tree, feature_names=["income"]) == (
        "|--- income <= 3.50\n"
        "|   |--- class: 1 (samples 3, cost 4.00)\n"
        "|--- income >  3.50\n"
        "|   |--- class: 0 (samples 1, cost 0.00)\n"
    )
    dot = export_graphviz(tree)
    assert dot.startswith("digraph CostSensitiveTree {") and dot.rstrip().endswith("}")
    assert '0 -> 1 [label="True"];' in dot and '0 -> 2 [label="False"];' in dot
    assert "feature_0 <= 3.50" in dot and "cost(0, 1) = [14.00, 9.00]" in dot
    with pytest.raises(ValueError, match="feature_names has 2 names but the tree was fitted on 1 features"):
        export_text(tree, feature_names=["a", "b"])


def _rules_from_text(text):
    """Parse ``export_text`` back into (conditions, class) per leaf; a condition is (name, "<=" or ">", t)."""
    rules, path = [], []
    for line in text.splitlines():
        depth = line.index("|--- ") // 4
        content = line[line.index("|--- ") + 5 :]
        del path[depth:]
        if content.startswith("class: "):
            rules.append((list(path), content[len("class: ") : content.index(" (samples")]))
        else:
            name, operator, threshold = content.split()
            path.append((name, operator, float(threshold)))
    return rules


@pytest.mark.parametrize("criterion", ["cost", "gini"])
def test_export_text_of_a_fitted_tree_reproduces_its_predictions(criterion):
    """Oracle: the rules printed by export_text, applied to the data, give the tree's own predictions."""
    X, y, costs = _cost_data(14, n_samples=500)
    names = ["age", "balance", "duration", "campaign", "pdays"]
    labels = np.where(y == 1, "yes", "no")
    tree = CostSensitiveDecisionTreeClassifier(criterion=criterion, min_gain=0.0).fit(
        X, labels, cost_matrix=costs
    )
    assert tree.tree_.n_internal_nodes >= 5
    text = export_text(tree, feature_names=names, decimals=12)
    assert len(text.splitlines()) == 2 * tree.tree_.n_internal_nodes + tree.tree_.n_leaves
    rules = _rules_from_text(text)
    assert len(rules) == tree.tree_.n_leaves
    predicted = np.full(len(y), None, dtype=object)
    for conditions, label in rules:
        member = np.ones(len(y), dtype=bool)
        for name, operator, threshold in conditions:
            column = X[:, names.index(name)]
            member &= column <= threshold if operator == "<=" else column > threshold
        assert not np.any(member & (predicted != None))  # noqa: E711 - every sample reaches one leaf
        predicted[member] = label
    np.testing.assert_array_equal(predicted, tree.predict(X))


def test_export_text_max_depth_truncates_deeper_branches():
    X, y, costs = _cost_data(15)
    tree = CostSensitiveDecisionTreeClassifier(min_gain=0.0).fit(X, y, cost_matrix=costs)
    full = tree.export_text()
    assert tree.export_text(max_depth=tree.tree_.max_depth) == full
    shallow = tree.export_text(max_depth=0).splitlines()
    # the root's two branches, each a leaf line or one line for the whole truncated subtree
    assert len(shallow) == 4 and shallow[0].startswith("|--- feature_") and "<=" in shallow[0]
    sizes = tree.tree_.subtree_sizes()
    for line, child in zip(
        shallow[1::2], (tree.tree_.children_left[0], tree.tree_.children_right[0]), strict=True
    ):
        if tree.tree_.children_left[child] == LEAF:
            assert line.startswith("|   |--- class: ")
        else:
            depth_below = tree.tree_.depth[child : child + sizes[child]].max() - tree.tree_.depth[child]
            assert line == f"|   |--- truncated branch of depth {depth_below}"
    assert "truncated branch" in "".join(shallow)
    with pytest.raises(ValueError, match="max_depth must be a non-negative integer or None; got -1"):
        tree.export_text(max_depth=-1)


def test_exports_of_a_tree_deeper_than_the_recursion_limit():
    # Alternating labels along one feature: a full-depth Gini tree peels one sample per level.
    X = np.arange(1500.0)[:, None]
    y = np.arange(1500) % 2
    tree = CostSensitiveDecisionTreeClassifier(criterion="gini", min_gain=0.0).fit(X, y)
    assert tree.tree_.max_depth > 1000
    text = tree.export_text()
    assert len(text.splitlines()) == 2 * tree.tree_.n_internal_nodes + tree.tree_.n_leaves
    assert text.count("class:") == tree.tree_.n_leaves
    dot = tree.export_graphviz()
    assert dot.count("->") == 2 * tree.tree_.n_internal_nodes


def test_graphviz_labels_and_escaping():
    X, y = np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([1, 0, 1, 0])
    costs = np.array(
        [[3.0, 10.0, 1.0, 0.0], [2.0, 7.0, 0.0, 0.0], [9.0, 4.0, 1.0, 2.0], [5.0, 1.0, 3.0, 0.0]]
    )
    labels = np.where(y == 1, 'say "yes"', "no")
    tree = CostSensitiveDecisionTreeClassifier(max_depth=1, pos_label='say "yes"').fit(
        X, labels, cost_matrix=costs
    )
    dot = export_graphviz(tree, feature_names=['income "k\\EUR"'])
    assert (
        '0 [label="income \\"k\\\\EUR\\" <= 3.50\\nsamples = 4\\nclass counts = [2.00, 2.00]'
        '\\ncost(0, 1) = [14.00, 9.00]"];'
    ) in dot
    assert (
        '1 [label="class = say \\"yes\\"\\nsamples = 3\\nclass counts = [1.00, 2.00]'
        '\\ncost(0, 1) = [14.00, 4.00]"];'
    ) in dot
    assert '2 [label="class = no\\nsamples = 1' in dot


def test_inputs_are_not_mutated():
    X, y, costs = _cost_data(12)
    weights = np.linspace(0.5, 2.0, len(y))
    copies = [a.copy() for a in (X, y, costs, weights)]
    CostSensitiveDecisionTreeClassifier(pruning="cost", random_state=0).fit(X, y, weights, cost_matrix=costs)
    for original, copy in zip((X, y, costs, weights), copies, strict=True):
        np.testing.assert_array_equal(original, copy)


def test_bad_inputs_raise_clear_errors():
    X, y, costs = _cost_data(13, n_samples=50)
    tree = CostSensitiveDecisionTreeClassifier()
    with pytest.raises(ValueError, match=r"cost_matrix must have shape \(n_samples, 4\)"):
        tree.fit(X, y, cost_matrix=costs[:, :3])
    with pytest.raises(ValueError, match="cost_matrix has 49 rows but the data has 50 samples"):
        tree.fit(X, y, cost_matrix=costs[:49])
    bad = costs.copy()
    bad[[3, 7], 1] = -1.0
    with pytest.raises(ValueError, match=r"negative entries in column\(s\) \['C_FN'\] at rows \[3, 7\]"):
        tree.fit(X, y, cost_matrix=bad)
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        tree.fit(X, np.arange(50) % 3)
    with pytest.raises(ValueError, match=r"pos_label=5 is not one of the classes \[0, 1\]"):
        CostSensitiveDecisionTreeClassifier(pos_label=5).fit(X, y)
    with pytest.raises(ValueError, match="validation set but pruning=None"):
        tree.fit(X, y, validation=(X, y))


def test_registry_entries_construct_without_arguments_and_join_methods():
    assert set(TREE_METHODS) == {"csdt", "dt-costp", "dt"}
    for key, cls in TREE_METHODS.items():
        assert METHODS[key] is cls
        estimator = cls()
        assert set(estimator.get_params()) == set(CostSensitiveDecisionTreeClassifier().get_params())
    assert TREE_METHODS["csdt"]().get_params()["criterion"] == "cost"
    assert TREE_METHODS["csdt"]().get_params()["pruning"] == "cost"
    assert TREE_METHODS["dt-costp"]().get_params()["criterion"] == "gini"
    assert TREE_METHODS["dt"]().get_params()["pruning"] is None


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n_samples=st.integers(5, 60),
    max_depth=st.sampled_from([1, 2, 4, None]),
)
def test_weighted_training_cost_never_exceeds_the_root_leaf(seed, n_samples, max_depth):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, size=(n_samples, 3)).astype(float)
    y = rng.integers(0, 2, size=n_samples)
    if y.min() == y.max():
        y[0] = 1 - y[0]
    costs = rng.uniform(0, 10, size=(n_samples, 4))
    weights = rng.uniform(0.1, 3.0, size=n_samples)
    tree = CostSensitiveDecisionTreeClassifier(max_depth=max_depth, min_gain=0.0, pos_label=1)
    tree.fit(X, y, weights, cost_matrix=costs)
    weighted_costs = costs * weights[:, None]
    root_leaf = min(
        cost_loss(y, np.zeros_like(y), weighted_costs), cost_loss(y, np.ones_like(y), weighted_costs)
    )
    assert cost_loss(y, tree.predict(X), weighted_costs) <= root_leaf + 1e-9
    assert tree.tree_.impurity[0] == pytest.approx(root_leaf)
