/* Swap chains in real windows through d3d9_native.h (two Xlib windows registered with
 * D3D9NativeWindowCreate), each checked by reading the window back from the X server:
 * - Present with a source and a destination rectangle stretches that part of the back
 *   buffer over that part of the client area and leaves the rest as it was (device and
 *   swap chain Present); the front buffer takes the same rectangles;
 * - GetRasterStatus (device and swap chain) runs: the scan line moves, the vertical blank
 *   comes with a scan line of 0; the caps report D3DCAPS_READ_SCANLINE;
 * - CreateAdditionalSwapChain on a second registered window presents into it; a chain on
 *   the window another chain presents into is D3DERR_NOTAVAILABLE;
 * - windowed back buffers of R5G6B5 and A2R10G10B10 (CheckDeviceType allows them windowed
 *   only) and two or three back buffers show in the windows.
 * Runs on the X display DISPLAY names. Built with the project's compile line plus -lX11.
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <unistd.h>
#include "d3d9_check.h"
#include <d3d9_native.h>

static Display *x;

static RECT rect_of(LONG left, LONG top, LONG right, LONG bottom)
{
    RECT r;
    r.left = left;
    r.top = top;
    r.right = right;
    r.bottom = bottom;
    return r;
}

static HWND register_window(Window window, UINT width, UINT height)
{
    D3D9_NATIVE_WINDOW description;
    HWND hwnd;

    memset(&description, 0, sizeof(description));
    description.Type = D3D9_NATIVE_WINDOW_XLIB;
    description.Display = x;
    description.Window = window;
    description.Screen = DefaultScreen(x);
    description.Width = width;
    description.Height = height;
    hwnd = D3D9NativeWindowCreate(&description);
    CHECK(hwnd != NULL, "D3D9NativeWindowCreate");
    return hwnd;
}

/* A window at (left, 0) of the root: the two windows must not overlap (XGetImage reads
 * what the screen shows). */
static Window open_window(int left, UINT width, UINT height)
{
    Window window =
            XCreateSimpleWindow(x, DefaultRootWindow(x), left, 0, width, height, 0, 0, 0);
    XMapWindow(x, window);
    XSync(x, False);
    return window;
}

/* Every window pixel is `inside` within `rect`, `outside` elsewhere (0x00RRGGBB). */
static void check_window(Window window, UINT width, UINT height, const RECT *rect,
        DWORD inside, DWORD outside, const char *what)
{
    XImage *image;
    UINT px, py, differ = 0;

    XSync(x, False);
    image = XGetImage(x, window, 0, 0, width, height, AllPlanes, ZPixmap);
    CHECK(image != NULL, "XGetImage");
    for (py = 0; py < height; ++py)
        for (px = 0; px < width; ++px)
        {
            BOOL in = rect && (LONG)px >= rect->left && (LONG)px < rect->right
                    && (LONG)py >= rect->top && (LONG)py < rect->bottom;
            DWORD want = in ? inside : outside;
            DWORD got = (DWORD)(XGetPixel(image, px, py) & 0x00ffffffu);
            if (got != want && !differ++)
                printf("%s: pixel (%u, %u): window %06x, expected %06x\n", what, px, py,
                        (unsigned int)got, (unsigned int)want);
        }
    CHECK(differ == 0, "%s: %u of %u window pixels differ", what, differ, width * height);
    XDestroyImage(image);
}

static void clear_rect(IDirect3DDevice9 *device, LONG l, LONG t, LONG r, LONG b, D3DCOLOR c)
{
    D3DRECT rect = {l, t, r, b};
    CHECK_HR(IDirect3DDevice9_Clear(device, 1, &rect, D3DCLEAR_TARGET, c, 1.0f, 0), D3D_OK);
}

static void clear(IDirect3DDevice9 *device, D3DCOLOR colour)
{
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, colour, 1.0f, 0), D3D_OK);
}

