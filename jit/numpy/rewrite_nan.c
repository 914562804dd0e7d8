/* rewrite_nan: NumPy's NaN-skipping reductions as the plain ones
 * (np_rewrite.h):
 *   np.nansum(a)      np.sum(np.where(np.isnan(a), 0, a))      (np.nanprod: 1 for NaN, np.prod)
 *   np.nancumsum(a)   np.cumsum(np.where(np.isnan(a), 0, a))   (np.nancumprod: 1, np.cumprod)
 *   np.nanmean(a)     np.mean(a[~np.isnan(a)])                 (np.nanvar, nanstd, nanmedian: np.var, std, median) */
#include "jit/frontend/np_rewrite.h"

#include <stdio.h>
#include <string.h>

/* Of every entry below; m names which. */
static kj_node *nan_skipping(kj_rewrite *r, kj_node *n, const char *m) {
    static const char *const params[] = {"a", NULL};
    kj_rw_args a;
    if (!kj_rw_args_of(r, n, params, 1, &a, "Reduce along an axis with np.where(np.isnan(a), 0, a).sum(axis) and the like.", "np.%s takes only the array here", m))
        return NULL;
    if (!kj_rw_plain(a.arg[0]))
        return kj_rw_refuse(r, "Assign it to a name first: x = ...; np.nanmean(x).",
                            "np.%s reads its argument more than once; this one calls a function that may give another value or do more each time", m);
    kj_node *nan = kj_rw_call(r, "np.isnan", 1, a.arg[0], NULL, NULL);
    bool cum = !strncmp(m, "nancum", 6), sum = m[cum ? 6 : 3] == 's';
    if (cum || !strcmp(m, "nansum") || !strcmp(m, "nanprod")) {   /* NaN as the operation's identity */
        const char *plain = cum ? (sum ? "np.cumsum" : "np.cumprod") : sum ? "np.sum" : "np.prod";
        return kj_rw_call(r, plain, 1, kj_rw_call(r, "np.where", 3, nan, kj_rw_int(r, sum ? 0 : 1), a.arg[0]), NULL, NULL);
    }
    char plain[16];   /* of the values that are not NaN */
    snprintf(plain, sizeof plain, "np.%s", m + 3);
    return kj_rw_call(r, plain, 1, kj_rw_index(r, a.arg[0], kj_rw_invert(r, nan)), NULL, NULL);
}

KJ_REWRITE(nansum, "np.nansum", nan_skipping);
KJ_REWRITE(nanprod, "np.nanprod", nan_skipping);
KJ_REWRITE(nancumsum, "np.nancumsum", nan_skipping);
KJ_REWRITE(nancumprod, "np.nancumprod", nan_skipping);
KJ_REWRITE(nanmean, "np.nanmean", nan_skipping);
KJ_REWRITE(nanvar, "np.nanvar", nan_skipping);
KJ_REWRITE(nanstd, "np.nanstd", nan_skipping);
KJ_REWRITE(nanmedian, "np.nanmedian", nan_skipping);
