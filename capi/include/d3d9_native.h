/*
 * d3d9_native.h: what libd3d9 (d3d9-wgpu's C ABI) adds to <d3d9.h> for native Linux
 * programs. Written for d3d9-wgpu.
 *
 * Windows. An HWND that libd3d9 does not know (any handle a program makes up, a stand-in's
 * CreateWindowExA result, GetDesktopWindow's) is a headless window: presenting to it draws
 * into the back buffer only. Its back buffer has the present parameters' size, and
 * 640x480 where BackBufferWidth or BackBufferHeight is 0.
 *
 * Real windows. A program hands libd3d9 a window of its window system by describing it in
 * a D3D9_NATIVE_WINDOW and registering it: D3D9NativeWindowCreate returns the HWND to pass
 * as CreateDevice's hFocusWindow (or D3DPRESENT_PARAMETERS::hDeviceWindow). A device on it
 * presents into the window:
 * - Present draws the back buffer over the window's client area (stretched where the sizes
 *   differ, every back-buffer format converted to what the window takes);
 * - PresentationInterval D3DPRESENT_INTERVAL_DEFAULT or _ONE waits for the vertical blank
 *   (wgpu's Fifo); _IMMEDIATE does not wait where the window system allows it; TWO to
 *   FOUR are D3DERR_INVALIDCALL (the caps report ONE and IMMEDIATE);
 * - Present's source and destination rectangles (windowed chains, any swap effect, as on
 *   Windows; ignored full-screen) stretch that part of the back buffer over that part of
 *   the client area, the rest keeping what it showed; the dirty region is ignored;
 * - CreateAdditionalSwapChain whose hDeviceWindow is another registered window presents
 *   into that window (a window another chain presents into: D3DERR_NOTAVAILABLE);
 * - windowed back buffers may be X8R8G8B8, A8R8G8B8, R5G6B5 or A2R10G10B10, with 1 to 3
 *   back buffers;
 * - BackBufferWidth or BackBufferHeight 0 is the client area's (Width, Height below);
 * - when the window is resized, tell libd3d9 (D3D9NativeWindowResized): the next Present
 *   answers D3DERR_DEVICELOST, TestCooperativeLevel D3DERR_DEVICENOTRESET, and Reset (every
 *   D3DPOOL_DEFAULT resource released first, as D3D9 requires) makes the back buffers again
 *   and presents at the new size.
 * The window must outlive every device made on it; D3D9NativeWindowDestroy forgets it.
 *
 * With SDL: SDL3's window properties name the handles
 *   Xlib:    SDL_PROP_WINDOW_X11_DISPLAY_POINTER, SDL_PROP_WINDOW_X11_WINDOW_NUMBER,
 *            SDL_PROP_WINDOW_X11_SCREEN_NUMBER;
 *   Wayland: SDL_PROP_WINDOW_WAYLAND_DISPLAY_POINTER, SDL_PROP_WINDOW_WAYLAND_SURFACE_POINTER;
 * SDL2's SDL_GetWindowWMInfo gives info.x11.display / info.x11.window and
 * info.wl.display / info.wl.surface. Width and Height: SDL_GetWindowSizeInPixels; call
 * D3D9NativeWindowResized on SDL_EVENT_WINDOW_PIXEL_SIZE_CHANGED.
 */
#ifndef D3D9_WGPU_D3D9_NATIVE_H
#define D3D9_WGPU_D3D9_NATIVE_H

#include <windows.h>
#include <d3d9.h>

#ifdef __cplusplus
extern "C" {
#endif

/* D3D9_NATIVE_WINDOW::Type. */
#define D3D9_NATIVE_WINDOW_XLIB    1 /* Display: Display *; Window: Window */
#define D3D9_NATIVE_WINDOW_XCB     2 /* Display: xcb_connection_t *; Window: xcb_window_t */
#define D3D9_NATIVE_WINDOW_WAYLAND 3 /* Display: struct wl_display *; Surface: struct wl_surface * */

typedef struct D3D9_NATIVE_WINDOW
{
    DWORD Type;           /* D3D9_NATIVE_WINDOW_XLIB, _XCB or _WAYLAND */
    void *Display;        /* the display connection */
    void *Surface;        /* Wayland: the window's wl_surface; otherwise NULL */
    unsigned long Window; /* Xlib / XCB: the window's id; Wayland: 0 */
    int Screen;           /* Xlib / XCB: the screen number */
    UINT Width;           /* the client area in pixels; 0: the back buffer's */
    UINT Height;
} D3D9_NATIVE_WINDOW;

/* Registers a window; returns its HWND, or NULL where the description names no window. */
HWND D3D9NativeWindowCreate(const D3D9_NATIVE_WINDOW *window);
/* The window's client area is now width x height pixels: D3D_OK, or D3DERR_INVALIDCALL for
 * an HWND D3D9NativeWindowCreate did not return. */
HRESULT D3D9NativeWindowResized(HWND window, UINT width, UINT height);
/* Forgets a window (after every device on it is released): D3D_OK or D3DERR_INVALIDCALL. */
HRESULT D3D9NativeWindowDestroy(HWND window);

/* How many COM objects of libd3d9 are alive (a program that released everything sees 0). */
UINT D3D9NativeLiveObjects(void);

#ifdef __cplusplus
}
#endif

#endif /* D3D9_WGPU_D3D9_NATIVE_H */
