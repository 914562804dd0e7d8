/* unused_loops: the loops of a function returning None whose work the
 * optimizer removed because nothing it computed was kept: seed 000's
 * average_sqrt sums into a local it never returns, and its 10^7-element
 * loop "runs" in microseconds. Each such loop gets an "unused" remark, which
 * the notebook turns into a warning, a footer line and an annotate mark.
 *
 * A loop counts as removed when no instruction of the optimized module
 * still carries a source line of its body. Its header line may keep code
 * (Kiln's Ctrl-C poll runs once per chunk of iterations), so only the body
 * is looked at; a loop written on one line cannot be told apart and is left
 * out, and so is a loop whose body may write what a caller sees (may_write)
 * or whose result is read where code was kept (result_used).
 * Only the function asked for is examined, and only when it returns
 * None: a function returning a value may lose a loop to a closed form or a
 * constant, which is no sign of wasted work. */
#include "jit/engine/engine.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *kept;   /* kept[line]: the line still has code */
    int nlines;            /* lines past it have none */
} line_set;

static bool kept(const line_set *s, int line) {
    return line > 0 && line < s->nlines && s->kept[line];
}

/* The source lines of file that still have code in mod; -1 out of memory. */
static int lines_with_code(LLVMModuleRef mod, const char *file, line_set *s) {
    size_t file_len = strlen(file);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                int line = (int)LLVMGetDebugLocLine(in);
                unsigned len = 0;
                const char *name = line > 0 ? LLVMGetDebugLocFilename(in, &len) : NULL;
                if (!name || len != file_len || memcmp(name, file, len) != 0)
                    continue;   /* no line, or an inlined callee of another cell or file */
                if (line >= s->nlines) {
                    int grown = line * 2;
                    unsigned char *more = realloc(s->kept, (size_t)grown);
                    if (!more)
                        return -1;
                    memset(more + s->nlines, 0, (size_t)(grown - s->nlines));
                    s->kept = more;
                    s->nlines = grown;
                }
                s->kept[line] = 1;
            }
    return 0;
}

/* Whether a node of b is on line. */
static bool block_on_line(const kj_block *b, int line);

static bool on_line(const kj_node *n, int line) {
    if (!n)
        return false;
    if (n->line == line)
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (on_line(n->kids[i], line))
            return true;
    return block_on_line(&n->body, line) || block_on_line(&n->orelse, line);
}

static bool block_on_line(const kj_block *b, int line) {
    for (int i = 0; i < b->n; i++)
        if (on_line(b->items[i], line))
            return true;
    return false;
}

/* A loop whose body starts below its header, so that the two can be told apart. */
static bool is_multiline_loop(const kj_node *n) {
    return (n->kind == KJ_S_FOR || n->kind == KJ_S_WHILE) && !block_on_line(&n->body, n->line);
}

static bool block_has_kept_line(const kj_block *b, const line_set *s);

/* Whether a line of n (its kids and blocks included) still has code. The
 * header of a loop inside does not count: it keeps the loop's own step and
 * poll, which is no work of the user's. */
static bool has_kept_line(const kj_node *n, const line_set *s) {
    if (!n)
        return false;
    if (!is_multiline_loop(n)) {
        if (kept(s, n->line))
            return true;
        for (int i = 0; i < n->nkids; i++)
            if (has_kept_line(n->kids[i], s))
                return true;
    }
    return block_has_kept_line(&n->body, s) || block_has_kept_line(&n->orelse, s);
}

static bool block_has_kept_line(const kj_block *b, const line_set *s) {
    for (int i = 0; i < b->n; i++)
        if (has_kept_line(b->items[i], s))
            return true;
    return false;
}

static bool block_may_write(const kj_block *b);

/* Whether an assignment to t stores into memory (an element, an attribute)
 * rather than binding local names. */
static bool stores_into(const kj_node *t) {
    if (t->kind == KJ_E_INDEX || t->kind == KJ_E_ATTR)
        return true;
    for (int i = 0; t->kind == KJ_E_TUPLE && i < t->nkids; i++)
        if (stores_into(t->kids[i]))
            return true;
    return false;
}

