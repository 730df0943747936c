"""``numpy.random`` on JAX's counter-based PRNG.

>>> import namedarray as np
>>> np.random.seed(0)
>>> np.random.normal(size=(2, 3)).shape
(2, 3)
>>> rng = np.random.default_rng(42)
>>> rng.integers(10, size=4).dtype
dtype('int64')

Both NumPy APIs are here: the legacy global state (``seed``, ``rand``,
``randn``, ``randint``, ``normal``, ..., ``get_state``/``set_state``,
``RandomState``; NumPy's ``mtrand`` module holds them, ``mtrand._rand`` the
global stream) and ``default_rng(seed)`` returning a :class:`Generator`.

How it works.  A stream seeded NumPy's way (``seed``, ``RandomState(seed)``,
``default_rng(seed)``, ``Generator(PCG64(s))``: ``None``, ints, sequences of
ints, a ``SeedSequence`` or a NumPy bit generator) holds NumPy's own
generator: an eager draw whose arguments are NumPy data gives NumPy's exact
numbers and dtypes (moved to the device; strings and other data JAX cannot
hold stay NumPy arrays), and its ``get_state``/``set_state`` are NumPy's.  A
draw that meets named axes, or runs under an eager ``vmap``/``grad``, draws
with ``jax.random`` from a key taken from that NumPy generator (the same
distributions, other values).  A JAX key can be given directly to
``default_rng``/``Generator``: then a stream holds that key (``threefry2x32``),
every draw splits it into (next key, key for this draw), and ``get_state()``
returns ``("threefry2x32", key_data, draws)``, which ``set_state`` takes back.

>>> import numpy
>>> bool(np.random.default_rng(7).random() == numpy.random.default_rng(7).random())
True

Results are NamedArrays with NumPy's dtypes (``float64``/``int64`` by
default).  With ``size=None`` and scalar parameters a draw is a Python
``float``/``int`` where NumPy returns one, and a 0-d array where NumPy returns
a NumPy scalar (``Generator.integers``, ``choice`` from an array).
Parameters broadcast as in NumPy; a parameter with *named* axes gives a result
with those names (one independent draw per named slice).  ``size`` is an int
or a tuple of ints (positional axes), a dict of named sizes
(``size=x.named_shape``), or a tuple mixing both: ``size=(3, {"batch": 8})``
has positional shape ``(3,)`` and the name ``"batch"``.  ``shuffle`` works in
place: on a NamedArray it rebinds ``x.data`` (and ``axis`` may name an axis);
NumPy arrays and lists are shuffled in place too.

Keyed, for traced code.  ``default_rng(key)`` with a JAX key
(``jax.random.key(0)``, or ``PRNGKey`` data; a traced key inside ``jax.jit``
is fine) is a Generator whose draws are a function of that key: different
keys give different draws, and a jitted function taking the key draws anew
for each key it is given.  The NumPy-seeded state (the module functions,
``RandomState``, ``default_rng(int)``) refuses to draw inside ``jax.jit`` or
another staged trace (``RuntimeError`` naming the keyed form), since it could
only draw once, at trace time.

>>> import jax
>>> draw = jax.jit(lambda key: np.random.default_rng(key).normal(size=2))
>>> bool((draw(jax.random.key(0)) != draw(jax.random.key(1))).all())
True

Named draws.  Named axes are batch axes for every method: those of the
parameters, of ``size``, of ``out=``, of the array given to ``choice``,
``permutation``, ``shuffle`` and ``permuted`` (one choice or permutation per
named slice), of ``multivariate_normal``'s mean, and so on.  The elementwise
distributions draw the whole physical block (positional axes, then the names)
with one ``jax.random`` call, so they cost what ``jax.random`` costs on that
shape (``benchmarks/bench_random.py``).  The values are those of the block
with its names in sorted order; the samplers elementwise in threefry's
counter (uniform, normal, integers and the others built on uniform bits)
lay the block out in the order of the operands' names (``size=x.named_shape``
gives ``x``'s order), so no transpose follows the draw; inside an
``nmap`` (local, on a mesh, split, nested) each instance keeps its slice of
that block, so the result equals the physical draw.  The other methods draw
each named slice from the key with the slice's global index folded in (one
``fold_in`` per name, in sorted name order), with the same guarantee;
``multinomial`` over a mesh draws every instance's slices and keeps its own
(JAX's sampler cannot take a key that varies over a mesh axis).

Differences from NumPy: parameter checks (``scale < 0`` and the like) run on
concrete values only (not under tracing).  ``Generator.spawn`` advances the
parent's stream.
"""
from __future__ import annotations

from numpy.random import (MT19937, PCG64, PCG64DXSM, SFC64, BitGenerator,  # noqa: F401
                          Philox, SeedSequence)

from . import mtrand
from .mtrand import (  # noqa: F401  (the legacy API: bound methods of mtrand._rand)
    RandomState, beta, binomial, bytes, chisquare, choice, dirichlet, exponential, f, gamma,
    geometric, get_state, gumbel, laplace, logistic, lognormal, multinomial,
    multivariate_normal, normal, pareto, permutation, poisson, power, rand, randint, randn,
    random, random_integers, random_sample, ranf, rayleigh, sample, seed, set_state,
    shuffle, standard_cauchy, standard_exponential, standard_gamma, standard_normal,
    standard_t, triangular, uniform, weibull)
from .streams import Generator, default_rng

__all__ = [n for n in mtrand.__all__ if n != "RandomState"] + [
    "RandomState", "Generator", "default_rng", "SeedSequence", "BitGenerator", "MT19937",
    "PCG64", "PCG64DXSM", "Philox", "SFC64"]


def __dir__():
    """NumPy's public names only (the helpers here are private)."""
    return sorted(__all__ + ["mtrand"])
