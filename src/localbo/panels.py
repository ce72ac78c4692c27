"""The two panels of the error-function figures (paper Fig. 2, and the RBF study): the variable
each varies along its x axis, and the one it holds fixed. A module of its own, so that drawing
them imports no optimizer."""

PANEL_AXES = {"a": ("b", "d"), "b": ("d", "b")}
