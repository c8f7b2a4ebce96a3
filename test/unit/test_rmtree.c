/*
 * test_rmtree.c - trees are removed through directory descriptors: never
 * through a symlink, never what another user owns, and a path is opened
 * only through directories no one else can change.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rmtree.h"

static char base[64];
static int base_fd = -1;

static void make_base(void)
{
    snprintf(base, sizeof(base), "/tmp/test_rmtree.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(base));
    base_fd = open(base, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(base_fd, 0);
}

static void remove_base(void)
{
    rmtree_contents(base_fd, geteuid());
    close(base_fd);
    rmdir(base);
}

/* Make base/<rel> as a file (or directory, with a trailing '/'). */
static void make(const char *rel)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", base, rel);
    size_t len = strlen(path);
    if ('/' == path[len - 1]) {
        path[len - 1] = '\0';
        ck_assert_int_eq(mkdir(path, 0755), 0);
    } else {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        ck_assert_int_ge(fd, 0);
        close(fd);
    }
}

static bool exists(const char *rel)
{
    struct stat st;
    return 0 == fstatat(base_fd, rel, &st, AT_SYMLINK_NOFOLLOW);
}

START_TEST(a_tree_is_removed)
{
    make_base();
    make("t/");
    make("t/a/");
    make("t/a/b/");
    make("t/a/b/file");
    make("t/file");
    ck_assert_int_eq(rmtree_at(base_fd, "t", geteuid(), true), 0);
    ck_assert(!exists("t"));
    ck_assert_int_eq(rmtree_at(base_fd, "t", geteuid(), true), 0); /* already gone */
    remove_base();
}
END_TEST

START_TEST(a_symlink_is_removed_never_followed)
{
    make_base();
    make("outside/");
    make("outside/keep");
    make("t/");
    char target[128];
    snprintf(target, sizeof(target), "%s/outside", base);
    ck_assert_int_eq(symlinkat(target, base_fd, "t/link"), 0);
    ck_assert_int_eq(symlinkat(target, base_fd, "top"), 0);
    ck_assert_int_eq(rmtree_at(base_fd, "t", geteuid(), true), 0);
    ck_assert_int_eq(rmtree_at(base_fd, "top", geteuid(), true), 0);
    ck_assert(!exists("t") && !exists("top"));
    ck_assert(exists("outside/keep"));
    remove_base();
}
END_TEST

START_TEST(what_another_user_owns_stays)
{
    make_base();
    make("t/");
    make("t/file");
    ck_assert_int_eq(rmtree_at(base_fd, "t", geteuid() + 1, true), EPERM);
    ck_assert(exists("t/file"));
    remove_base();
}
END_TEST

START_TEST(without_recursion_only_an_empty_directory_goes)
{
    make_base();
    make("full/");
    make("full/file");
    make("empty/");
    ck_assert_int_eq(rmtree_at(base_fd, "full", geteuid(), false), ENOTEMPTY);
    ck_assert(exists("full/file"));
    ck_assert_int_eq(rmtree_at(base_fd, "empty", geteuid(), false), 0);
    ck_assert(!exists("empty"));
    remove_base();
}
END_TEST

START_TEST(a_path_is_opened_through_the_users_own_symlinks)
{
    make_base();
    make("real/");
    ck_assert_int_eq(symlinkat("real", base_fd, "alias"), 0);
    char path[256];
    snprintf(path, sizeof(path), "%s/alias/x", base);
    const char *name = NULL;
    int fd = rmtree_open_parent(path, geteuid(), &name);
    ck_assert_int_ge(fd, 0);
    ck_assert_str_eq(name, "x");
    struct stat got, want;
    ck_assert_int_eq(fstat(fd, &got), 0);
    ck_assert_int_eq(fstatat(base_fd, "real", &want, 0), 0);
    ck_assert(got.st_ino == want.st_ino && got.st_dev == want.st_dev);
    close(fd);
    remove_base();
}
END_TEST

START_TEST(a_path_through_a_directory_others_may_write_is_refused)
{
    make_base();
    make("open/");
    make("sticky/");
    ck_assert_int_eq(fchmodat(base_fd, "open", 0777, 0), 0);
    ck_assert_int_eq(fchmodat(base_fd, "sticky", 01777, 0), 0);
    char path[256];
    const char *name;
    snprintf(path, sizeof(path), "%s/open/x", base);
    errno = 0;
    ck_assert_int_eq(rmtree_open_parent(path, geteuid(), &name), -1);
    ck_assert_int_eq(errno, EPERM);
    snprintf(path, sizeof(path), "%s/sticky/x", base);
    int fd = rmtree_open_parent(path, geteuid(), &name);
    ck_assert_int_ge(fd, 0);
    close(fd);
    remove_base();
}
END_TEST

START_TEST(a_relative_or_directory_path_is_refused)
{
    const char *name;
    const char *bad[] = {"relative/x", "/tmp/", "/tmp/..", "/tmp/."};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        errno = 0;
        ck_assert_int_eq(rmtree_open_parent(bad[i], geteuid(), &name), -1);
        ck_assert_int_eq(errno, EINVAL);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rmtree");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, a_tree_is_removed);
    tcase_add_test(tc, a_symlink_is_removed_never_followed);
    tcase_add_test(tc, what_another_user_owns_stays);
    tcase_add_test(tc, without_recursion_only_an_empty_directory_goes);
    tcase_add_test(tc, a_path_is_opened_through_the_users_own_symlinks);
    tcase_add_test(tc, a_path_through_a_directory_others_may_write_is_refused);
    tcase_add_test(tc, a_relative_or_directory_path_is_refused);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
