/*
 * test_types_tree.c - validated type trees and $-expressions (src/types).
 *
 * The child table of every node kind is checked through its format text
 * and through insertions it must accept and refuse, with the exact
 * messages; the expression grammar through values, precedence, errors and
 * text interpolation.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "drover.h"
#include "tnode.h"

static tnode_t *leaf(tkind_t k)
{
    tnode_t *n = tnode_new(k, NULL);
    ck_assert_ptr_nonnull(n);
    return n;
}

/* Append, expecting success. */
static void put(tnode_t *parent, tnode_t *child)
{
    char *err = NULL;
    ck_assert_msg(tnode_append(parent, child, &err), "refused: %s", err);
    ck_assert_ptr_null(err);
}

/* Append, expecting the refusal text want; the child stays the caller's. */
static void refused(tnode_t *parent, tnode_t *child, const char *want)
{
    char *err = NULL;
    size_t before = parent->nchild;
    ck_assert(!tnode_append(parent, child, &err));
    ck_assert_ptr_nonnull(err);
    ck_assert_str_eq(err, want);
    ck_assert_uint_eq(parent->nchild, before);
    free(err);
}

START_TEST(every_kind_has_a_format_derived_from_its_row)
{
    ck_assert_str_eq(tnode_format(TK_ARRAY), "dim, [dim]*, datatype");
    ck_assert_str_eq(tnode_format(TK_DIM), "expr, [expr], [expr]");
    ck_assert_str_eq(tnode_format(TK_STRUCT), "[member]*");
    ck_assert_str_eq(tnode_format(TK_RECORD), "expr, [member]*");
    ck_assert_str_eq(tnode_format(TK_TUPLE), "[expr], [member]*");
    ck_assert_str_eq(tnode_format(TK_POINTER), "datatype");
    ck_assert_str_eq(tnode_format(TK_MEMBER), "datatype, [expr]");
    ck_assert_str_eq(tnode_format(TK_SCALAR), "");
}
END_TEST

START_TEST(an_array_takes_dims_then_one_datatype)
{
    tnode_t *a = leaf(TK_ARRAY);
    tnode_t *p = leaf(TK_POINTER);
    refused(a, p, "item 'pointer' can't be child 0 of 'array'. The valid format is: 'dim, [dim]*, datatype'.");
    put(a, leaf(TK_DIM));
    ck_assert(!tnode_complete(a));
    put(a, leaf(TK_DIM));
    put(a, p);
    ck_assert(tnode_complete(a));
    tnode_t *d = leaf(TK_DIM);
    refused(a, d, "item 'dim' can't be child 3 of 'array'. The valid format is: 'dim, [dim]*, datatype'.");
    tnode_t *s = leaf(TK_SCALAR);
    refused(a, s, "item 'scalar' can't be child 3 of 'array'. The valid format is: 'dim, [dim]*, datatype'.");
    tnode_free(d);
    tnode_free(s);
    tnode_free(a);
}
END_TEST

START_TEST(a_dim_takes_one_to_three_expressions)
{
    tnode_t *d = leaf(TK_DIM);
    ck_assert(!tnode_complete(d));
    for (int i = 0; i < 3; i++) {
        put(d, leaf(TK_EXPR));
        ck_assert(tnode_complete(d));
    }
    tnode_t *e = leaf(TK_EXPR);
    refused(d, e, "item 'expr' can't be child 3 of 'dim'. The valid format is: 'expr, [expr], [expr]'.");
    tnode_free(e);
    tnode_free(d);
}
END_TEST

START_TEST(records_and_tuples_take_an_optional_or_required_buffersize_first)
{
    tnode_t *r = leaf(TK_RECORD);
    tnode_t *m = leaf(TK_MEMBER);
    refused(r, m, "item 'member' can't be child 0 of 'record'. The valid format is: 'expr, [member]*'.");
    ck_assert(!tnode_complete(r));
    put(r, leaf(TK_EXPR));
    ck_assert(tnode_complete(r));
    put(r, m);
    tnode_t *e = leaf(TK_EXPR);
    refused(r, e, "item 'expr' can't be child 2 of 'record'. The valid format is: 'expr, [member]*'.");

    tnode_t *t = leaf(TK_TUPLE);
    ck_assert(tnode_complete(t));
    put(t, leaf(TK_MEMBER));
    refused(t, e, "item 'expr' can't be child 1 of 'tuple'. The valid format is: '[expr], [member]*'.");
    tnode_t *t2 = leaf(TK_TUPLE);
    put(t2, e);
    put(t2, leaf(TK_MEMBER));
    tnode_free(t);
    tnode_free(t2);
    tnode_free(r);
}
END_TEST

