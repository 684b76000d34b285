/*
 * opt.h — what the choice passes share (passes/opt/ only): the open choices of a spec and the
 * GLPK layer, sectioned by defining file. decide_choices (passes.h) is their one entry point.
 */
#ifndef CLUSTERC_OPT_H
#define CLUSTERC_OPT_H

#include "passes.h"

/* ---- choice.c: the open choices -------------------------------------------------------------- */

/* One open choice and its options. */
typedef struct OpenChoice {
	Decision *dec;
	Value **slot;          /* where the option in force goes */
	const Decl *counted;   /* the node type of an open count (auto counts), or NULL */
	const Value **opts;
	const char **texts;
	int nopts;
	int cur;
	double *best_with;     /* best objective with each option, or INFINITY */
} OpenChoice;

/* Every open choice of the spec in a field this version decides; errors are diagnostics. */
int choice_collect(Design *d, PtrVec *opens);
/* Puts option i of o in force. */
void choice_set(OpenChoice *o, int i);
/* Runs the candidate's passes (Design.model_candidate, judge_candidate: pipeline.c's list) on
 * the design in force; true when it meets everything. */
bool choice_evaluate(Design *d);

/* ---- optimize.c: the open choices as a MILP solved by GLPK (docs/optimization.md) ------------ */

/* Sets *fallback when the requirements or objectives are not linear in the design's attributes
 * (the exhaustive search then decides). */
int optimize_choices(Design *d, PtrVec *opens, bool *fallback);

/* ---- lp.c: a mixed-integer model by name, solved by GLPK (the only file including glpk.h) --- */

typedef struct LpTerm {
	int var;
	double coef;
} LpTerm;

/* A linear expression: Σ coef × var + k. Storage comes from an arena. */
typedef struct LpExpr {
	LpTerm *t;
	int n, cap;
	double k;
} LpExpr;

enum { LP_OPTIMAL, LP_FEASIBLE, LP_INFEASIBLE, LP_TIME_LIMIT, LP_ERROR };

typedef struct LpResult {
	int status;
	double objective, bound, gap; /* of the first objective */
	double *x;                    /* variable values */
	double ms;
	int nvars, nrows;
	const char *log;              /* GLPK's output */
} LpResult;

LpModel *lp_new(Ctx *c);
/* kind 'B' binary, 'I' integer, 'C' continuous; returns the variable's index. */
int lp_var(LpModel *m, const char *name, char kind, double lo, double hi);
const char *lp_var_name(const LpModel *m, int var);
/* A variable's bounds, read and changed (a re-solve that bans an option fixes it at 0). */
void lp_get_bounds(const LpModel *m, int var, double *lo, double *hi);
void lp_set_bounds(LpModel *m, int var, double lo, double hi);
/* Frees the solver's copy of the model that lp_solve keeps between solves. */
void lp_release(LpModel *m);
int lp_nvars(const LpModel *m);
/* e += coef × var, merged with var's term when e has one (a scan of e: for short expressions). */
void lp_term(Arena *a, LpExpr *e, int var, double coef);
/* e += coef × var as a term of its own, in constant time; lp_merge before the expression is
 * read (or the variables are known distinct). */
void lp_push(Arena *a, LpExpr *e, int var, double coef);
/* Merges the terms of one variable into the first, in linear time. */
void lp_merge(LpModel *m, LpExpr *e);
void lp_add(Arena *a, LpExpr *dst, const LpExpr *src, double scale);
/* sense 'L' (<=), 'G' (>=) or 'E' (=). */
int lp_row(LpModel *m, const char *name, const LpExpr *e, char sense, double rhs);
/* Objectives are solved in the order added (lexicographically). */
void lp_objective(LpModel *m, const char *name, const LpExpr *e, bool maximize);
bool lp_solve(LpModel *m, double time_limit_s, LpResult *r);

#endif
