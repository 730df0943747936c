"""``numpy.random`` placeholder replaced below."""
