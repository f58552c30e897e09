/*
 * wine/test.h for Wine's conformance tests built natively against libd3d9 (d3d9-wgpu).
 * Written for d3d9-wgpu (not Wine's header); same macro names, Windows' meaning:
 *  - ok(cond, fmt, ...) passes when cond holds; todo_wine, todo_wine_if, todo_if, flaky and
 *    friends change nothing (their condition is still evaluated, as in Wine);
 *  - broken(x) is 0, as under Wine: the odd behaviour of old Windows drivers that a test
 *    tolerates there (where broken(x) is x) does not pass here;
 *  - win_skip is a skip.
 * Messages take Windows printf formats: `%lx`, `%lu`, `%ld` print 32-bit values (LONG is an
 * int here), `%I64x` is `%llx`, `%Iu` is `%zu`.
 *
 * Output, one flushed line per event on stdout:
 *   WINETEST start <function> -
 *   WINETEST ok    <function> <file>:<line>
 *   WINETEST fail  <function> <file>:<line> <context: ...><message>
 *   WINETEST skip  <function> <file>:<line> <message>
 *   WINETEST trace <function> <file>:<line> <message>
 *   WINETEST done  <function> - <checks> checks, <failures> failures, <skips> skips
 * where <function> is the test function the process was asked to run.
 *
 * START_TEST(name) defines main(): with no arguments it runs the START_TEST body (every test,
 * as Wine does); with `--run FUNCTION OFFSET` it runs only the function at address
 * `&main + OFFSET` (a `static` test function; the runner reads OFFSET from the executable's
 * symbol table), reported as FUNCTION. Exit status 0 when no check failed, 1 otherwise.
 */
#ifndef D3D9_WGPU_WINE_TEST_H
#define D3D9_WGPU_WINE_TEST_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#define WINETEST_UNUSED __attribute__((unused))
/* State is shared by every file of a test program that includes this header: each defines it
 * weak, and the linker keeps one. */
#define WINETEST_SHARED __attribute__((weak))

WINETEST_SHARED int winetest_debug = 1;
WINETEST_SHARED int winetest_interactive = 0;
WINETEST_SHARED const char *winetest_platform = "windows";

/* The test function this process runs (or the START_TEST name when it runs them all). */
WINETEST_SHARED const char *winetest_function = "?";
WINETEST_SHARED int winetest_checks, winetest_failures, winetest_skips;

/* Per thread: the check site set by the macros, and winetest_push_context's stack. */
#define WINETEST_MAX_CONTEXT 8
WINETEST_SHARED __thread const char *winetest_file = "?";
WINETEST_SHARED __thread int winetest_line;
WINETEST_SHARED __thread char winetest_context[WINETEST_MAX_CONTEXT][128];
WINETEST_SHARED __thread int winetest_context_depth;

static void WINETEST_UNUSED winetest_set_location(const char *file, int line)
{
    const char *slash = strrchr(file, '/');
    winetest_file = slash ? slash + 1 : file;
    winetest_line = line;
}

/* Rewrites a Windows printf format for this platform: drops the `l` of `%l[diouxXn]`
 * (32-bit LONG), maps `%I64` to `%ll`, `%I32` to nothing and `%I` to `%z`. */
static void WINETEST_UNUSED winetest_native_format(char *out, size_t size, const char *format)
{
    size_t n = 0;
    while (*format && n + 4 < size)
    {
        if (*format != '%')
        {
            out[n++] = *format++;
            continue;
        }
        out[n++] = *format++;
        while (*format && strchr("-+ #0123456789.*", *format) && n + 4 < size)
            out[n++] = *format++;
        if (format[0] == 'l' && format[1] == 'l')
        {
            out[n++] = 'l';
            out[n++] = 'l';
            format += 2;
        }
        else if (format[0] == 'l' && format[1] && strchr("diouxXn", format[1]))
            format++;
        else if (format[0] == 'I' && format[1] == '6' && format[2] == '4')
        {
            out[n++] = 'l';
            out[n++] = 'l';
            format += 3;
        }
        else if (format[0] == 'I' && format[1] == '3' && format[2] == '2')
            format += 3;
        else if (format[0] == 'I')
        {
            out[n++] = 'z';
            format++;
        }
        if (*format && n + 4 < size)
            out[n++] = *format++; /* the conversion, or the second % of %% */
    }
    out[n] = 0;
}

static void WINETEST_UNUSED winetest_vformat(char *out, size_t size, const char *format,
        va_list args)
{
    char native[1024];
    winetest_native_format(native, sizeof(native), format);
    vsnprintf(out, size, native, args);
}

/* Writes one WINETEST line: kind, function, site, then the contexts and the message with
 * line breaks made spaces and trailing ones dropped. */
static void WINETEST_UNUSED winetest_emit(const char *kind, const char *message)
{
    char line[4096];
    size_t n;
    int i;

    n = (size_t)snprintf(line, sizeof(line), "WINETEST %s %s %s:%d", kind, winetest_function,
            winetest_file, winetest_line);
    if (message)
    {
        for (i = 0; i < winetest_context_depth && n < sizeof(line); ++i)
            n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s: ", i ? "" : " ",
                    winetest_context[i]);
        if (n < sizeof(line))
            n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s",
                    winetest_context_depth ? "" : " ", message);
    }
    if (n >= sizeof(line) - 1)
        n = sizeof(line) - 2;
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
        --n;
    line[n] = 0;
    for (i = 0; line[i]; ++i)
        if (line[i] == '\n' || line[i] == '\r')
            line[i] = ' ';
    line[n++] = '\n';
    line[n] = 0;
    fputs(line, stdout);
    fflush(stdout);
}

