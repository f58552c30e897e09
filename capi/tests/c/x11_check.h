/* What the C programs that present into X11 windows share: the window's pixels, read back
 * from the X server with XGetImage, compared with the front buffer (GetFrontBufferData).
 * Include after <X11/Xlib.h> (or SDL_syswm.h) and d3d9_check.h. */
#ifndef X11_CHECK_H
#define X11_CHECK_H

#include <X11/Xutil.h>

/* The window's pixels equal the front buffer's (GetFrontBufferData), every one. */
static void check_window_shows_front_buffer(Display *x, Window window, IDirect3DDevice9 *device,
        UINT width, UINT height)
{
    IDirect3DSurface9 *front = NULL;
    D3DLOCKED_RECT locked;
    XImage *image;
    UINT px, py, differ = 0;

    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, width, height,
            D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &front, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetFrontBufferData(device, 0, front), D3D_OK);
    CHECK_HR(IDirect3DSurface9_LockRect(front, &locked, NULL, D3DLOCK_READONLY), D3D_OK);
    XSync(x, False);
    image = XGetImage(x, window, 0, 0, width, height, AllPlanes, ZPixmap);
    CHECK(image != NULL, "XGetImage");
    for (py = 0; py < height; ++py)
        for (px = 0; px < width; ++px)
        {
            DWORD want = ((const DWORD *)((const BYTE *)locked.pBits + py * locked.Pitch))[px]
                    & 0x00ffffffu;
            DWORD got = (DWORD)(XGetPixel(image, px, py) & 0x00ffffffu);
            if (got != want && !differ++)
                printf("pixel (%u, %u): window %06x, front buffer %06x\n", px, py,
                        (unsigned int)got, (unsigned int)want);
        }
    CHECK(differ == 0, "%u of %u window pixels differ from the front buffer", differ,
            width * height);
    XDestroyImage(image);
    CHECK_HR(IDirect3DSurface9_UnlockRect(front), D3D_OK);
    IDirect3DSurface9_Release(front);
}

#endif /* X11_CHECK_H */
