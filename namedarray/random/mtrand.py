"""``numpy.random.mtrand``: the legacy ``RandomState`` and the one global
stream the module functions draw from (``_rand``).  Libraries reach them by
these names (``isinstance(seed, np.random.mtrand.RandomState)``,
``np.random.mtrand._rand`` as the stream ``seed=None`` means), so they are
NumPy's names for the same objects: ``np.random.seed`` is ``_rand.seed``.

>>> import namedarray as np
>>> np.random.mtrand.RandomState is np.random.RandomState
True
>>> np.random.seed(3)
>>> a = np.random.mtrand._rand.rand()
>>> np.random.seed(3)
>>> bool(np.random.rand() == a)
True
"""
from __future__ import annotations

from .streams import RandomState

# the legacy module-level API: bound methods of one global RandomState
_rand = RandomState()
seed = _rand.seed
get_state = _rand.get_state
set_state = _rand.set_state
rand = _rand.rand
randn = _rand.randn
randint = _rand.randint
random_integers = _rand.random_integers
random = _rand.random
random_sample = _rand.random_sample
ranf = _rand.ranf
sample = _rand.sample
choice = _rand.choice
shuffle = _rand.shuffle
permutation = _rand.permutation
bytes = _rand.bytes
multivariate_normal = _rand.multivariate_normal
dirichlet = _rand.dirichlet
multinomial = _rand.multinomial
# the distributions (_DISTRIBUTIONS)
standard_normal = _rand.standard_normal
normal = _rand.normal
uniform = _rand.uniform
standard_exponential = _rand.standard_exponential
exponential = _rand.exponential
standard_gamma = _rand.standard_gamma
gamma = _rand.gamma
beta = _rand.beta
chisquare = _rand.chisquare
f = _rand.f
standard_t = _rand.standard_t
standard_cauchy = _rand.standard_cauchy
lognormal = _rand.lognormal
laplace = _rand.laplace
logistic = _rand.logistic
gumbel = _rand.gumbel
rayleigh = _rand.rayleigh
pareto = _rand.pareto
weibull = _rand.weibull
power = _rand.power
triangular = _rand.triangular
poisson = _rand.poisson
binomial = _rand.binomial
geometric = _rand.geometric

__all__ = ["RandomState"] + [_n for _n, _v in globals().items()
                             if getattr(_v, "__self__", None) is _rand]