/* Whether n may write what a caller sees: a store into an element or an
 * attribute, a method (append, fill, sort...), a call of a compiled
 * function or a function value, or out=. A loop with such a body is never
 * said to be unused, even when it left no line of its own: the optimizer
 * hoists a store the loop repeats unchanged (a[3] = 0) out of it, and the
 * hoisted store loses its line. */
static bool may_write(const kj_node *n) {
    if (!n)
        return false;
    switch (n->kind) {
    case KJ_S_ASSIGN: case KJ_S_AUGASSIGN: case KJ_S_FOR:
        if (n->kids[0] && stores_into(n->kids[0]))
            return true;
        break;
    case KJ_E_METHOD:
        return true;
    case KJ_E_CALL:
        if (n->kids[0]->kind != KJ_E_FUNC || strcmp(n->kids[0]->name, "dispatcher") == 0)
            return true;
        break;
    case KJ_E_KEYWORD:
        if (n->name && strcmp(n->name, "out") == 0)
            return true;
        break;
    default:
        break;
    }
    for (int i = 0; i < n->nkids; i++)
        if (may_write(n->kids[i]))
            return true;
    return block_may_write(&n->body) || block_may_write(&n->orelse);
}

static bool block_may_write(const kj_block *b) {
    for (int i = 0; i < b->n; i++)
        if (may_write(b->items[i]))
            return true;
    return false;
}

/* The locals a loop assigns: its target and those of the assignments in its body. */
static void mark_assigned(const kj_node *n, unsigned char *assigned);

static void mark_target(const kj_node *t, unsigned char *assigned) {
    if (t->kind == KJ_E_LOCAL)
        assigned[t->slot] = 1;
    for (int i = 0; t->kind == KJ_E_TUPLE && i < t->nkids; i++)
        mark_target(t->kids[i], assigned);
}

static void mark_assigned_block(const kj_block *b, unsigned char *assigned) {
    for (int i = 0; i < b->n; i++)
        mark_assigned(b->items[i], assigned);
}

static void mark_assigned(const kj_node *n, unsigned char *assigned) {
    if ((n->kind == KJ_S_ASSIGN || n->kind == KJ_S_AUGASSIGN || n->kind == KJ_S_FOR) && n->kids[0])
        mark_target(n->kids[0], assigned);
    for (int i = 0; i < n->nkids; i++)
        if (n->kids[i] && n->kids[i]->kind >= KJ_S_ASSIGN)   /* a try's handlers */
            mark_assigned(n->kids[i], assigned);
    mark_assigned_block(&n->body, assigned);
    mark_assigned_block(&n->orelse, assigned);
}

/* Marks live every local that e reads on a line that kept code (on any
 * line: anywhere); whether one was new. */
static bool mark_reads(const kj_node *e, unsigned char *live, const line_set *s, bool anywhere) {
    if (!e || e->kind >= KJ_S_ASSIGN)
        return false;
    bool grew = false;
    if (e->kind == KJ_E_LOCAL && !live[e->slot] && (anywhere || kept(s, e->line)))
        live[e->slot] = grew = true;
    for (int i = 0; i < e->nkids; i++)
        grew |= mark_reads(e->kids[i], live, s, anywhere);
    return grew;
}

/* Whether the test of if or while n decided something that kept code: a
 * branch of it did. The test's own line may have none left when the
 * optimizer folded it, knowing the loop's result (w2 >= -w2 after a loop
 * that counts w2 to 5), and yet the loop decided which branch runs. */
static bool decides_kept_code(const kj_node *n, const line_set *s) {
    return (n->kind == KJ_S_IF || n->kind == KJ_S_WHILE) &&
           (block_has_kept_line(&n->body, s) || block_has_kept_line(&n->orelse, s));
}

/* Whether the target binds locals only, none of them live: the statement's
 * reads then feed nothing that is used. */
static bool binds_only_dead_locals(const kj_node *t, const unsigned char *live) {
    if (t->kind == KJ_E_LOCAL)
        return !live[t->slot];
    for (int i = 0; t->kind == KJ_E_TUPLE && i < t->nkids; i++)
        if (!binds_only_dead_locals(t->kids[i], live))
            return false;
    return t->kind == KJ_E_TUPLE;
}

