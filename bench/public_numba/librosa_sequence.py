# Public Numba code, verbatim; only the import lines changed (`from numba import jit` -> `from kiln import jit`;
# of the file's typing imports, the names these functions' annotations use).
# All from librosa/librosa, license ISC (the repository's LICENSE.md; permissive, equivalent to MIT/BSD-2):
#   [Q] librosa/sequence.py, commit 028f4a5b7df1008133520258943441b242f91ea4
#   [E] librosa/util/exceptions.py, commit 448dea7ccbbca4942bfab0fff301b55b2f706f47
# Functions: __dtw_calc_accu_cost [Q], __dtw_backtracking [Q], __rqa_dp [Q], _viterbi [Q]; the classes
#   LibrosaError and ParameterError [E], which _viterbi raises.
from typing import List, Optional, Tuple

import numpy as np
from kiln import jit


class LibrosaError(Exception):
    '''The root librosa exception class'''
    pass


class ParameterError(LibrosaError):
    '''Exception class for mal-formed inputs'''
    pass


@jit(nopython=True, cache=True)  # type: ignore
def __dtw_calc_accu_cost(
    C: np.ndarray,
    D: np.ndarray,
    steps: np.ndarray,
    step_sizes_sigma: np.ndarray,
    weights_mul: np.ndarray,
    weights_add: np.ndarray,
    max_0: int,
    max_1: int,
) -> Tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """Calculate the accumulated cost matrix D.

    Use dynamic programming to calculate the accumulated costs.

    Parameters
    ----------
    C : np.ndarray [shape=(N, M)]
        pre-computed cost matrix
    D : np.ndarray [shape=(N, M)]
        accumulated cost matrix
    steps : np.ndarray [shape=(N, M)]
        Step matrix, containing the indices of the used steps from the cost
        accumulation step.
    step_sizes_sigma : np.ndarray [shape=[n, 2]]
        Specifies allowed step sizes as used by the dtw.
    weights_add : np.ndarray [shape=[n, ]]
        Additive weights to penalize certain step sizes.
    weights_mul : np.ndarray [shape=[n, ]]
        Multiplicative weights to penalize certain step sizes.
    max_0 : int
        maximum number of steps in step_sizes_sigma in dim 0.
    max_1 : int
        maximum number of steps in step_sizes_sigma in dim 1.

    Returns
    -------
    D : np.ndarray [shape=(N, M)]
        accumulated cost matrix.
        D[N, M] is the total alignment cost.
        When doing subsequence DTW, D[N,:] indicates a matching function.
    steps : np.ndarray [shape=(N, M)]
        Step matrix, containing the indices of the used steps from the cost
        accumulation step.

    See Also
    --------
    dtw
    """
    for cur_n in range(max_0, D.shape[0]):
        for cur_m in range(max_1, D.shape[1]):
            # accumulate costs
            for cur_step_idx, cur_w_add, cur_w_mul in zip(  # noqa: B905
                range(step_sizes_sigma.shape[0]), weights_add, weights_mul
                ):
                cur_D = D[
                    cur_n - step_sizes_sigma[cur_step_idx, 0],
                    cur_m - step_sizes_sigma[cur_step_idx, 1],
                ]
                cur_C = cur_w_mul * C[cur_n - max_0, cur_m - max_1]
                cur_C += cur_w_add
                cur_cost = cur_D + cur_C

                # check if cur_cost is smaller than the one stored in D
                if cur_cost < D[cur_n, cur_m]:
                    D[cur_n, cur_m] = cur_cost

                    # save step-index
                    steps[cur_n, cur_m] = cur_step_idx

    return D, steps


