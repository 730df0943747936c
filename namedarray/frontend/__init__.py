"""The NumPy API: engines and the declarations over them."""
