/* Device contexts of surfaces through the C ABI, as Windows answers (Wine's device.c
 * test_getdc and visual.c add_dirty_rect_test):
 *  - GetDC hands out a handle for A8R8G8B8, X8R8G8B8, R5G6B5, X1R5G5B5, A1R5G5B5 surfaces
 *    and refuses other formats (A4R4G4B4, A16B16G16R16F) with D3DERR_INVALIDCALL, the out
 *    handle untouched;
 *  - while the context is out, a second GetDC, LockRect and UnlockRect are
 *    D3DERR_INVALIDCALL; ReleaseDC takes back only the handle GetDC gave;
 *  - what was locked and written before GetDC stays (the surface keeps its bytes), and
 *    after ReleaseDC the surface locks again;
 *  - GetDC on a MANAGED texture's level marks the level dirty: a texture updated with
 *    D3DLOCK_NO_DIRTY_UPDATE then GetDC/ReleaseDC reaches the GPU (UpdateTexture copies it). */
#include "d3d9_check.h"

static void fill(IDirect3DSurface9 *surface, DWORD colour, DWORD flags)
{
    D3DLOCKED_RECT locked;
    D3DSURFACE_DESC desc;
    UINT x, y;

    CHECK_HR(IDirect3DSurface9_GetDesc(surface, &desc), D3D_OK);
    CHECK_HR(IDirect3DSurface9_LockRect(surface, &locked, NULL, flags), D3D_OK);
    for (y = 0; y < desc.Height; ++y)
        for (x = 0; x < desc.Width; ++x)
            ((DWORD *)((BYTE *)locked.pBits + y * locked.Pitch))[x] = colour;
    CHECK_HR(IDirect3DSurface9_UnlockRect(surface), D3D_OK);
}

int main(void)
{
    static const D3DFORMAT with_dc[] = {
        D3DFMT_A8R8G8B8, D3DFMT_X8R8G8B8, D3DFMT_R5G6B5, D3DFMT_X1R5G5B5, D3DFMT_A1R5G5B5,
    };
    static const D3DFORMAT without_dc[] = {D3DFMT_A4R4G4B4, D3DFMT_A16B16G16R16F};
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    IDirect3DSurface9 *surface, *other;
    IDirect3DDevice9 *device;
    D3DLOCKED_RECT locked;
    HDC dc, other_dc;
    unsigned int i;

    CHECK(d3d != NULL, "Direct3DCreate9 returned NULL");
    device = create_device(d3d, D3DCREATE_HARDWARE_VERTEXPROCESSING, 32, 32);

    section("formats");
    for (i = 0; i < sizeof(with_dc) / sizeof(with_dc[0]); ++i)
    {
        CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 16, 16, with_dc[i],
                D3DPOOL_SYSTEMMEM, &surface, NULL), D3D_OK);
        dc = NULL;
        CHECK_HR(IDirect3DSurface9_GetDC(surface, &dc), D3D_OK);
        CHECK(dc != NULL, "format %#x: no handle", (unsigned int)with_dc[i]);
        CHECK_HR(IDirect3DSurface9_ReleaseDC(surface, dc), D3D_OK);
        CHECK_EQ(IDirect3DSurface9_Release(surface), 0);
    }
    for (i = 0; i < sizeof(without_dc) / sizeof(without_dc[0]); ++i)
    {
        CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 16, 16, without_dc[i],
                D3DPOOL_SYSTEMMEM, &surface, NULL), D3D_OK);
        dc = (HDC)0x1234;
        CHECK_HR(IDirect3DSurface9_GetDC(surface, &dc), D3DERR_INVALIDCALL);
        CHECK(dc == (HDC)0x1234, "format %#x: handle written", (unsigned int)without_dc[i]);
        CHECK_EQ(IDirect3DSurface9_Release(surface), 0);
    }

    section("a context out");
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 16, 16, D3DFMT_A8R8G8B8,
            D3DPOOL_SYSTEMMEM, &surface, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 16, 16, D3DFMT_A8R8G8B8,
            D3DPOOL_SYSTEMMEM, &other, NULL), D3D_OK);
    fill(surface, 0x00123456, 0);
    CHECK_HR(IDirect3DSurface9_GetDC(surface, &dc), D3D_OK);
    CHECK_HR(IDirect3DSurface9_GetDC(surface, &other_dc), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DSurface9_LockRect(surface, &locked, NULL, 0), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DSurface9_UnlockRect(surface), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DSurface9_GetDC(other, &other_dc), D3D_OK);
    CHECK(other_dc != dc, "two surfaces gave the same handle");
    CHECK_HR(IDirect3DSurface9_ReleaseDC(surface, other_dc), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DSurface9_ReleaseDC(other, other_dc), D3D_OK);
    CHECK_HR(IDirect3DSurface9_ReleaseDC(surface, dc), D3D_OK);
    CHECK_HR(IDirect3DSurface9_ReleaseDC(surface, dc), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DSurface9_LockRect(surface, &locked, NULL, D3DLOCK_READONLY), D3D_OK);
    CHECK_EQ(((DWORD *)locked.pBits)[0], 0x00123456);
    CHECK_HR(IDirect3DSurface9_UnlockRect(surface), D3D_OK);
    CHECK_EQ(IDirect3DSurface9_Release(other), 0);
    CHECK_EQ(IDirect3DSurface9_Release(surface), 0);

    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    return finish("device_contexts");
}
