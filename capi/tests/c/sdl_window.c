/* An SDL2 window through d3d9_native.h, as a port that already uses SDL for its windows
 * would hand it over: SDL_GetWindowWMInfo's X11 display and window in a D3D9_NATIVE_WINDOW
 * (SDL_GetWindowSizeInPixels its size), registered with D3D9NativeWindowCreate and passed
 * to CreateDevice as the HWND. Present shows the frame in the SDL window (read back from
 * the X server with XGetImage and compared with GetFrontBufferData pixel for pixel); an SDL
 * resize told with D3D9NativeWindowResized loses the device until Reset. Runs on the X
 * display DISPLAY names, SDL's X11 video driver.
 *
 * Built with the project's compile line plus `sdl2-config --cflags --libs` and -lX11. */
#include <SDL.h>
#include <SDL_syswm.h>
#include "d3d9_check.h"
#include "x11_check.h"
#include <d3d9_native.h>

static void frame(IDirect3DDevice9 *device, D3DCOLOR background, D3DCOLOR fill)
{
    D3DRECT rect = {8, 4, 40, 28};
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, background, 1.0f, 0),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_Clear(device, 1, &rect, D3DCLEAR_TARGET, fill, 1.0f, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3D_OK);
}

int main(void)
{
    D3D9_NATIVE_WINDOW description;
    D3DPRESENT_PARAMETERS pp;
    IDirect3DDevice9 *device = NULL;
    SDL_SysWMinfo info;
    SDL_Window *sdl;
    IDirect3D9 *d3d;
    int width, height;
    HWND hwnd;

    section("an SDL2 window handed over");
    CHECK(SDL_Init(SDL_INIT_VIDEO) == 0, "SDL_Init: %s", SDL_GetError());
    sdl = SDL_CreateWindow("d3d9", 0, 0, 80, 60, SDL_WINDOW_SHOWN | SDL_WINDOW_RESIZABLE);
    CHECK(sdl != NULL, "SDL_CreateWindow: %s", SDL_GetError());
    SDL_VERSION(&info.version);
    CHECK(SDL_GetWindowWMInfo(sdl, &info), "SDL_GetWindowWMInfo: %s", SDL_GetError());
    CHECK(info.subsystem == SDL_SYSWM_X11, "subsystem %d", (int)info.subsystem);
    SDL_GetWindowSizeInPixels(sdl, &width, &height);
    CHECK(width == 80 && height == 60, "%d x %d", width, height);
    memset(&description, 0, sizeof(description));
    description.Type = D3D9_NATIVE_WINDOW_XLIB;
    description.Display = info.info.x11.display;
    description.Window = info.info.x11.window;
    description.Screen = DefaultScreen(info.info.x11.display);
    description.Width = (UINT)width;
    description.Height = (UINT)height;
    hwnd = D3D9NativeWindowCreate(&description);
    CHECK(hwnd != NULL, "D3D9NativeWindowCreate");

    d3d = Direct3DCreate9(D3D_SDK_VERSION);
    CHECK(d3d != NULL, "Direct3DCreate9");
    memset(&pp, 0, sizeof(pp));
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.BackBufferFormat = D3DFMT_X8R8G8B8;
    pp.PresentationInterval = D3DPRESENT_INTERVAL_ONE;
    CHECK_HR(IDirect3D9_CreateDevice(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, hwnd,
            D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device), D3D_OK);
    CHECK_EQ(pp.BackBufferWidth, 80);
    CHECK_EQ(pp.BackBufferHeight, 60);

    section("Present shows the frame in the SDL window");
    frame(device, 0xff102030, 0xffe0c040);
    check_window_shows_front_buffer(info.info.x11.display, info.info.x11.window, device, 80, 60);

    section("an SDL resize loses the device until Reset");
    SDL_SetWindowSize(sdl, 96, 72);
    SDL_PumpEvents();
    SDL_GetWindowSizeInPixels(sdl, &width, &height);
    CHECK(width == 96 && height == 72, "%d x %d", width, height);
    CHECK_HR(D3D9NativeWindowResized(hwnd, (UINT)width, (UINT)height), D3D_OK);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3DERR_DEVICELOST);
    CHECK_HR(IDirect3DDevice9_TestCooperativeLevel(device), D3DERR_DEVICENOTRESET);
    pp.BackBufferWidth = 0;
    pp.BackBufferHeight = 0;
    CHECK_HR(IDirect3DDevice9_Reset(device, &pp), D3D_OK);
    CHECK_EQ(pp.BackBufferWidth, 96);
    CHECK_EQ(pp.BackBufferHeight, 72);
    frame(device, 0xff408000, 0xff00ffff);
    check_window_shows_front_buffer(info.info.x11.display, info.info.x11.window, device, 96, 72);

    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    CHECK_HR(D3D9NativeWindowDestroy(hwnd), D3D_OK);
    SDL_DestroyWindow(sdl);
    SDL_Quit();
    return finish("sdl_window");
}