static void WINETEST_UNUSED winetest_ok(int condition, const char *format, ...)
{
    char message[2048];
    va_list args;

    __atomic_fetch_add(&winetest_checks, 1, __ATOMIC_RELAXED);
    if (condition)
    {
        winetest_emit("ok", NULL);
        return;
    }
    __atomic_fetch_add(&winetest_failures, 1, __ATOMIC_RELAXED);
    va_start(args, format);
    winetest_vformat(message, sizeof(message), format, args);
    va_end(args);
    winetest_emit("fail", message);
}

static void WINETEST_UNUSED winetest_skip(const char *format, ...)
{
    char message[2048];
    va_list args;

    __atomic_fetch_add(&winetest_skips, 1, __ATOMIC_RELAXED);
    va_start(args, format);
    winetest_vformat(message, sizeof(message), format, args);
    va_end(args);
    winetest_emit("skip", message);
}

static void WINETEST_UNUSED winetest_trace(const char *format, ...)
{
    char message[2048];
    va_list args;

    va_start(args, format);
    winetest_vformat(message, sizeof(message), format, args);
    va_end(args);
    winetest_emit("trace", message);
}

static void WINETEST_UNUSED winetest_push_context(const char *format, ...)
{
    va_list args;

    if (winetest_context_depth < WINETEST_MAX_CONTEXT)
    {
        va_start(args, format);
        winetest_vformat(winetest_context[winetest_context_depth],
                sizeof(winetest_context[0]), format, args);
        va_end(args);
    }
    ++winetest_context_depth;
}

static void WINETEST_UNUSED winetest_pop_context(void)
{
    if (winetest_context_depth > 0)
        --winetest_context_depth;
}

/* `ok_(file, line)(cond, fmt, ...)`: the comma expression sets the site, then yields the
 * function that the argument list calls. */
#define ok_(file, line) (winetest_set_location(file, line), winetest_ok)
#define ok ok_(__FILE__, __LINE__)
#define skip_(file, line) (winetest_set_location(file, line), winetest_skip)
#define skip skip_(__FILE__, __LINE__)
#define win_skip skip
#define trace_(file, line) (winetest_set_location(file, line), winetest_trace)
#define trace trace_(__FILE__, __LINE__)

/* Prefixes that change nothing here; `if (0) {} else` keeps a following `else` bound to the
 * caller's `if` and still evaluates the condition. */
#define todo_if(is_todo) if ((void)(is_todo), 0) {} else
#define todo_wine todo_if(0)
#define todo_wine_if(is_todo) todo_if(is_todo)
#define flaky_if(is_flaky) todo_if(is_flaky)
#define flaky flaky_if(0)
#define flaky_wine flaky_if(0)
#define flaky_wine_if(is_flaky) flaky_if(is_flaky)
#define broken(condition) (0 && (condition))

/* A few of Wine's debug-string helpers (rotating static buffers). */
static inline char *winetest_debug_buffer(void)
{
    static __thread char buffers[8][128];
    static __thread int next;
    return buffers[next++ % 8];
}

static inline const char *wine_dbgstr_rect(const RECT *rect)
{
    char *s;
    if (!rect)
        return "(null)";
    s = winetest_debug_buffer();
    snprintf(s, 128, "(%d,%d)-(%d,%d)", rect->left, rect->top, rect->right, rect->bottom);
    return s;
}

static inline const char *wine_dbgstr_point(const POINT *point)
{
    char *s;
    if (!point)
        return "(null)";
    s = winetest_debug_buffer();
    snprintf(s, 128, "(%d,%d)", point->x, point->y);
    return s;
}

static inline const char *wine_dbgstr_guid(const GUID *id)
{
    char *s;
    if (!id)
        return "(null)";
    s = winetest_debug_buffer();
    snprintf(s, 128, "{%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}", id->Data1, id->Data2,
            id->Data3, id->Data4[0], id->Data4[1], id->Data4[2], id->Data4[3], id->Data4[4],
            id->Data4[5], id->Data4[6], id->Data4[7]);
    return s;
}
#define debugstr_guid wine_dbgstr_guid

/* The main() of START_TEST: see the top of this file. */
static int WINETEST_UNUSED winetest_main(int argc, char **argv, const char *name,
        void (*all)(void), uintptr_t anchor)
{
    void (*test)(void) = all;

    winetest_function = name;
    if (argc == 4 && !strcmp(argv[1], "--run"))
    {
        char *end;
        long long offset = strtoll(argv[3], &end, 0);
        if (*end || end == argv[3])
        {
            fprintf(stderr, "%s: bad offset %s\n", argv[0], argv[3]);
            return 2;
        }
        winetest_function = argv[2];
        test = (void (*)(void))(anchor + (uintptr_t)offset);
    }
    else if (argc != 1)
    {
        fprintf(stderr, "usage: %s [--run FUNCTION OFFSET_FROM_MAIN]\n", argv[0]);
        return 2;
    }
    winetest_set_location("-", 0);
    printf("WINETEST start %s -\n", winetest_function);
    fflush(stdout);
    test();
    printf("WINETEST done %s - %d checks, %d failures, %d skips\n", winetest_function,
            winetest_checks, winetest_failures, winetest_skips);
    fflush(stdout);
    return winetest_failures ? 1 : 0;
}

#define START_TEST(name)                                                             \
    static void func_##name(void);                                                   \
    int main(int argc, char **argv)                                                  \
    {                                                                                \
        return winetest_main(argc, argv, #name, func_##name, (uintptr_t)&main);      \
    }                                                                                \
    static void func_##name(void)

#endif /* D3D9_WGPU_WINE_TEST_H */