START_TEST(structs_pointers_and_members_follow_their_rows)
{
    tnode_t *s = leaf(TK_STRUCT);
    tnode_t *x = leaf(TK_SCALAR);
    refused(s, x, "item 'scalar' can't be child 0 of 'struct'. The valid format is: '[member]*'.");
    tnode_t *m = leaf(TK_MEMBER);
    ck_assert(!tnode_complete(m));
    tnode_t *e = leaf(TK_EXPR);
    refused(m, e, "item 'expr' can't be child 0 of 'member'. The valid format is: 'datatype, [expr]'.");
    put(m, x);
    put(m, e);
    ck_assert(tnode_complete(m));
    put(s, m);
    tnode_t *p = leaf(TK_POINTER);
    ck_assert(!tnode_complete(p));
    put(p, leaf(TK_REF));
    tnode_t *y = leaf(TK_REF);
    refused(p, y, "item 'ref' can't be child 1 of 'pointer'. The valid format is: 'datatype'.");
    tnode_free(y);
    tnode_free(p);
    tnode_free(s);
}
END_TEST

START_TEST(leaves_take_no_children_and_a_child_has_one_parent)
{
    tnode_t *x = leaf(TK_SCALAR);
    tnode_t *e = leaf(TK_EXPR);
    refused(x, e, "item 'expr' can't be child 0 of 'scalar'. scalar is a leaf and doesn't accept children.");
    tnode_t *m1 = leaf(TK_MEMBER), *m2 = leaf(TK_MEMBER);
    put(m1, x);
    refused(m2, x, "item 'scalar' can't be added as child of 'member' because it is not an orphan. "
                   "It already has a 'member' as a parent.");
    tnode_free(e);
    tnode_free(m1);
    tnode_free(m2);
}
END_TEST

START_TEST(a_copy_is_an_orphan_with_the_same_children)
{
    tnode_t *a = leaf(TK_ARRAY);
    put(a, leaf(TK_DIM));
    put(a, leaf(TK_SCALAR));
    ck_assert(tnode_add_attr(a, "unit", "m/s"));
    tnode_t *c = tnode_dup(a);
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_null(c->parent);
    ck_assert_uint_eq(c->nchild, 2);
    ck_assert_int_eq(c->child[0]->kind, TK_DIM);
    ck_assert_ptr_eq(c->child[1]->parent, c);
    ck_assert_str_eq(c->attrs[0].value, "m/s");
    tnode_free(a);
    tnode_free(c);
}
END_TEST

/* ---- $-expressions ---- */

static int64_t value_of(const char *text)
{
    char *err = NULL;
    expr_t *e = expr_parse(text, &err);
    ck_assert_msg(NULL != e, "'%s' does not parse: %s", text, err);
    int64_t v = 0;
    pmix_status_t rc = expr_eval(e, &v, &err);
    ck_assert_msg(PMIX_SUCCESS == rc, "'%s' does not evaluate: %s", text, err);
    expr_free(e);
    return v;
}

static void parse_fails(const char *text, const char *want)
{
    char *err = NULL;
    expr_t *e = expr_parse(text, &err);
    ck_assert_msg(NULL == e, "'%s' parses", text);
    ck_assert_ptr_nonnull(err);
    ck_assert_str_eq(err, want);
    free(err);
}

static pmix_status_t eval_fails(const char *text, const char *want)
{
    char *err = NULL;
    expr_t *e = expr_parse(text, &err);
    ck_assert_ptr_nonnull(e);
    int64_t v;
    pmix_status_t rc = expr_eval(e, &v, &err);
    ck_assert_int_ne(rc, PMIX_SUCCESS);
    ck_assert_str_eq(err, want);
    free(err);
    expr_free(e);
    return rc;
}

START_TEST(integers_read_as_strtol_base_0)
{
    ck_assert_int_eq(value_of("42"), 42);
    ck_assert_int_eq(value_of("0x2A"), 42);
    ck_assert_int_eq(value_of("052"), 42);
    ck_assert_int_eq(value_of(" -7 "), -7);
}
END_TEST

START_TEST(operators_follow_pdi_precedence)
{
    ck_assert_int_eq(value_of("1 + 2 * 3"), 7);
    ck_assert_int_eq(value_of("(1 + 2) * 3"), 9);
    ck_assert_int_eq(value_of("10 - 4 - 3"), 3);
    ck_assert_int_eq(value_of("17 % 5 + 1"), 3);
    ck_assert_int_eq(value_of("1 | 0 & 0"), 1);
    ck_assert_int_eq(value_of("2 = 1 + 1"), 1);
    ck_assert_int_eq(value_of("3 < 2 + 2"), 1);
    ck_assert_int_eq(value_of("3 > 2 + 2"), 0);
    ck_assert_int_eq(value_of("7 / 2"), 3);
}
END_TEST