static void check_raster(IDirect3DDevice9 *device, IDirect3DSwapChain9 *chain)
{
    D3DRASTER_STATUS raster;
    UINT i, blank = 0, lines = 0, last = ~0u, moved = 0;
    D3DCAPS9 caps;

    CHECK_HR(IDirect3DDevice9_GetDeviceCaps(device, &caps), D3D_OK);
    CHECK(caps.Caps & D3DCAPS_READ_SCANLINE, "caps %#x", (unsigned int)caps.Caps);
    CHECK_HR(IDirect3DDevice9_GetRasterStatus(device, 0, NULL), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_GetRasterStatus(device, 1, &raster), D3DERR_INVALIDCALL);
    /* 60 Hz: a few refreshes in 100 ms of samples. */
    for (i = 0; i < 2000; ++i)
    {
        if (i % 2)
            CHECK_HR(IDirect3DSwapChain9_GetRasterStatus(chain, &raster), D3D_OK);
        else
            CHECK_HR(IDirect3DDevice9_GetRasterStatus(device, 0, &raster), D3D_OK);
        if (raster.InVBlank)
        {
            ++blank;
            CHECK_EQ(raster.ScanLine, 0);
        }
        else
        {
            ++lines;
            CHECK(raster.ScanLine < 768, "scan line %u of a 768-line display",
                    (unsigned int)raster.ScanLine);
            moved += raster.ScanLine != last;
            last = raster.ScanLine;
        }
        usleep(50);
    }
    printf("raster: %u samples in the vertical blank, %u on lines, %u moves\n", blank, lines,
            moved);
    CHECK(blank > 0, "the vertical blank never came");
    CHECK(moved > 10, "the scan line moved %u times", moved);
}

