"""The engines every public NumPy function is declared over."""