START_TEST(references_read_bound_values)
{
    int64_t n = 10, dsize[] = {6, 8}, deep = 3;
    ck_assert_int_eq(drover_type_bind("n", &n, 1), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_bind("dsize", dsize, 2), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_bind("rec.sub", &deep, 1), PMIX_SUCCESS);
    ck_assert_int_eq(value_of("($n + 3) % 6"), 1);
    ck_assert_int_eq(value_of("${dsize[0]} - 2"), 4);
    ck_assert_int_eq(value_of("$dsize[1]*($dsize[0]-2)"), 32);
    ck_assert_int_eq(value_of("$dsize[$rec.sub - 2]"), 8);
    ck_assert_int_eq(value_of("${rec.sub}"), 3);
    ck_assert_int_eq(value_of("${n:04d}"), 10);
    eval_fails("$dsize[2]", "index 2 is outside '$dsize', which has 2 values");
    ck_assert_int_eq(eval_fails("$m + 1", "'$m' has no value (bind it with drover_type_bind)"),
                     PMIX_ERR_NOT_AVAILABLE);
    ck_assert_int_eq(drover_type_bind("n", NULL, 0), PMIX_SUCCESS);
    eval_fails("$n", "'$n' has no value (bind it with drover_type_bind)");
}
END_TEST

START_TEST(bad_expressions_are_refused_with_their_column)
{
    parse_fails("$", "expected a name at column 2");
    parse_fails("$123", "expected a name at column 2");
    parse_fails("${id with spaces}", "expected '}' at column 5");
    parse_fails("1 +", "expected a value at column 4");
    parse_fails("(1 + 2", "expected ')' at column 7");
    parse_fails("4 4", "unexpected '4' at column 3");
    parse_fails("99999999999999999999", "integer at column 1 does not fit in 64 bits");
    parse_fails("((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))",
                "expression nested deeper than 32");
    /* Refused deep inside, wherever the text ends (a fuzzer's find: each
     * unwinding '(' stepped one further, past the end). */
    char open[41] = "";
    for (size_t n = 1; n < sizeof(open); n++) {
        open[n - 1] = '(';
        char *err = NULL, *text = strdup(open); /* no byte beyond its end */
        ck_assert_ptr_null(expr_parse(text, &err));
        ck_assert_ptr_nonnull(err);
        free(err);
        free(text);
    }
    eval_fails("1 / 0", "division by zero");
    eval_fails("9223372036854775807 + 1", "9223372036854775807 + 1 overflows 64 bits");
}
END_TEST

START_TEST(text_interpolates_references_and_operations)
{
    int64_t rank = 7;
    ck_assert_int_eq(drover_type_bind("rank", &rank, 1), PMIX_SUCCESS);
    char *err = NULL;
    char *s = expr_interpolate("file_${rank:04d}.h5 has $(2 * $rank) \\$x \\\\", &err);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s, "file_0007.h5 has 14 $x \\");
    free(s);
    s = expr_interpolate("${rank:099999999d}|${rank:#x}", &err);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(strlen(s), 99 + 1 + 3);   /* "%099lld" at most */
    free(s);
    ck_assert_ptr_null(expr_interpolate("x$(1 +)", &err));
    ck_assert_str_eq(err, "expected a value at column 7");
    free(err);
}
END_TEST

START_TEST(canonical_text_is_fully_parenthesised)
{
    char *err = NULL;
    expr_t *e = expr_parse("$a.b[1+2] * 3 + 0x10", &err);
    ck_assert_ptr_nonnull(e);
    strbuf_t b = STRBUF_INIT;
    expr_print(e, &b);
    char *s = strbuf_finish(&b);
    ck_assert_str_eq(s, "((${a.b[(1 + 2)]} * 3) + 16)");
    ck_assert(!expr_is_constant(e));
    free(s);
    expr_free(e);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("types_tree");
    TCase *tc = tcase_create("tree");
    tcase_add_test(tc, every_kind_has_a_format_derived_from_its_row);
    tcase_add_test(tc, an_array_takes_dims_then_one_datatype);
    tcase_add_test(tc, a_dim_takes_one_to_three_expressions);
    tcase_add_test(tc, records_and_tuples_take_an_optional_or_required_buffersize_first);
    tcase_add_test(tc, structs_pointers_and_members_follow_their_rows);
    tcase_add_test(tc, leaves_take_no_children_and_a_child_has_one_parent);
    tcase_add_test(tc, a_copy_is_an_orphan_with_the_same_children);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("expr");
    tcase_add_test(te, integers_read_as_strtol_base_0);
    tcase_add_test(te, operators_follow_pdi_precedence);
    tcase_add_test(te, references_read_bound_values);
    tcase_add_test(te, bad_expressions_are_refused_with_their_column);
    tcase_add_test(te, text_interpolates_references_and_operations);
    tcase_add_test(te, canonical_text_is_fully_parenthesised);
    suite_add_tcase(s, te);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? 0 : 1;
}