/* One pass of liveness over b, outside the loop `skip`: the reads of a
 * statement are live unless it only assigns locals that are not (yet)
 * live; conditions, iterables, returns, raises, calls and stores always
 * are. Whether a local became live. */
static bool live_pass(const kj_block *b, const kj_node *skip, unsigned char *live, const line_set *s) {
    bool grew = false;
    for (int i = 0; i < b->n; i++) {
        const kj_node *n = b->items[i];
        if (n == skip)
            continue;
        bool assigns = n->kind == KJ_S_ASSIGN || n->kind == KJ_S_AUGASSIGN;
        bool decides = decides_kept_code(n, s);
        if (!(assigns && binds_only_dead_locals(n->kids[0], live)))
            for (int k = 0; k < n->nkids; k++)
                grew |= mark_reads(n->kids[k], live, s, decides && k == 0);
        for (int k = 0; k < n->nkids; k++)
            if (n->kids[k] && n->kids[k]->kind >= KJ_S_ASSIGN)   /* a try's handlers */
                grew |= live_pass(&n->kids[k]->body, skip, live, s);
        grew |= live_pass(&n->body, skip, live, s);
        grew |= live_pass(&n->orelse, skip, live, s);
    }
    return grew;
}

/* Whether what the loop computes is used where code was kept: the optimizer
 * may have replaced the loop by its closed form (x += 10 at every step
 * becomes x + 10 n), leaving no line of its body, though its result decides
 * a branch or a store later. A read that feeds only locals nothing uses
 * does not count: average_sqrt's avg = avg / len(Mat), kept for its
 * division check, leads nowhere. */
static bool result_used(const kj_function *f, const kj_node *loop, const line_set *s) {
    unsigned char *assigned = calloc((size_t)f->nlocals + 1, 1), *live = calloc((size_t)f->nlocals + 1, 1);
    bool used = true;   /* out of memory: claim nothing */
    if (assigned && live) {
        mark_assigned(loop, assigned);
        while (live_pass(&f->body, loop, live, s))
            ;
        used = false;
        for (int i = 0; i < f->nlocals; i++)
            used |= assigned[i] && live[i];
    }
    free(assigned);
    free(live);
    return used;
}

static void find_removed(const kj_function *f, const kj_block *b, const line_set *s, PyObject *remarks);

static void find_removed_in(const kj_function *f, const kj_node *n, const line_set *s, PyObject *remarks) {
    const char *qualname = f->qualname;
    if (is_multiline_loop(n) && !block_has_kept_line(&n->body, s) && !block_may_write(&n->body) &&
        !result_used(f, n, s)) {
        char msg[400];
        snprintf(msg, sizeof msg,
                 "%s returns None and this loop writes nothing a caller sees, so the optimizer removed "
                 "it: nothing it computes is used, and timing %s measures nothing. Return what the loop "
                 "computes (or write it into an argument) to keep the work",
                 qualname, qualname);
        kj_remark_add(remarks, n->line, "unused", msg);
        return;   /* its inner loops went with it */
    }
    for (int i = 0; i < n->nkids; i++)
        if (n->kids[i] && n->kids[i]->kind >= KJ_S_ASSIGN)   /* a try's handlers */
            find_removed_in(f, n->kids[i], s, remarks);
    find_removed(f, &n->body, s, remarks);
    find_removed(f, &n->orelse, s, remarks);
}

static void find_removed(const kj_function *f, const kj_block *b, const line_set *s, PyObject *remarks) {
    for (int i = 0; i < b->n; i++)
        find_removed_in(f, b->items[i], s, remarks);
}

void kj_remarks_add_unused(kj_unit *u, LLVMModuleRef mod, PyObject *remarks) {
    const kj_instance *inst = u->instances;
    if (!inst || !inst->ret || inst->ret->kind != KJ_T_NONE || inst->ret == kj_never())
        return;
    line_set s = {0};
    if (lines_with_code(mod, inst->f->filename, &s) == 0)
        find_removed(inst->f, &inst->f->body, &s, remarks);
    free(s.kept);
}