int main(void)
{
    RECT source = rect_of(0, 0, 16, 8), dest = rect_of(32, 16, 64, 32), left, clipped;
    IDirect3DSwapChain9 *implicit = NULL, *chain = NULL, *other = NULL;
    IDirect3DSurface9 *back = NULL, *original = NULL;
    D3DPRESENT_PARAMETERS pp, cp;
    IDirect3DDevice9 *device = NULL;
    Window window_a, window_b;
    HWND hwnd_a, hwnd_b;
    IDirect3D9 *d3d;

    section("two registered windows, a device on the first");
    x = XOpenDisplay(NULL);
    CHECK(x != NULL, "XOpenDisplay(DISPLAY)");
    window_a = open_window(0, 64, 48);
    window_b = open_window(100, 40, 30);
    hwnd_a = register_window(window_a, 64, 48);
    hwnd_b = register_window(window_b, 40, 30);
    d3d = Direct3DCreate9(D3D_SDK_VERSION);
    CHECK(d3d != NULL, "Direct3DCreate9");
    memset(&pp, 0, sizeof(pp));
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.BackBufferFormat = D3DFMT_X8R8G8B8;
    CHECK_HR(IDirect3D9_CreateDevice(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, hwnd_a,
            D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device), D3D_OK);
    CHECK_EQ(pp.BackBufferWidth, 64);
    CHECK_HR(IDirect3DDevice9_GetSwapChain(device, 0, &implicit), D3D_OK);

    section("Present with rectangles");
    clear(device, 0xff0000ff);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3D_OK);
    check_window(window_a, 64, 48, NULL, 0, 0x0000ff, "a whole frame");
    /* The source: red (0, 0)-(8, 8), green (8, 0)-(16, 8); twice as large in the window. */
    clear_rect(device, 0, 0, 8, 8, 0xffff0000);
    clear_rect(device, 8, 0, 16, 8, 0xff00ff00);
    CHECK_HR(IDirect3DDevice9_Present(device, &source, &dest, NULL, NULL), D3D_OK);
    left = rect_of(32, 16, 48, 32);
    check_window(window_a, 48, 48, &left, 0xff0000, 0x0000ff, "the left of the rectangle");
    {
        XImage *image = XGetImage(x, window_a, 48, 16, 16, 16, AllPlanes, ZPixmap);
        CHECK(image != NULL, "XGetImage");
        CHECK_EQ((DWORD)(XGetPixel(image, 0, 0) & 0xffffff), 0x00ff00);
        CHECK_EQ((DWORD)(XGetPixel(image, 15, 15) & 0xffffff), 0x00ff00);
        XDestroyImage(image);
    }
    /* The swap chain's Present takes them too; a rectangle past the client area is clipped. */
    clear(device, 0xffffff00);
    dest = rect_of(0, 40, 100, 100);
    CHECK_HR(IDirect3DSwapChain9_Present(implicit, NULL, &dest, NULL, NULL, 0), D3D_OK);
    clipped = rect_of(0, 40, 64, 48);
    check_window(window_a, 32, 48, &clipped, 0xffff00, 0x0000ff, "a clipped destination");

    section("GetRasterStatus");
    check_raster(device, implicit);

    section("an additional swap chain in the second window");
    memset(&cp, 0, sizeof(cp));
    cp.Windowed = TRUE;
    cp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    cp.BackBufferFormat = D3DFMT_X8R8G8B8;
    cp.hDeviceWindow = hwnd_a;
    CHECK_HR(IDirect3DDevice9_CreateAdditionalSwapChain(device, &cp, &other),
            D3DERR_NOTAVAILABLE);
    CHECK(other == NULL, "a chain on the first window");
    cp.hDeviceWindow = hwnd_b;
    cp.BackBufferFormat = D3DFMT_R5G6B5;
    cp.BackBufferCount = 2;
    CHECK_HR(IDirect3D9_CheckDeviceType(d3d, 0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DFMT_R5G6B5,
            TRUE), D3D_OK);
    CHECK_HR(IDirect3D9_CheckDeviceType(d3d, 0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DFMT_R5G6B5,
            FALSE), D3DERR_NOTAVAILABLE);
    CHECK_HR(IDirect3DDevice9_CreateAdditionalSwapChain(device, &cp, &chain), D3D_OK);
    CHECK_EQ(cp.BackBufferWidth, 40);
    CHECK_EQ(cp.BackBufferHeight, 30);
    CHECK_HR(IDirect3DDevice9_GetRenderTarget(device, 0, &original), D3D_OK);
    CHECK_HR(IDirect3DSwapChain9_GetBackBuffer(chain, 0, D3DBACKBUFFER_TYPE_MONO, &back), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderTarget(device, 0, back), D3D_OK);
    clear(device, 0xffff0000);
    CHECK_HR(IDirect3DSwapChain9_Present(chain, NULL, NULL, NULL, NULL, 0), D3D_OK);
    check_window(window_b, 40, 30, NULL, 0, 0xff0000, "an R5G6B5 chain's first frame");
    /* Two back buffers flip: the surface drawn into stays back buffer 0. */
    clear(device, 0xff00ffff);
    CHECK_HR(IDirect3DSwapChain9_Present(chain, NULL, NULL, NULL, NULL, 0), D3D_OK);
    check_window(window_b, 40, 30, NULL, 0, 0x00ffff, "an R5G6B5 chain's second frame");
    clear(device, 0xffffffff);
    dest = rect_of(0, 0, 20, 30);
    CHECK_HR(IDirect3DSwapChain9_Present(chain, NULL, &dest, NULL, NULL, 0), D3D_OK);
    check_window(window_b, 40, 30, &dest, 0xffffff, 0x00ffff, "an R5G6B5 chain's rectangle");
    /* The first window keeps what it showed. */
    check_window(window_a, 32, 48, &clipped, 0xffff00, 0x0000ff, "the first window");
    CHECK_HR(IDirect3DDevice9_SetRenderTarget(device, 0, original), D3D_OK);
    IDirect3DSurface9_Release(back);
    CHECK_EQ(IDirect3DSwapChain9_Release(chain), 0);

    cp.BackBufferFormat = D3DFMT_A2R10G10B10;
    cp.BackBufferCount = 3;
    CHECK_HR(IDirect3DDevice9_CreateAdditionalSwapChain(device, &cp, &chain), D3D_OK);
    CHECK_HR(IDirect3DSwapChain9_GetBackBuffer(chain, 0, D3DBACKBUFFER_TYPE_MONO, &back), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderTarget(device, 0, back), D3D_OK);
    clear(device, 0xff00ff00);
    CHECK_HR(IDirect3DSwapChain9_Present(chain, NULL, NULL, NULL, NULL, 0), D3D_OK);
    check_window(window_b, 40, 30, NULL, 0, 0x00ff00, "an A2R10G10B10 chain");
    CHECK_HR(IDirect3DDevice9_SetRenderTarget(device, 0, original), D3D_OK);
    IDirect3DSurface9_Release(back);
    IDirect3DSurface9_Release(original);
    CHECK_EQ(IDirect3DSwapChain9_Release(chain), 0);

    section("two back buffers on the device's window");
    IDirect3DSwapChain9_Release(implicit);
    pp.BackBufferCount = 2;
    CHECK_HR(IDirect3DDevice9_Reset(device, &pp), D3D_OK);
    clear(device, 0xff800000);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3D_OK);
    clear(device, 0xff008000);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3D_OK);
    check_window(window_a, 64, 48, NULL, 0, 0x008000, "the second of two back buffers");

    IDirect3DDevice9_Release(device);
    IDirect3D9_Release(d3d);
    CHECK_HR(D3D9NativeWindowDestroy(hwnd_a), D3D_OK);
    CHECK_HR(D3D9NativeWindowDestroy(hwnd_b), D3D_OK);
    XDestroyWindow(x, window_a);
    XDestroyWindow(x, window_b);
    XCloseDisplay(x);
    return finish("native_swap_chains.c");
}
