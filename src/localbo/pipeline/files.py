"""How pipeline values appear in file names."""


def sigma_label(sigma: float) -> str:
    """The text of a noise level in file names: the shortest repr of the float.

    Example:
        >>> sigma_label(0), sigma_label(0.05)
        ('0.0', '0.05')
    """
    return repr(float(sigma))
