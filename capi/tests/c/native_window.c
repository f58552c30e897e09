/* A real window through d3d9_native.h: an Xlib window registered with
 * D3D9NativeWindowCreate and passed to CreateDevice as its HWND. Present shows the back
 * buffer in the window (read back from the X server with XGetImage and compared with
 * GetFrontBufferData pixel for pixel); a back-buffer size of 0 is the window's; a resize
 * told with D3D9NativeWindowResized loses the device (D3DERR_DEVICELOST,
 * D3DERR_DEVICENOTRESET) until a Reset, which a live D3DPOOL_DEFAULT texture refuses;
 * PresentationInterval TWO is refused. Runs on the X display DISPLAY names.
 *
 * Built with the project's compile line plus -lX11.
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include "d3d9_check.h"
#include "x11_check.h"
#include <d3d9_native.h>

static void draw_frame(IDirect3DDevice9 *device, D3DCOLOR background, D3DCOLOR fill)
{
    D3DRECT rect = {4, 6, 30, 20};
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, background, 1.0f, 0),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_Clear(device, 1, &rect, D3DCLEAR_TARGET, fill, 1.0f, 0), D3D_OK);
}

int main(void)
{
    D3D9_NATIVE_WINDOW description;
    D3DPRESENT_PARAMETERS pp;
    IDirect3D9 *d3d;
    IDirect3DDevice9 *device = NULL;
    IDirect3DSurface9 *back = NULL;
    IDirect3DTexture9 *texture = NULL;
    D3DSURFACE_DESC desc;
    Display *x;
    Window window;
    HWND hwnd;

    section("an Xlib window registered");
    x = XOpenDisplay(NULL);
    CHECK(x != NULL, "XOpenDisplay(DISPLAY)");
    window = XCreateSimpleWindow(x, DefaultRootWindow(x), 0, 0, 64, 48, 0, 0, 0);
    XMapWindow(x, window);
    XSync(x, False);
    memset(&description, 0, sizeof(description));
    description.Type = D3D9_NATIVE_WINDOW_XLIB;
    description.Display = x;
    description.Window = window;
    description.Screen = DefaultScreen(x);
    description.Width = 64;
    description.Height = 48;
    hwnd = D3D9NativeWindowCreate(&description);
    CHECK(hwnd != NULL, "D3D9NativeWindowCreate");
    description.Type = 7;
    CHECK(D3D9NativeWindowCreate(&description) == NULL, "an unknown window type");
    CHECK(D3D9NativeWindowCreate(NULL) == NULL, "no description");

    d3d = Direct3DCreate9(D3D_SDK_VERSION);
    CHECK(d3d != NULL, "Direct3DCreate9");
    memset(&pp, 0, sizeof(pp));
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.BackBufferFormat = D3DFMT_X8R8G8B8;
    pp.PresentationInterval = D3DPRESENT_INTERVAL_TWO;
    CHECK_HR(IDirect3D9_CreateDevice(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, hwnd,
            D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device), D3DERR_INVALIDCALL);
    pp.PresentationInterval = D3DPRESENT_INTERVAL_ONE;
    CHECK_HR(IDirect3D9_CreateDevice(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, hwnd,
            D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device), D3D_OK);
    CHECK_EQ(pp.BackBufferWidth, 64);
    CHECK_EQ(pp.BackBufferHeight, 48);

    section("Present shows the frame in the window");
    draw_frame(device, 0xff0000ff, 0xffffff00);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3D_OK);
    draw_frame(device, 0xff204060, 0xffc08010);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3D_OK);
    check_window_shows_front_buffer(x, window, device, 64, 48);

    section("a resize loses the device until Reset");
    XResizeWindow(x, window, 96, 72);
    XSync(x, False);
    CHECK_HR(D3D9NativeWindowResized(hwnd, 96, 72), D3D_OK);
    CHECK_HR(D3D9NativeWindowResized((HWND)1, 96, 72), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3DERR_DEVICELOST);
    CHECK_HR(IDirect3DDevice9_TestCooperativeLevel(device), D3DERR_DEVICENOTRESET);
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, 0, 1.0f, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateTexture(device, 8, 8, 1, 0, D3DFMT_A8R8G8B8,
            D3DPOOL_DEFAULT, &texture, NULL), D3D_OK);
    pp.BackBufferWidth = 0;
    pp.BackBufferHeight = 0;
    CHECK_HR(IDirect3DDevice9_Reset(device, &pp), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_TestCooperativeLevel(device), D3DERR_DEVICENOTRESET);
    IDirect3DTexture9_Release(texture);
    CHECK_HR(IDirect3DDevice9_Reset(device, &pp), D3D_OK);
    CHECK_EQ(pp.BackBufferWidth, 96);
    CHECK_EQ(pp.BackBufferHeight, 72);
    CHECK_HR(IDirect3DDevice9_TestCooperativeLevel(device), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetBackBuffer(device, 0, 0, D3DBACKBUFFER_TYPE_MONO, &back),
            D3D_OK);
    CHECK_HR(IDirect3DSurface9_GetDesc(back, &desc), D3D_OK);
    CHECK_EQ(desc.Width, 96);
    CHECK_EQ(desc.Height, 72);
    IDirect3DSurface9_Release(back);
    draw_frame(device, 0xff008000, 0xffff00ff);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3D_OK);
    check_window_shows_front_buffer(x, window, device, 96, 72);

    IDirect3DDevice9_Release(device);
    IDirect3D9_Release(d3d);
    CHECK_HR(D3D9NativeWindowDestroy(hwnd), D3D_OK);
    CHECK_HR(D3D9NativeWindowDestroy(hwnd), D3DERR_INVALIDCALL);
    XDestroyWindow(x, window);
    XCloseDisplay(x);
    return finish("native_window.c");
}
