/*
 * Headless stand-ins for the few Win32 functions Wine's d3d9 tests call besides
 * Direct3DCreate9 (declared in capi/include/windows.h). Written for d3d9-wgpu.
 *
 * Windows are headless: CreateWindowExA returns a unique non-NULL handle to a small record
 * holding the requested size; no frame, so AdjustWindowRect leaves the rect as it is and a
 * window's client area is its whole size. libd3d9 does not know these handles, so it treats
 * them as headless windows (see d3d9_native.h). GetDesktopWindow is one fixed handle, of
 * the size 640x480 used by the tests' windows.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <windows.h>

/* What an HWND from CreateWindowExA points to. */
struct shim_window
{
    unsigned int magic;
    int width, height;
};

#define SHIM_WINDOW_MAGIC 0x57494e44u /* "WIND" */

static struct shim_window shim_desktop = {SHIM_WINDOW_MAGIC, 640, 480};

static struct shim_window *shim_window(HWND window)
{
    struct shim_window *w = (struct shim_window *)window;
    return w && w->magic == SHIM_WINDOW_MAGIC ? w : NULL;
}

HWND WINAPI CreateWindowExA(DWORD ex_style, LPCSTR class_name, LPCSTR window_name, DWORD style,
        int x, int y, int width, int height, HWND parent, HMENU menu, HINSTANCE instance,
        LPVOID param)
{
    struct shim_window *w = malloc(sizeof(*w));

    (void)ex_style, (void)class_name, (void)window_name, (void)style, (void)x, (void)y;
    (void)parent, (void)menu, (void)instance, (void)param;
    if (!w)
        return NULL;
    w->magic = SHIM_WINDOW_MAGIC;
    w->width = width == CW_USEDEFAULT ? 640 : width;
    w->height = height == CW_USEDEFAULT ? 480 : height;
    return (HWND)w;
}

BOOL WINAPI DestroyWindow(HWND window)
{
    struct shim_window *w = shim_window(window);

    if (!w || w == &shim_desktop)
        return FALSE;
    w->magic = 0;
    free(w);
    return TRUE;
}

HWND WINAPI GetDesktopWindow(void)
{
    return (HWND)&shim_desktop;
}

BOOL WINAPI GetClientRect(HWND window, RECT *rect)
{
    struct shim_window *w = shim_window(window);

    if (!w || !rect)
        return FALSE;
    return SetRect(rect, 0, 0, w->width, w->height);
}

/* Headless windows have no frame: the window rect is the client rect. */
BOOL WINAPI AdjustWindowRect(RECT *rect, DWORD style, BOOL menu)
{
    (void)style, (void)menu;
    return rect != NULL;
}

BOOL WINAPI SetRect(RECT *rect, int left, int top, int right, int bottom)
{
    if (!rect)
        return FALSE;
    rect->left = left;
    rect->top = top;
    rect->right = right;
    rect->bottom = bottom;
    return TRUE;
}

BOOL WINAPI SetRectEmpty(RECT *rect)
{
    return SetRect(rect, 0, 0, 0, 0);
}

/* Inside means left <= x < right and top <= y < bottom. */
BOOL WINAPI PtInRect(const RECT *rect, POINT point)
{
    return rect && point.x >= rect->left && point.x < rect->right && point.y >= rect->top
            && point.y < rect->bottom;
}

void WINAPI Sleep(DWORD milliseconds)
{
    struct timespec t = {milliseconds / 1000, (long)(milliseconds % 1000) * 1000000L};

    while (nanosleep(&t, &t) == -1 && errno == EINTR)
        ;
}

static LONGLONG shim_monotonic_ns(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (LONGLONG)t.tv_sec * 1000000000 + t.tv_nsec;
}

DWORD WINAPI GetTickCount(void)
{
    return (DWORD)(shim_monotonic_ns() / 1000000);
}

/* The performance counter counts nanoseconds of CLOCK_MONOTONIC. */
BOOL WINAPI QueryPerformanceCounter(LARGE_INTEGER *counter)
{
    if (!counter)
        return FALSE;
    counter->QuadPart = shim_monotonic_ns();
    return TRUE;
}

BOOL WINAPI QueryPerformanceFrequency(LARGE_INTEGER *frequency)
{
    if (!frequency)
        return FALSE;
    frequency->QuadPart = 1000000000;
    return TRUE;
}
