# Public Numba code, verbatim; only the import line changed (`from numba import jit, njit` ->
# `from kiln import njit`; `jit` is unused in the functions taken).
# All from QuantEcon/QuantEcon.py, license MIT (the repository's LICENSE):
#   [S] quantecon/optimize/scalar_maximization.py, commit 152c067552ed19cf6379340483822d9a73d8b89c
#   [s] quantecon/optimize/tests/test_scalar_max.py, commit 152c067552ed19cf6379340483822d9a73d8b89c
#   [R] quantecon/optimize/root_finding.py, commit 1155267e3529bc7062d0f088b7011bfbe47ad153
#   [r] quantecon/optimize/tests/test_root_finding.py, commit 2cbddca7cfe1c1fec87b13bff9ea4285c16625e0
# Functions: maximize_scalar [S], f [s], _results [R] (with the constants _ECONVERGED, _ECONVERR and the
#   namedtuple `results`), newton [R], newton_halley [R], newton_secant [R], func [r], func_prime [r],
#   func_prime2 [r], func_two [r], func_two_prime [r], func_two_prime2 [r].
import numpy as np
from kiln import njit
from collections import namedtuple

_ECONVERGED = 0
_ECONVERR = -1

results = namedtuple('results', 
                      ('root function_calls iterations converged'))


@njit
def maximize_scalar(func, a, b, xtol=1e-5, maxiter=500):
    """
    Uses a jitted version of the maximization routine from SciPy's fminbound.
    The algorithm is identical except that it's been switched to maximization
    rather than minimization, and the tests for convergence have been stripped
    out to allow for jit compilation.

    Note that the input function `func` must be jitted or the call will fail.

    Parameters
    ----------
    maxiter : int, optional
        Maximum number of iterations to perform.
    xtol : float, optional
        Absolute error in solution `xopt` acceptable for convergence.
    func : jitted function
    a : scalar
        Lower bound for search
    b : scalar
        Upper bound for search

    Returns
    -------
    fval : float
        The maximum value attained
    xf : float
        The maxizer

    Example
    -------

    ```
        @njit
        def f(x):
            return -(x + 2.0)**2 + 1.0

        fval, xf = maximize_scalar(f, -2, 2)
    ```

    """
    maxfun = maxiter

    sqrt_eps = np.sqrt(2.2e-16)
    golden_mean = 0.5 * (3.0 - np.sqrt(5.0))

    fulc = a + golden_mean * (b - a)
    nfc, xf = fulc, fulc
    rat = e = 0.0
    x = xf
    fx = -func(x)
    num = 1
    fmin_data = (1, xf, fx)

    ffulc = fnfc = fx
    xm = 0.5 * (a + b)
    tol1 = sqrt_eps * np.abs(xf) + xtol / 3.0
    tol2 = 2.0 * tol1

    while (np.abs(xf - xm) > (tol2 - 0.5 * (b - a))):
        golden = 1
        # Check for parabolic fit
        if np.abs(e) > tol1:
            golden = 0
            r = (xf - nfc) * (fx - ffulc)
            q = (xf - fulc) * (fx - fnfc)
            p = (xf - fulc) * q - (xf - nfc) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = np.abs(q)
            r = e
            e = rat

            # Check for acceptability of parabola
            if ((np.abs(p) < np.abs(0.5*q*r)) and (p > q*(a - xf)) and
                    (p < q * (b - xf))):
                rat = (p + 0.0) / q
                x = xf + rat

                if ((x - a) < tol2) or ((b - x) < tol2):
                    si = np.sign(xm - xf) + ((xm - xf) == 0)
                    rat = tol1 * si
            else:      # do a golden section step
                golden = 1

        if golden:  # Do a golden-section step
            if xf >= xm:
                e = a - xf
            else:
                e = b - xf
            rat = golden_mean*e

        if rat == 0:
            si = np.sign(rat) + 1
        else:
            si = np.sign(rat)

        x = xf + si * np.maximum(np.abs(rat), tol1)
        fu = -func(x)
        num += 1
        fmin_data = (num, x, fu)

        if fu <= fx:
            if x >= xf:
                a = xf
            else:
                b = xf
            fulc, ffulc = nfc, fnfc
            nfc, fnfc = xf, fx
            xf, fx = x, fu
        else:
            if x < xf:
                a = x
            else:
                b = x
            if (fu <= fnfc) or (nfc == xf):
                fulc, ffulc = nfc, fnfc
                nfc, fnfc = x, fu
            elif (fu <= ffulc) or (fulc == xf) or (fulc == nfc):
                fulc, ffulc = x, fu

        xm = 0.5 * (a + b)
        tol1 = sqrt_eps * np.abs(xf) + xtol / 3.0
        tol2 = 2.0 * tol1

        if num >= maxfun:
            break

    fval = -fx

    return fval, xf


