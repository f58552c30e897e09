/*
 * windows.h: the Windows subset D3D9 programs use on x86-64 Linux: the types of windef.h,
 * the HRESULTs of winerror.h, COM's objbase.h, and a few window and timing functions.
 * Part of d3d9-wgpu's C ABI; written for it.
 *
 * libd3d9 itself does not export the functions declared here: a program that calls them
 * links its own stand-ins (Wine's tests link capi/tests/wine/win32_shim.c). Windows there
 * are headless: an HWND is an opaque handle that libd3d9 does not know (see d3d9_native.h).
 */
#ifndef D3D9_WGPU_WINDOWS_H
#define D3D9_WGPU_WINDOWS_H

#include <windef.h>
#include <winerror.h>
#include <objbase.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Window styles (only what programs pass through; headless windows ignore them). */
#define WS_OVERLAPPED 0x00000000u
#define WS_POPUP 0x80000000u
#define WS_CHILD 0x40000000u
#define WS_VISIBLE 0x10000000u
#define WS_CAPTION 0x00c00000u
#define WS_BORDER 0x00800000u
#define WS_SYSMENU 0x00080000u
#define WS_THICKFRAME 0x00040000u
#define WS_MINIMIZEBOX 0x00020000u
#define WS_MAXIMIZEBOX 0x00010000u
#define WS_OVERLAPPEDWINDOW \
    (WS_OVERLAPPED | WS_CAPTION | WS_SYSMENU | WS_THICKFRAME | WS_MINIMIZEBOX | WS_MAXIMIZEBOX)
#define CW_USEDEFAULT ((int)0x80000000u)

HWND WINAPI CreateWindowExA(DWORD ex_style, LPCSTR class_name, LPCSTR window_name, DWORD style,
        int x, int y, int width, int height, HWND parent, HMENU menu, HINSTANCE instance,
        LPVOID param);
#define CreateWindowA(class_name, window_name, style, x, y, width, height, parent, menu, \
        instance, param)                                                               \
    CreateWindowExA(0, class_name, window_name, style, x, y, width, height, parent, menu, \
        instance, param)
BOOL WINAPI DestroyWindow(HWND window);
HWND WINAPI GetDesktopWindow(void);
BOOL WINAPI AdjustWindowRect(RECT *rect, DWORD style, BOOL menu);
BOOL WINAPI GetClientRect(HWND window, RECT *rect);
BOOL WINAPI SetRect(RECT *rect, int left, int top, int right, int bottom);
BOOL WINAPI SetRectEmpty(RECT *rect);
BOOL WINAPI PtInRect(const RECT *rect, POINT point);
void WINAPI Sleep(DWORD milliseconds);
DWORD WINAPI GetTickCount(void);
BOOL WINAPI QueryPerformanceCounter(LARGE_INTEGER *counter);
BOOL WINAPI QueryPerformanceFrequency(LARGE_INTEGER *frequency);

#ifdef __cplusplus
}
#endif

#endif /* D3D9_WGPU_WINDOWS_H */
