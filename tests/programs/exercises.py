"""Classic NumPy exercises, written against ``np``; each returns its answer.

The test runs every function twice, with ``numpy`` and with ``namedarray``
injected as ``np``, and compares the answers.
"""


def null_vector_with_one(np):
    z = np.zeros(10)
    z[4] = 1
    return z


def reverse_and_reshape(np):
    return np.arange(10, 50)[::-1].reshape(8, 5)


def nonzero_indices(np):
    return np.nonzero(np.array([1, 2, 0, 0, 4, 0]))[0]


def checkerboard(np):
    z = np.zeros((8, 8), dtype=int)
    z[1::2, ::2] = 1
    z[::2, 1::2] = 1
    return z


def border_of_ones(np):
    z = np.ones((5, 5))
    z[1:-1, 1:-1] = 0
    return z


def pad_and_diag(np):
    return np.pad(np.diag(1 + np.arange(4), k=-1), 1, mode="constant", constant_values=0)


def normalize_matrix(np):
    z = np.arange(25.0).reshape(5, 5) % 7
    return (z - np.mean(z)) / np.std(z)


def negate_between(np):
    z = np.arange(11)
    z[(3 < z) & (z < 8)] *= -1
    return z


def common_values(np):
    return np.intersect1d(np.arange(0, 20, 3), np.arange(0, 20, 2))


def sorted_random_like(np):
    z = (np.arange(10.0) * 7.3) % 5
    z.sort()
    return z


def closest_value(np):
    z = np.arange(100.0)
    v = 43.7
    return z[(np.abs(z - v)).argmin()]


def pairwise_distances(np):
    z = (np.arange(20.0).reshape(10, 2) * 1.7) % 3
    x, y = np.atleast_2d(z[:, 0], z[:, 1])
    return np.sqrt((x - x.T) ** 2 + (y - y.T) ** 2)


def subtract_row_mean(np):
    x = np.arange(15.0).reshape(5, 3) ** 1.5
    return x - x.mean(axis=1, keepdims=True)


def sort_by_column(np):
    z = (np.arange(9).reshape(3, 3) * 5) % 7
    return z[z[:, 1].argsort()]


def most_frequent(np):
    z = np.array([1, 3, 3, 2, 3, 1, 1, 1, 0, 7])
    return np.bincount(z).argmax()


def moving_average(np):
    a = np.arange(20.0)
    ret = np.cumsum(a, dtype=float)
    ret[3:] = ret[3:] - ret[:-3]
    return ret[3 - 1:] / 3


def outer_products(np):
    return np.outer(np.arange(1, 4), np.arange(1, 5)) + np.add.outer(np.arange(3), np.arange(4))


def unique_rows(np):
    z = np.array([[0, 1], [1, 0], [0, 1], [1, 1]])
    return np.unique(z, axis=0)


def einsum_ops(np):
    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    return np.einsum("ij,jk->ik", a, b) + np.einsum("ij->j", a).sum() + np.trace(b[:, :3])


def broadcasting_grid(np):
    x = np.linspace(0, 1, 5)
    y = np.linspace(0, 2, 4)
    xx, yy = np.meshgrid(x, y)
    return np.hypot(xx, yy)


def boolean_stats(np):
    z = np.arange(30).reshape(5, 6) % 7
    return np.array([np.count_nonzero(z > 3), np.any(z == 6), np.all(z < 7), z[z > 4].sum()])


def linear_algebra(np):
    a = np.array([[3.0, 1.0], [1.0, 2.0]])
    b = np.array([9.0, 8.0])
    x = np.linalg.solve(a, b)
    return np.concatenate([x, [np.linalg.det(a)], np.linalg.eigvalsh(a), np.linalg.inv(a).ravel()])


def integer_arithmetic(np):
    z = np.arange(-5, 6, dtype=np.int8)
    return np.stack([z // 3, z % 3, np.abs(z), z * 20, np.right_shift(z, 1)])


def fancy_assignment(np):
    z = np.zeros(10)
    i = np.array([1, 3, 3, 5])
    z[i] += 1
    np.add.at(z, i, 1)
    return z


def where_and_clip(np):
    z = np.linspace(-2, 2, 9)
    return np.where(z > 0, z ** 2, np.clip(z, -1, 0))


def diff_and_gradient(np):
    z = np.array([1.0, 4.0, 9.0, 16.0, 25.0])
    return np.concatenate([np.diff(z), np.gradient(z), np.diff(z, n=2)])


def histogram_and_digitize(np):
    z = np.arange(20.0) % 7
    h, edges = np.histogram(z, bins=4)
    return np.concatenate([h.astype(float), edges, np.digitize(z, edges[1:-1]).astype(float)])


def polynomial(np):
    return np.polyval(np.array([1.0, -3.0, 2.0]), np.arange(5.0))


def dtype_promotion(np):
    a = np.ones(3, dtype=np.int8)
    out = [(a + 1).dtype, (a + 1.5).dtype, (a * np.ones(3, dtype=np.float32)).dtype,
           (a / a).dtype, np.sum(a).dtype, np.mean(a).dtype, (a > 0).dtype]
    return [str(d) for d in out]


def game_of_life_step(np):
    z = np.zeros((6, 6), dtype=int)
    z[1, 2] = z[2, 3] = z[3, 1] = z[3, 2] = z[3, 3] = 1
    n = (z[0:-2, 0:-2] + z[0:-2, 1:-1] + z[0:-2, 2:] + z[1:-1, 0:-2] + z[1:-1, 2:]
         + z[2:, 0:-2] + z[2:, 1:-1] + z[2:, 2:])
    birth = (n == 3) & (z[1:-1, 1:-1] == 0)
    survive = ((n == 2) | (n == 3)) & (z[1:-1, 1:-1] == 1)
    z[...] = 0
    z[1:-1, 1:-1][birth | survive] = 1
    return z