@njit
def f(x):
    """
    A function for testing on.
    """
    return -(x + 2.0)**2 + 1.0


@njit
def _results(r):
    r"""Select from a tuple of(root, funccalls, iterations, flag)"""
    x, funcalls, iterations, flag = r
    return results(x, funcalls, iterations, flag == 0)

@njit
def newton(func, x0, fprime, args=(), tol=1.48e-8, maxiter=50,
           disp=True):
    """
    Find a zero from the Newton-Raphson method using the jitted version of 
    Scipy's newton for scalars. Note that this does not provide an alternative 
    method such as secant. Thus, it is important that `fprime` can be provided.

    Note that `func` and `fprime` must be jitted via Numba.
    They are recommended to be `njit` for performance.

    Parameters
    ----------
    func : callable and jitted
        The function whose zero is wanted. It must be a function of a
        single variable of the form f(x,a,b,c...), where a,b,c... are extra
        arguments that can be passed in the `args` parameter.
    x0 : float
        An initial estimate of the zero that should be somewhere near the
        actual zero.
    fprime : callable and jitted
        The derivative of the function (when available and convenient).
    args : tuple, optional
        Extra arguments to be used in the function call.
    tol : float, optional
        The allowable error of the zero value.
    maxiter : int, optional
        Maximum number of iterations.
    disp : bool, optional
        If True, raise a RuntimeError if the algorithm didn't converge

    Returns
    -------
    results : namedtuple
        root - Estimated location where function is zero.
        function_calls - Number of times the function was called.
        iterations - Number of iterations needed to find the root.
        converged - True if the routine converged
    """

    if tol <= 0:
        raise ValueError("tol is too small <= 0")
    if maxiter < 1:
        raise ValueError("maxiter must be greater than 0")

    # Convert to float (don't use float(x0); this works also for complex x0)
    p0 = 1.0 * x0
    funcalls = 0
    status = _ECONVERR

    # Newton-Raphson method
    for itr in range(maxiter):
        # first evaluate fval
        fval = func(p0, *args)
        funcalls += 1
        # If fval is 0, a root has been found, then terminate
        if fval == 0:
            status = _ECONVERGED
            p = p0
            itr -= 1
            break
        fder = fprime(p0, *args)
        funcalls += 1
        # derivative is zero, not converged
        if fder == 0:
            p = p0
            break
        newton_step = fval / fder
        # Newton step
        p = p0 - newton_step   
        if abs(p - p0) < tol:
            status = _ECONVERGED
            break
        p0 = p
    
    if disp and status == _ECONVERR:
        msg = "Failed to converge"
        raise RuntimeError(msg)

    return _results((p, funcalls, itr + 1, status))

@njit
def newton_halley(func, x0, fprime, fprime2, args=(), tol=1.48e-8,
                  maxiter=50, disp=True):
    """
    Find a zero from Halley's method using the jitted version of
    Scipy's.

    `func`, `fprime`, `fprime2` must be jitted via Numba.

    Parameters
    ----------
    func : callable and jitted
        The function whose zero is wanted. It must be a function of a
        single variable of the form f(x,a,b,c...), where a,b,c... are extra
        arguments that can be passed in the `args` parameter.
    x0 : float
        An initial estimate of the zero that should be somewhere near the
        actual zero.
    fprime : callable and jitted
        The derivative of the function (when available and convenient).
    fprime2 : callable and jitted
        The second order derivative of the function
    args : tuple, optional
        Extra arguments to be used in the function call.
    tol : float, optional
        The allowable error of the zero value.
    maxiter : int, optional
        Maximum number of iterations.
    disp : bool, optional
        If True, raise a RuntimeError if the algorithm didn't converge

    Returns
    -------
    results : namedtuple
        root - Estimated location where function is zero.
        function_calls - Number of times the function was called.
        iterations - Number of iterations needed to find the root.
        converged - True if the routine converged
    """

    if tol <= 0:
        raise ValueError("tol is too small <= 0")
    if maxiter < 1:
        raise ValueError("maxiter must be greater than 0")

    # Convert to float (don't use float(x0); this works also for complex x0)
    p0 = 1.0 * x0
    funcalls = 0
    status = _ECONVERR

    # Halley Method
    for itr in range(maxiter):
        # first evaluate fval
        fval = func(p0, *args)
        funcalls += 1
        # If fval is 0, a root has been found, then terminate
        if fval == 0:
            status = _ECONVERGED
            p = p0
            itr -= 1
            break
        fder = fprime(p0, *args)
        funcalls += 1
        # derivative is zero, not converged
        if fder == 0:
            p = p0
            break
        newton_step = fval / fder
        # Halley's variant
        fder2 = fprime2(p0, *args)
        p = p0 - newton_step / (1.0 - 0.5 * newton_step * fder2 / fder)
        if abs(p - p0) < tol:
            status = _ECONVERGED
            break
        p0 = p

    if disp and status == _ECONVERR:
        msg = "Failed to converge"
        raise RuntimeError(msg)

    return _results((p, funcalls, itr + 1, status))