@jit(nopython=True, cache=True)  # type: ignore
def __dtw_backtracking(
    steps: np.ndarray,
    step_sizes_sigma: np.ndarray,
    subseq: bool,
    start: Optional[int] = None,
) -> List[Tuple[int, int]]:  # pragma: no cover
    """Backtrack optimal warping path.

    Uses the saved step sizes from the cost accumulation
    step to backtrack the index pairs for an optimal
    warping path.

    Parameters
    ----------
    steps : np.ndarray [shape=(N, M)]
        Step matrix, containing the indices of the used steps from the cost
        accumulation step.
    step_sizes_sigma : np.ndarray [shape=[n, 2]]
        Specifies allowed step sizes as used by the dtw.
    subseq : bool
        Enable subsequence DTW, e.g., for retrieval tasks.
    start : int
        Start column index for backtraing (only allowed for ``subseq=True``)

    Returns
    -------
    wp : list [shape=(N,)]
        Warping path with index pairs.
        Each list entry contains an index pair
        (n, m) as a tuple

    See Also
    --------
    dtw
    """
    if start is None:
        cur_idx = (steps.shape[0] - 1, steps.shape[1] - 1)
    else:
        cur_idx = (steps.shape[0] - 1, start)

    wp = []
    # Set starting point D(N, M) and append it to the path
    wp.append((cur_idx[0], cur_idx[1]))

    # Loop backwards.
    # Stop criteria:
    # Setting it to (0, 0) does not work for the subsequence dtw,
    # so we only ask to reach the first row of the matrix.

    while (subseq and cur_idx[0] > 0) or (not subseq and cur_idx != (0, 0)):
        cur_step_idx = steps[(cur_idx[0], cur_idx[1])]

        # save tuple with minimal acc. cost in path
        cur_idx = (
            cur_idx[0] - step_sizes_sigma[cur_step_idx][0],
            cur_idx[1] - step_sizes_sigma[cur_step_idx][1],
        )

        # If we run off the side of the cost matrix, break here
        if min(cur_idx) < 0:
            break

        # append to warping path
        wp.append((cur_idx[0], cur_idx[1]))

    return wp


