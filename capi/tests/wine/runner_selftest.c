/*
 * Fake Wine test for the runner's own test (wine_visual.rs, `runner_*`): one function per
 * outcome the runner must tell apart, built with the same wine/test.h and win32_shim.c as
 * Wine's tests, without libd3d9. Written for d3d9-wgpu.
 */
#include <signal.h>
#include "wine/test.h"

static void test_pass(void)
{
    ok(1, "not printed\n");
    todo_wine ok(2 > 1, "todo_wine changes nothing\n");
}

/* Line numbers matter: the runner test expects the loop's site to fail twice. */
static void test_fail(void)
{
    int i;

    for (i = 0; i < 3; ++i)
        ok(i == 1, "i %d\n", i);
    ok(broken(1), "broken() is false\n");
}

static void test_skip(void)
{
    skip("skipped %u\n", 1u);
    win_skip("win_skip is a skip\n");
}

/* Windows formats: %#lx, %lu and %ld take 32-bit values, %I64x a 64-bit one. */
static void test_format(void)
{
    HRESULT hr = (HRESULT)0x8876086cu;
    ULONG big = 4000000000u;
    LONG negative = -5;

    ok(0, "hr %#lx big %lu negative %ld wide %I64x %%\n", hr, big, negative, (ULONGLONG)1 << 40);
}

static void test_context(void)
{
    winetest_push_context("outer %u", 1u);
    winetest_push_context("inner");
    ok(0, "in both\n");
    winetest_pop_context();
    winetest_pop_context();
    ok(0, "in none\n");
}

static void test_crash(void)
{
    ok(1, "before the crash\n");
    raise(SIGSEGV);
}

static void test_abort(void)
{
    abort();
}

static void test_hang(void)
{
    for (;;)
        Sleep(1000);
}

static void test_exit(void)
{
    exit(3);
}

START_TEST(runner_selftest)
{
    test_pass();
    test_fail();
    test_skip();
    test_format();
    test_context();
    test_crash();
    test_abort();
    test_hang();
    test_exit();
}