@njit
def newton_secant(func, x0, args=(), tol=1.48e-8, maxiter=50,
                  disp=True):
    """
    Find a zero from the secant method using the jitted version of 
    Scipy's secant method.
    
    Note that `func` must be jitted via Numba.
    
    Parameters
    ----------
    func : callable and jitted
        The function whose zero is wanted. It must be a function of a
        single variable of the form f(x,a,b,c...), where a,b,c... are extra
        arguments that can be passed in the `args` parameter.
    x0 : float
        An initial estimate of the zero that should be somewhere near the
        actual zero.
    args : tuple, optional
        Extra arguments to be used in the function call.
    tol : float, optional
        The allowable error of the zero value.
    maxiter : int, optional
        Maximum number of iterations.
    disp : bool, optional
        If True, raise a RuntimeError if the algorithm didn't converge.

    Returns
    -------
    results : namedtuple
        root - Estimated location where function is zero.
        function_calls - Number of times the function was called.
        iterations - Number of iterations needed to find the root.
        converged - True if the routine converged
    """
    
    if tol <= 0:
        raise ValueError("tol is too small <= 0")
    if maxiter < 1:
        raise ValueError("maxiter must be greater than 0")
    
    # Convert to float (don't use float(x0); this works also for complex x0)
    p0 = 1.0 * x0
    funcalls = 0
    status = _ECONVERR
    
    # Secant method
    if x0 >= 0:
        p1 = x0 * (1 + 1e-4) + 1e-4
    else:
        p1 = x0 * (1 + 1e-4) - 1e-4
        q0 = func(p0, *args)
    funcalls += 1
    q1 = func(p1, *args)
    funcalls += 1
    for itr in range(maxiter):
        if q1 == q0:
            p = (p1 + p0) / 2.0
            status = _ECONVERGED
            break
        else:
            p = p1 - q1 * (p1 - p0) / (q1 - q0)
        if np.abs(p - p1) < tol:
            status = _ECONVERGED
            break
        p0 = p1
        q0 = q1
        p1 = p
        q1 = func(p1, *args)
        funcalls += 1
        
    if disp and status == _ECONVERR:
        msg = "Failed to converge"
        raise RuntimeError(msg)

    return _results((p, funcalls, itr + 1, status))


@njit
def func(x):
    """
    Function for testing on.
    """
    return (x**3 - 1)


@njit
def func_prime(x):
    """
    Derivative for func.
    """
    return (3*x**2)


@njit
def func_prime2(x):
    """
    Second order derivative for func.
    """
    return 6*x


@njit
def func_two(x):
    """
    Harder function for testing on.
    """
    return np.sin(4 * (x - 1/4)) + x + x**20 - 1


@njit
def func_two_prime(x):
    """
    Derivative for func_two.
    """
    return 4*np.cos(4*(x - 1/4)) + 20*x**19 + 1


@njit
def func_two_prime2(x):
    """
    Second order derivative for func_two
    """
    return 380*x**18 - 16*np.sin(4*(x - 1/4))


# ---- inputs (not from the project): the project's own test calls ----
# The callables named here are this module's compiled functions, so each
# engine's copy of the module passes its own.
CASES = [
    ("maximize_scalar", lambda: (f, -2, 2)),
    ("newton", lambda: (func, 5, func_prime)),
    ("newton", lambda: (func_two, 0.4, func_two_prime)),
    ("newton", lambda: (func, 5, func_prime, (), 1.48e-8, 2)),   # too few iterations: raises RuntimeError
    ("newton_halley", lambda: (func, 5, func_prime, func_prime2)),
    ("newton_halley", lambda: (func_two, 0.4, func_two_prime, func_two_prime2)),
    ("newton_secant", lambda: (func, 5)),
    ("newton_secant", lambda: (func_two, -0.4)),
]