@jit(nopython=True, cache=True)  # type: ignore
def __rqa_dp(
    sim: np.ndarray, gap_onset: float, gap_extend: float, knight: bool
) -> Tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """RQA dynamic programming implementation"""
    # The output array
    score = np.zeros(sim.shape, dtype=sim.dtype)

    # The backtracking array
    backtrack = np.zeros(sim.shape, dtype=np.int8)

    # These are place-holder arrays to limit the points being considered
    # at each step of the DP
    #
    # If knight moves are enabled, values are indexed according to
    # [(-1,-1), (-1, -2), (-2, -1)]
    #
    # If knight moves are disabled, then only the first entry is used.
    #
    # Using placeholder vectors here makes the code a bit cleaner down below.
    sim_values = np.zeros(3)
    score_values = np.zeros(3)
    vec = np.zeros(3)

    if knight:
        # Initial limit is for the base case: diagonal + one knight
        init_limit = 2

        # Otherwise, we have 3 positions
        limit = 3
    else:
        init_limit = 1
        limit = 1

    # backtracking rubric:
    #   0 ==> diagonal move
    #   1 ==> knight move up
    #   2 ==> knight move left
    #  -1 ==> reset without inclusion
    #  -2 ==> reset with inclusion (ie positive value at init)

    # Initialize the first row and column with the data
    score[0, :] = sim[0, :]
    score[:, 0] = sim[:, 0]

    # backtracking initialization: the first row and column are all resets
    # if there's a positive link here, it's an inclusive reset
    for i in range(sim.shape[0]):
        if sim[i, 0]:
            backtrack[i, 0] = -2
        else:
            backtrack[i, 0] = -1

    for j in range(sim.shape[1]):
        if sim[0, j]:
            backtrack[0, j] = -2
        else:
            backtrack[0, j] = -1

    # Initialize the 1-1 case using only the diagonal
    if sim[1, 1] > 0:
        score[1, 1] = score[0, 0] + sim[1, 1]
        backtrack[1, 1] = 0
    else:
        link = sim[0, 0] > 0
        score[1, 1] = max(0, score[0, 0] - (link) * gap_onset - (~link) * gap_extend)
        if score[1, 1] > 0:
            backtrack[1, 1] = 0
        else:
            backtrack[1, 1] = -1

    # Initialize the second row with diagonal and left-knight moves
    i = 1
    for j in range(2, sim.shape[1]):
        score_values[:-1] = (score[i - 1, j - 1], score[i - 1, j - 2])
        sim_values[:-1] = (sim[i - 1, j - 1], sim[i - 1, j - 2])
        t_values = sim_values > 0
        if sim[i, j] > 0:
            backtrack[i, j] = np.argmax(score_values[:init_limit])
            score[i, j] = score_values[backtrack[i, j]] + sim[i, j]  # or + 1 for binary
        else:
            vec[:init_limit] = (
                score_values[:init_limit]
                - t_values[:init_limit] * gap_onset
                - (~t_values[:init_limit]) * gap_extend
            )

            backtrack[i, j] = np.argmax(vec[:init_limit])
            score[i, j] = max(0, vec[backtrack[i, j]])
            # Is it a reset?
            if score[i, j] == 0:
                backtrack[i, j] = -1

    # Initialize the second column with diagonal and up-knight moves
    j = 1
    for i in range(2, sim.shape[0]):
        score_values[:-1] = (score[i - 1, j - 1], score[i - 2, j - 1])
        sim_values[:-1] = (sim[i - 1, j - 1], sim[i - 2, j - 1])
        t_values = sim_values > 0
        if sim[i, j] > 0:
            backtrack[i, j] = np.argmax(score_values[:init_limit])
            score[i, j] = score_values[backtrack[i, j]] + sim[i, j]  # or + 1 for binary

        else:
            vec[:init_limit] = (
                score_values[:init_limit]
                - t_values[:init_limit] * gap_onset
                - (~t_values[:init_limit]) * gap_extend
            )

            backtrack[i, j] = np.argmax(vec[:init_limit])
            score[i, j] = max(0, vec[backtrack[i, j]])
            # Is it a reset?
            if score[i, j] == 0:
                backtrack[i, j] = -1

    # Now fill in the rest of the table
    for i in range(2, sim.shape[0]):
        for j in range(2, sim.shape[1]):
            score_values[:] = (
                score[i - 1, j - 1],
                score[i - 1, j - 2],
                score[i - 2, j - 1],
            )
            sim_values[:] = (sim[i - 1, j - 1], sim[i - 1, j - 2], sim[i - 2, j - 1])
            t_values = sim_values > 0
            if sim[i, j] > 0:
                # if knight is true, it's max of (-1,-1), (-1, -2), (-2, -1)
                # otherwise, it's just the diagonal move (-1, -1)
                # for backtracking purposes, if the max is 0 then it's the start of a new sequence
                # if the max is non-zero, then we extend the existing sequence
                backtrack[i, j] = np.argmax(score_values[:limit])
                score[i, j] = (
                    score_values[backtrack[i, j]] + sim[i, j]
                )  # or + 1 for binary

            else:
                # if the max of our options is negative, then it's a hard reset
                # otherwise, it's a skip move
                vec[:limit] = (
                    score_values[:limit]
                    - t_values[:limit] * gap_onset
                    - (~t_values[:limit]) * gap_extend
                )

                backtrack[i, j] = np.argmax(vec[:limit])
                score[i, j] = max(0, vec[backtrack[i, j]])
                # Is it a reset?
                if score[i, j] == 0:
                    backtrack[i, j] = -1

    return score, backtrack


@jit(nopython=True, cache=True)  # type: ignore
def _viterbi(
    log_prob: np.ndarray,
    log_trans: np.ndarray,
    log_p_init: np.ndarray,
    log_trans_threshold: float,
) -> Tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """Core Viterbi algorithm.

    This is intended for internal use only.

    Parameters
    ----------
    log_prob : np.ndarray [shape=(T, m)]
        ``log_prob[t, s]`` is the conditional log-likelihood
        ``log P[X = X(t) | State(t) = s]``
    log_trans : np.ndarray [shape=(m, m)]
        The log transition matrix
        ``log_trans[i, j] = log P[State(t+1) = j | State(t) = i]``
    log_p_init : np.ndarray [shape=(m,)]
        log of the initial state distribution
    log_trans_threshold : float
        threshold above which transitions are considered feasible.
        Use -np.inf to perform a full search (exact viterbi).
        Otherwise, only transitions with (log) probability above the threshold
        are considered in the loop.

    Returns
    -------
    None
        All computations are performed in-place on ``state, value, ptr``.
    """
    n_steps, n_states = log_prob.shape

    state = np.zeros(n_steps, dtype=np.uint16)
    value = np.zeros((n_steps, n_states), dtype=np.float64)
    ptr = np.zeros((n_steps, n_states), dtype=np.uint16)

    # factor in initial state distribution
    value[0] = log_prob[0] + log_p_init

    if np.isfinite(log_trans_threshold):
        pred_states = []
        for j in range(n_states):
            possible_states = np.flatnonzero(log_trans[:, j] >= log_trans_threshold)
            if len(possible_states) == 0:
                raise ParameterError(
                    f"Empty transition matrix detected for state {j} in Viterbi. "
                    f"Try reducing your minimum transition probability threshold."
                )
            pred_states.append(possible_states)

        for t in range(1, n_steps):
            # Want V[t, j] <- p[t, j] * max_k V[t-1, k] * A[k, j]
            #    assume at time t-1 we were in state k
            #    transition k -> j
            for j in range(n_states):
                best_cost = -np.inf
                for k in pred_states[j]:
                    cost = value[t - 1, k] + log_trans[k, j]
                    if cost > best_cost:
                        ptr[t, j] = k
                        best_cost = cost
                value[t, j] = log_prob[t, j] + best_cost
    else:
        # Same as above, but doing a full search over previous states
        for t in range(1, n_steps):
            for j in range(n_states):
                best_cost = -np.inf
                for kj in range(n_states):
                    cost = value[t - 1, kj] + log_trans[kj, j]
                    if cost > best_cost:
                        ptr[t, j] = kj
                        best_cost = cost
                value[t, j] = log_prob[t, j] + best_cost

    # Now roll backward
    # Get the last state
    state[-1] = np.argmax(value[-1])

    for t in range(n_steps - 2, -1, -1):
        state[t] = ptr[t + 1, state[t + 1]]

    logp = value[-1:, state[-1]]

    return state, logp


# ---- inputs (not from the project): shaped as librosa.sequence.dtw / rqa / viterbi pass them ----
_STEPS = np.array([[1, 1], [0, 1], [1, 0]], dtype=np.uint32)


def _dtw_args(seed, n=300, m=400):
    rng = np.random.default_rng(seed)
    x, y = rng.random((n, 12)), rng.random((m, 12))
    C = np.sqrt(((x[:, None, :] - y[None, :, :]) ** 2).sum(axis=2))
    D = np.ones(C.shape + np.array([1, 1])) * np.inf
    D[1, 1] = C[0, 0]
    steps = np.zeros(D.shape, dtype=np.int32)
    steps[0, :] = 1
    steps[:, 0] = 2
    return C, D, steps, _STEPS, np.ones(3), np.zeros(3), 1, 1


def _step_matrix(seed, n=2000, m=2500):
    """Step indices as the cost accumulation leaves them (first row: left, first column: up)."""
    steps = np.random.default_rng(seed).integers(0, 3, (n, m)).astype(np.int32)
    steps[0, :] = 1
    steps[:, 0] = 2
    return steps


def _recurrence(seed, n=400):
    rng = np.random.default_rng(seed)
    sim = (rng.random((n, n)) < 0.15) * rng.random((n, n))
    sim[1, 1] = 0.0   # the (1, 1) cell takes the gap branch
    return sim


def _viterbi_args(seed, n_steps=2000, n_states=25):
    rng = np.random.default_rng(seed)
    trans = rng.random((n_states, n_states)) ** 6 + np.eye(n_states)
    trans /= trans.sum(axis=1, keepdims=True)
    prob = rng.random((n_steps, n_states))
    return np.log(prob), np.log(trans), np.full(n_states, -np.log(n_states))


CASES = [
    ("__dtw_calc_accu_cost", lambda: _dtw_args(1)),
    ("__dtw_backtracking", lambda: (_step_matrix(2), _STEPS, False)),
    ("__dtw_backtracking", lambda: (_step_matrix(3), _STEPS, True, 1234)),
    ("__rqa_dp", lambda: (_recurrence(4), 1.0, 1.0, True)),
    ("__rqa_dp", lambda: (_recurrence(5), np.inf, np.inf, False)),
    ("_viterbi", lambda: _viterbi_args(6) + (-np.inf,)),
    ("_viterbi", lambda: _viterbi_args(7) + (np.log(0.02),)),
]
