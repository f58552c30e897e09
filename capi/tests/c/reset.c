/* IDirect3DDevice9::Reset, additional swap chains, palettes and the cursor as Windows has
 * them (Wine's test_reset, test_swapchain, test_refcount, test_cursor in device.c and
 * test_backbuffer_resize, test_managed_reset in visual.c, which pass on Windows):
 *  - Reset gives the same implicit swap chain new back buffers of the new size, count and
 *    format and a new automatic depth-stencil surface, sets every state back to its default
 *    (viewport and scissor rectangle to the new back buffer), unbinds every object, keeps
 *    MANAGED textures' contents, and writes the completed present parameters back;
 *  - Reset fails with D3DERR_INVALIDCALL while a D3DPOOL_DEFAULT resource or an additional
 *    swap chain is alive, or the application holds an implicit back buffer; the device is
 *    then lost (TestCooperativeLevel D3DERR_DEVICENOTRESET, Present D3DERR_DEVICELOST,
 *    draws silently do nothing) until a Reset succeeds; a swap effect D3D9 refuses outright
 *    loses nothing; what only a binding held does not refuse it;
 *  - CreateAdditionalSwapChain makes a headless chain with its own back buffers whose
 *    Present makes them its front buffer; GetSwapChain and GetNumberOfSwapChains count the
 *    implicit chain only;
 *  - SetPaletteEntries / GetPaletteEntries keep 256 entries per palette number;
 *  - ShowCursor answers the previous visibility, which changes only once a cursor is set. */
#include "d3d9_check.h"

#define FOCUS ((HWND)1)

static IDirect3DDevice9 *device;

struct vertex_tex
{
    float x, y, z, rhw;
    float u, v;
};

/* Windowed present parameters of width x height, `count` back buffers, D24S8 automatic
 * depth-stencil surface when `depth`. */
static D3DPRESENT_PARAMETERS windowed(UINT width, UINT height, D3DFORMAT format, UINT count,
        BOOL depth)
{
    D3DPRESENT_PARAMETERS pp;

    memset(&pp, 0, sizeof(pp));
    pp.BackBufferWidth = width;
    pp.BackBufferHeight = height;
    pp.BackBufferFormat = format;
    pp.BackBufferCount = count;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.Windowed = TRUE;
    pp.EnableAutoDepthStencil = depth;
    pp.AutoDepthStencilFormat = D3DFMT_D24S8;
    return pp;
}

static HRESULT reset_to(UINT width, UINT height)
{
    D3DPRESENT_PARAMETERS pp = windowed(width, height, D3DFMT_X8R8G8B8, 1, FALSE);
    return IDirect3DDevice9_Reset(device, &pp);
}

/* Draws `texture` (or nothing bound at stage 0) over the whole w x h target with
 * pre-transformed vertices, the first stage's defaults (MODULATE of the texture and the
 * white diffuse default), no lighting or depth. */
static void draw_texture(IDirect3DBaseTexture9 *texture, float w, float h)
{
    const struct vertex_tex quad[] = {
        {0.0f, 0.0f, 0.5f, 1.0f, 0.0f, 0.0f},
        {w, 0.0f, 0.5f, 1.0f, 1.0f, 0.0f},
        {0.0f, h, 0.5f, 1.0f, 0.0f, 1.0f},
        {w, h, 0.5f, 1.0f, 1.0f, 1.0f},
    };

    CHECK_HR(IDirect3DDevice9_SetFVF(device, D3DFVF_XYZRHW | D3DFVF_TEX1), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_ZENABLE, D3DZB_FALSE), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_CULLMODE, D3DCULL_NONE), D3D_OK);
    if (texture)
        CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, texture), D3D_OK);
    CHECK_HR(IDirect3DDevice9_BeginScene(device), D3D_OK);
    CHECK_HR(IDirect3DDevice9_DrawPrimitiveUP(device, D3DPT_TRIANGLESTRIP, 2, quad,
            sizeof(quad[0])), D3D_OK);
    CHECK_HR(IDirect3DDevice9_EndScene(device), D3D_OK);
}

/* A 4 x 4 A8R8G8B8 texture of `pool` filled with `colour` (through LockRect, or for
 * DEFAULT left empty). */
static IDirect3DTexture9 *texture_of(D3DPOOL pool, D3DCOLOR colour)
{
    IDirect3DTexture9 *texture = NULL;
    D3DLOCKED_RECT locked;
    UINT x, y;

    CHECK_HR(IDirect3DDevice9_CreateTexture(device, 4, 4, 1, 0, D3DFMT_A8R8G8B8, pool,
            &texture, NULL), D3D_OK);
    if (pool != D3DPOOL_DEFAULT)
    {
        CHECK_HR(IDirect3DTexture9_LockRect(texture, 0, &locked, NULL, 0), D3D_OK);
        for (y = 0; y < 4; ++y)
            for (x = 0; x < 4; ++x)
                ((DWORD *)((BYTE *)locked.pBits + y * locked.Pitch))[x] = colour;
        CHECK_HR(IDirect3DTexture9_UnlockRect(texture, 0), D3D_OK);
    }
    return texture;
}

/* Rules: a successful Reset makes new back buffers for the same swap chain object, resets
 * every state and binding, keeps MANAGED contents, writes the parameters back. */
static void reset_succeeds(void)
{
    IDirect3DSwapChain9 *chain = NULL, *chain_after = NULL;
    IDirect3DSurface9 *back = NULL, *back1 = NULL, *target = NULL, *depth = NULL;
    IDirect3DBaseTexture9 *bound = (void *)0xdeadbeef;
    IDirect3DVertexShader9 *vs = (void *)0xdeadbeef;
    IDirect3DTexture9 *managed;
    D3DPRESENT_PARAMETERS pp, got;
    D3DSURFACE_DESC desc;
    D3DVIEWPORT9 vp = {4, 5, 20, 20, 0.25f, 0.75f};
    RECT scissor;
    struct readback image;
    DWORD value = 0, fvf = 7;

    section("Reset: new back buffers, default states, MANAGED contents kept");
    managed = texture_of(D3DPOOL_MANAGED, 0xff00ff00);
    CHECK_HR(IDirect3DDevice9_GetSwapChain(device, 0, &chain), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_LIGHTING, FALSE), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetViewport(device, &vp), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetSamplerState(device, 0, D3DSAMP_MAGFILTER, D3DTEXF_LINEAR),
            D3D_OK);
    draw_texture((IDirect3DBaseTexture9 *)managed, 64.0f, 64.0f);

    pp = windowed(128, 96, D3DFMT_A8R8G8B8, 2, TRUE);
    pp.Flags = D3DPRESENTFLAG_LOCKABLE_BACKBUFFER;
    CHECK_HR(IDirect3DDevice9_Reset(device, &pp), D3D_OK);
    CHECK_HR(IDirect3DDevice9_TestCooperativeLevel(device), D3D_OK);
    CHECK_EQ(pp.BackBufferCount, 2);
    CHECK(pp.hDeviceWindow == NULL, "Reset wrote the window %p back", (void *)pp.hDeviceWindow);

    /* States and bindings: D3D9's defaults. */
    CHECK_HR(IDirect3DDevice9_GetRenderState(device, D3DRS_LIGHTING, &value), D3D_OK);
    CHECK_EQ(value, TRUE);
    CHECK_HR(IDirect3DDevice9_GetRenderState(device, D3DRS_ZENABLE, &value), D3D_OK);
    CHECK_EQ(value, D3DZB_TRUE); /* with an automatic depth-stencil surface */
    CHECK_HR(IDirect3DDevice9_GetSamplerState(device, 0, D3DSAMP_MAGFILTER, &value), D3D_OK);
    CHECK_EQ(value, D3DTEXF_POINT);
    CHECK_HR(IDirect3DDevice9_GetViewport(device, &vp), D3D_OK);
    CHECK(vp.X == 0 && vp.Y == 0 && vp.Width == 128 && vp.Height == 96 && vp.MinZ == 0.0f
            && vp.MaxZ == 1.0f, "viewport %u,%u %ux%u %f-%f", (unsigned int)vp.X,
            (unsigned int)vp.Y, (unsigned int)vp.Width, (unsigned int)vp.Height, vp.MinZ,
            vp.MaxZ);
    CHECK_HR(IDirect3DDevice9_GetScissorRect(device, &scissor), D3D_OK);
    CHECK(scissor.left == 0 && scissor.top == 0 && scissor.right == 128
            && scissor.bottom == 96, "scissor %d,%d-%d,%d", (int)scissor.left,
            (int)scissor.top, (int)scissor.right, (int)scissor.bottom);
    CHECK_HR(IDirect3DDevice9_GetTexture(device, 0, &bound), D3D_OK);
    CHECK(bound == NULL, "a texture %p is still bound", (void *)bound);
    CHECK_HR(IDirect3DDevice9_GetFVF(device, &fvf), D3D_OK);
    CHECK_EQ(fvf, 0);
    CHECK_HR(IDirect3DDevice9_GetVertexShader(device, &vs), D3D_OK);
    CHECK(vs == NULL, "a vertex shader %p is still set", (void *)vs);

    /* The same swap chain object, its parameters the new ones. */
    CHECK_HR(IDirect3DDevice9_GetSwapChain(device, 0, &chain_after), D3D_OK);
    CHECK(chain_after == chain, "GetSwapChain gave %p, before Reset %p", (void *)chain_after,
            (void *)chain);
    CHECK_EQ(IDirect3DSwapChain9_Release(chain_after), 1);
    CHECK_HR(IDirect3DSwapChain9_GetPresentParameters(chain, &got), D3D_OK);
    CHECK_EQ(got.BackBufferWidth, 128);
    CHECK_EQ(got.BackBufferHeight, 96);
    CHECK_EQ(got.BackBufferFormat, D3DFMT_A8R8G8B8);
    CHECK_EQ(got.BackBufferCount, 2);
    CHECK(got.hDeviceWindow == FOCUS, "the chain's window is %p", (void *)got.hDeviceWindow);

    /* Two new back buffers of the new size; render target 0 is the first. */
    CHECK_HR(IDirect3DDevice9_GetBackBuffer(device, 0, 0, D3DBACKBUFFER_TYPE_MONO, &back),
            D3D_OK);
    CHECK_EQ(refcount(back), 1);
    CHECK_HR(IDirect3DSurface9_GetDesc(back, &desc), D3D_OK);
    CHECK_EQ(desc.Width, 128);
    CHECK_EQ(desc.Height, 96);
    CHECK_EQ(desc.Format, D3DFMT_A8R8G8B8);
    CHECK_HR(IDirect3DSwapChain9_GetBackBuffer(chain, 1, D3DBACKBUFFER_TYPE_MONO, &back1),
            D3D_OK);
    CHECK(back1 != back, "both back buffers are %p", (void *)back);
    CHECK_HR(IDirect3DSwapChain9_GetBackBuffer(chain, 2, D3DBACKBUFFER_TYPE_MONO, &target),
            D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_GetRenderTarget(device, 0, &target), D3D_OK);
    CHECK(target == back, "render target 0 %p is not back buffer 0 %p", (void *)target,
            (void *)back);
    CHECK_HR(IDirect3DDevice9_GetDepthStencilSurface(device, &depth), D3D_OK);
    CHECK_HR(IDirect3DSurface9_GetDesc(depth, &desc), D3D_OK);
    CHECK_EQ(desc.Width, 128);
    CHECK_EQ(desc.Format, D3DFMT_D24S8);
    IDirect3DSurface9_Release(depth);
    IDirect3DSurface9_Release(target);
    IDirect3DSurface9_Release(back1);
    IDirect3DSurface9_Release(back);

    /* The MANAGED texture kept its texels; nothing is bound until it is set again. */
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, 0xffff0000, 1.0f, 0),
            D3D_OK);
    draw_texture((IDirect3DBaseTexture9 *)managed, 128.0f, 96.0f);
    image = read_back(device);
    CHECK_EQ(image.width, 128);
    CHECK_PIXEL(&image, 100, 80, 0x00ff00);
    free_readback(&image);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, NULL), D3D_OK);
    CHECK_EQ(IDirect3DTexture9_Release(managed), 0);
    CHECK_EQ(IDirect3DSwapChain9_Release(chain), 0);
    printf("ok\n");
}

/* Checks the lost state a failed Reset left, then that `release` gets the device back. */
static void check_lost(void)
{
    static const struct vertex_tex point = {1.0f, 1.0f, 0.5f, 1.0f, 0.0f, 0.0f};
    IDirect3DSurface9 *copy = NULL;
    DWORD passes = 0;

    CHECK_HR(IDirect3DDevice9_TestCooperativeLevel(device), D3DERR_DEVICENOTRESET);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3DERR_DEVICELOST);
    CHECK_HR(IDirect3DDevice9_ValidateDevice(device, &passes), D3DERR_DEVICELOST);
    /* Read-backs of what the device drew fail too. */
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 8, 8, D3DFMT_A8R8G8B8,
            D3DPOOL_SYSTEMMEM, &copy, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetFrontBufferData(device, 0, copy), D3DERR_DEVICELOST);
    CHECK_EQ(IDirect3DSurface9_Release(copy), 0);
    /* Rendering fails silently. */
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, 0, 1.0f, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_DrawPrimitiveUP(device, D3DPT_POINTLIST, 1, &point,
            sizeof(point)), D3D_OK);
}

/* Rules: what refuses a Reset, the lost state, the recovery; what does not refuse it. */
static void reset_fails(void)
{
    IDirect3DTexture9 *texture, *bound_texture, *managed, *sysmem, *scratch;
    IDirect3DSurface9 *surface = NULL, *plain = NULL;
    IDirect3DVertexBuffer9 *vb = NULL;
    IDirect3DSwapChain9 *extra = NULL;
    IDirect3DVertexShader9 *vs = NULL;
    D3DPRESENT_PARAMETERS pp;
    static const DWORD vs_code[] = {0xfffe0200, 0x0200001f, 0x80000000, 0x900f0000,
        0x02000001, 0xc00f0000, 0x90e40000, 0x0000ffff};

    section("Reset refused: D3DPOOL_DEFAULT resources, held back buffers; the lost state");
    /* A swap effect D3D9 refuses outright loses nothing. */
    pp = windowed(64, 64, D3DFMT_X8R8G8B8, 1, FALSE);
    pp.SwapEffect = 0;
    CHECK_HR(IDirect3DDevice9_Reset(device, &pp), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_TestCooperativeLevel(device), D3D_OK);

    texture = texture_of(D3DPOOL_DEFAULT, 0);
    CHECK_HR(reset_to(64, 64), D3DERR_INVALIDCALL);
    check_lost();
    CHECK_HR(reset_to(64, 64), D3DERR_INVALIDCALL); /* still alive */
    CHECK_EQ(IDirect3DTexture9_Release(texture), 0);
    CHECK_HR(reset_to(64, 64), D3D_OK);
    CHECK_HR(IDirect3DDevice9_TestCooperativeLevel(device), D3D_OK);
    CHECK_HR(IDirect3DDevice9_Present(device, NULL, NULL, NULL, NULL), D3D_OK);

    CHECK_HR(IDirect3DDevice9_CreateVertexBuffer(device, 64, 0, 0, D3DPOOL_DEFAULT, &vb, NULL),
            D3D_OK);
    CHECK_HR(reset_to(64, 64), D3DERR_INVALIDCALL);
    check_lost();
    CHECK_EQ(IDirect3DVertexBuffer9_Release(vb), 0);
    CHECK_HR(reset_to(64, 64), D3D_OK);

    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 16, 16, D3DFMT_X8R8G8B8,
            D3DPOOL_DEFAULT, &plain, NULL), D3D_OK);
    CHECK_HR(reset_to(64, 64), D3DERR_INVALIDCALL);
    CHECK_EQ(IDirect3DSurface9_Release(plain), 0);
    CHECK_HR(reset_to(64, 64), D3D_OK);

    pp = windowed(16, 16, D3DFMT_X8R8G8B8, 1, FALSE);
    CHECK_HR(IDirect3DDevice9_CreateAdditionalSwapChain(device, &pp, &extra), D3D_OK);
    CHECK_HR(reset_to(64, 64), D3DERR_INVALIDCALL);
    CHECK_EQ(IDirect3DSwapChain9_Release(extra), 0);
    CHECK_HR(reset_to(64, 64), D3D_OK);

    /* "A reference held to an implicit surface causes failures as well." */
    CHECK_HR(IDirect3DDevice9_GetBackBuffer(device, 0, 0, D3DBACKBUFFER_TYPE_MONO, &surface),
            D3D_OK);
    CHECK_HR(reset_to(64, 64), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_TestCooperativeLevel(device), D3DERR_DEVICENOTRESET);
    CHECK_EQ(IDirect3DSurface9_Release(surface), 0);
    CHECK_HR(reset_to(64, 64), D3D_OK);
    CHECK_HR(IDirect3DDevice9_TestCooperativeLevel(device), D3D_OK);

    /* A DEFAULT texture only a binding holds goes with the binding. */
    bound_texture = texture_of(D3DPOOL_DEFAULT, 0);
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, (IDirect3DBaseTexture9 *)bound_texture),
            D3D_OK);
    CHECK_EQ(IDirect3DTexture9_Release(bound_texture), 0);
    CHECK_HR(reset_to(64, 64), D3D_OK);

    /* MANAGED, SYSTEMMEM and SCRATCH resources and shaders do not refuse it. */
    managed = texture_of(D3DPOOL_MANAGED, 0xff0000ff);
    sysmem = texture_of(D3DPOOL_SYSTEMMEM, 0xff0000ff);
    scratch = texture_of(D3DPOOL_SCRATCH, 0xff0000ff);
    CHECK_HR(IDirect3DDevice9_CreateVertexShader(device, vs_code, &vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 16, 16, D3DFMT_X8R8G8B8,
            D3DPOOL_SYSTEMMEM, &plain, NULL), D3D_OK);
    CHECK_HR(reset_to(64, 64), D3D_OK);
    CHECK_HR(IDirect3DDevice9_TestCooperativeLevel(device), D3D_OK);
    CHECK_EQ(IDirect3DSurface9_Release(plain), 0);
    CHECK_EQ(IDirect3DVertexShader9_Release(vs), 0);
    CHECK_EQ(IDirect3DTexture9_Release(scratch), 0);
    CHECK_EQ(IDirect3DTexture9_Release(sysmem), 0);
    CHECK_EQ(IDirect3DTexture9_Release(managed), 0);
    printf("ok\n");
}

/* Rules: additional swap chains: completed parameters written back, own back buffers,
 * Present to their own front buffer, not counted by GetSwapChain/GetNumberOfSwapChains,
 * a device reference while counted. */
static void additional_swap_chains(void)
{
    IDirect3DSwapChain9 *chain = NULL, *other = (void *)0xdeadbeef;
    IDirect3DSurface9 *back = NULL, *missing = (void *)0xdeadbeef, *copy = NULL, *implicit = NULL;
    IDirect3DDevice9 *got_device = NULL;
    D3DPRESENT_PARAMETERS pp, got;
    D3DSURFACE_DESC desc;
    D3DDISPLAYMODE mode;
    D3DRASTER_STATUS raster;
    D3DLOCKED_RECT locked;
    ULONG device_refs = refcount(device);

    section("CreateAdditionalSwapChain");
    pp = windowed(0, 0, D3DFMT_UNKNOWN, 0, TRUE);
    CHECK_HR(IDirect3DDevice9_CreateAdditionalSwapChain(device, &pp, &chain), D3D_OK);
    CHECK_EQ(refcount(chain), 1);
    CHECK_EQ(refcount(device), device_refs + 1);
    /* The parameters completed: a headless window's size, the display format, one back
     * buffer; the window stays NULL in the caller's copy. */
    CHECK_EQ(pp.BackBufferWidth, 640);
    CHECK_EQ(pp.BackBufferHeight, 480);
    CHECK_EQ(pp.BackBufferFormat, D3DFMT_X8R8G8B8);
    CHECK_EQ(pp.BackBufferCount, 1);
    CHECK(pp.hDeviceWindow == NULL, "the window %p was written back", (void *)pp.hDeviceWindow);
    CHECK_HR(IDirect3DSwapChain9_GetPresentParameters(chain, &got), D3D_OK);
    CHECK(got.hDeviceWindow == FOCUS, "the chain's window is %p", (void *)got.hDeviceWindow);
    CHECK_HR(IDirect3DSwapChain9_GetDevice(chain, &got_device), D3D_OK);
    CHECK(got_device == device, "GetDevice gave %p", (void *)got_device);
    IDirect3DDevice9_Release(got_device);
    CHECK_HR(IDirect3DSwapChain9_GetDisplayMode(chain, &mode), D3D_OK);
    CHECK_HR(IDirect3DSwapChain9_GetRasterStatus(chain, &raster), D3D_OK);

    /* GetSwapChain and GetNumberOfSwapChains know the implicit chain only. */
    CHECK_EQ(IDirect3DDevice9_GetNumberOfSwapChains(device), 1);
    CHECK_HR(IDirect3DDevice9_GetSwapChain(device, 1, &other), D3DERR_INVALIDCALL);
    CHECK(other == NULL, "GetSwapChain(1) gave %p", (void *)other);

    /* Its own back buffer, counted apart from the chain, holding a device reference. */
    CHECK_HR(IDirect3DSwapChain9_GetBackBuffer(chain, 0, D3DBACKBUFFER_TYPE_MONO, &back),
            D3D_OK);
    CHECK_EQ(refcount(back), 1);
    CHECK_EQ(refcount(chain), 1);
    CHECK_EQ(refcount(device), device_refs + 2);
    CHECK_HR(IDirect3DSwapChain9_GetBackBuffer(chain, 1, D3DBACKBUFFER_TYPE_MONO, &missing),
            D3DERR_INVALIDCALL);
    CHECK(missing == (void *)0xdeadbeef, "a refused GetBackBuffer wrote %p", (void *)missing);
    CHECK_HR(IDirect3DDevice9_GetBackBuffer(device, 0, 0, D3DBACKBUFFER_TYPE_MONO, &implicit),
            D3D_OK);
    CHECK(implicit != back, "the chains share back buffer %p", (void *)back);
    IDirect3DSurface9_Release(implicit);
    CHECK_HR(IDirect3DSurface9_GetDesc(back, &desc), D3D_OK);
    CHECK_EQ(desc.Width, 640);
    CHECK_EQ(desc.Height, 480);
    CHECK_EQ(desc.Usage, D3DUSAGE_RENDERTARGET);

    /* Drawn into as a render target, presented to its own front buffer. */
    CHECK_HR(IDirect3DDevice9_SetRenderTarget(device, 0, back), D3D_OK);
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, 0xff00ff00, 1.0f, 0),
            D3D_OK);
    CHECK_HR(IDirect3DSwapChain9_Present(chain, NULL, NULL, NULL, NULL, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 640, 480, D3DFMT_X8R8G8B8,
            D3DPOOL_SYSTEMMEM, &copy, NULL), D3D_OK);
    CHECK_HR(IDirect3DSwapChain9_GetFrontBufferData(chain, copy), D3D_OK);
    CHECK_HR(IDirect3DSurface9_LockRect(copy, &locked, NULL, D3DLOCK_READONLY), D3D_OK);
    CHECK_EQ(((DWORD *)locked.pBits)[0] & 0xffffff, 0x00ff00);
    CHECK_HR(IDirect3DSurface9_UnlockRect(copy), D3D_OK);
    CHECK_EQ(IDirect3DSurface9_Release(copy), 0);
    CHECK_HR(IDirect3DDevice9_GetBackBuffer(device, 0, 0, D3DBACKBUFFER_TYPE_MONO, &implicit),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderTarget(device, 0, implicit), D3D_OK);
    IDirect3DSurface9_Release(implicit);

    /* A full-screen chain is refused. */
    pp = windowed(64, 64, D3DFMT_X8R8G8B8, 1, FALSE);
    pp.Windowed = FALSE;
    CHECK_HR(IDirect3DDevice9_CreateAdditionalSwapChain(device, &pp, &other),
            D3DERR_INVALIDCALL);
    CHECK(other == NULL, "a refused CreateAdditionalSwapChain left %p", (void *)other);

    /* The back buffer at 0 stays with its chain; the chain at 0 goes with its surfaces. */
    CHECK_EQ(IDirect3DSurface9_Release(back), 0);
    CHECK_EQ(refcount(device), device_refs + 1);
    CHECK_EQ(IDirect3DSwapChain9_Release(chain), 0);
    CHECK_EQ(refcount(device), device_refs);
    printf("ok\n");
}

/* Rules: SetPaletteEntries keeps 256 entries per palette number, GetPaletteEntries gives
 * them back; an unset palette, a NULL pointer and a number past 0xffff are refused. */
static void palettes(void)
{
    PALETTEENTRY first[256], second[256], got[256];
    unsigned int i;

    section("palettes");
    for (i = 0; i < 256; ++i)
    {
        first[i].peRed = (BYTE)i;
        first[i].peGreen = (BYTE)(255 - i);
        first[i].peBlue = (BYTE)(i ^ 0x5a);
        first[i].peFlags = 0xff;
        second[i].peRed = second[i].peGreen = second[i].peBlue = (BYTE)(i / 2);
        second[i].peFlags = (BYTE)i;
    }
    CHECK_HR(IDirect3DDevice9_SetPaletteEntries(device, 0, first), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetPaletteEntries(device, 0xffff, second), D3D_OK);
    memset(got, 0xcc, sizeof(got));
    CHECK_HR(IDirect3DDevice9_GetPaletteEntries(device, 0, got), D3D_OK);
    CHECK(!memcmp(got, first, sizeof(got)), "palette 0 differs");
    CHECK_HR(IDirect3DDevice9_GetPaletteEntries(device, 0xffff, got), D3D_OK);
    CHECK(!memcmp(got, second, sizeof(got)), "palette 0xffff differs");
    CHECK_HR(IDirect3DDevice9_SetPaletteEntries(device, 0, second), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetPaletteEntries(device, 0, got), D3D_OK);
    CHECK(!memcmp(got, second, sizeof(got)), "palette 0 was not replaced");
    CHECK_HR(IDirect3DDevice9_GetPaletteEntries(device, 7, got), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_GetPaletteEntries(device, 0, NULL), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_SetPaletteEntries(device, 1, NULL), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_SetPaletteEntries(device, 0x10000, first), D3DERR_INVALIDCALL);
    printf("ok\n");
}

/* Rules (Wine's test_cursor): ShowCursor answers the previous visibility; the cursor stays
 * hidden until SetCursorProperties set one (A8R8G8B8, sides powers of two); Reset hides it
 * and forgets it. */
static void cursor(void)
{
    IDirect3DSurface9 *bitmap = NULL, *odd = NULL, *x8 = NULL;

    section("cursor");
    CHECK_EQ(IDirect3DDevice9_ShowCursor(device, TRUE), FALSE); /* initially hidden */
    CHECK_EQ(IDirect3DDevice9_ShowCursor(device, TRUE), FALSE); /* not without a cursor */
    CHECK_HR(IDirect3DDevice9_SetCursorProperties(device, 0, 0, NULL), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 32, 32, D3DFMT_A8R8G8B8,
            D3DPOOL_SCRATCH, &bitmap, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 6, 6, D3DFMT_A8R8G8B8,
            D3DPOOL_SCRATCH, &odd, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 32, 32, D3DFMT_X8R8G8B8,
            D3DPOOL_SCRATCH, &x8, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetCursorProperties(device, 0, 0, odd), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_SetCursorProperties(device, 0, 0, x8), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_SetCursorProperties(device, 32, 0, bitmap), D3DERR_INVALIDCALL);
    CHECK_EQ(IDirect3DDevice9_ShowCursor(device, TRUE), FALSE);
    CHECK_HR(IDirect3DDevice9_SetCursorProperties(device, 0, 0, bitmap), D3D_OK);
    CHECK_EQ(IDirect3DDevice9_ShowCursor(device, TRUE), FALSE); /* still hidden */
    CHECK_EQ(IDirect3DDevice9_ShowCursor(device, TRUE), TRUE);  /* shown now */
    CHECK_EQ(IDirect3DDevice9_ShowCursor(device, FALSE), TRUE);
    CHECK_EQ(IDirect3DDevice9_ShowCursor(device, TRUE), FALSE);
    CHECK_HR(reset_to(64, 64), D3D_OK);
    CHECK_EQ(IDirect3DDevice9_ShowCursor(device, TRUE), FALSE);
    CHECK_EQ(IDirect3DDevice9_ShowCursor(device, TRUE), FALSE); /* forgotten */
    CHECK_EQ(IDirect3DSurface9_Release(x8), 0);
    CHECK_EQ(IDirect3DSurface9_Release(odd), 0);
    CHECK_EQ(IDirect3DSurface9_Release(bitmap), 0);
    printf("ok\n");
}

int main(void)
{
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);

    CHECK(d3d != NULL, "Direct3DCreate9 returned NULL");
    device = create_device(d3d, D3DCREATE_HARDWARE_VERTEXPROCESSING, 64, 64);
    reset_succeeds();
    reset_fails();
    additional_swap_chains();
    palettes();
    cursor();
    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    return finish("reset");
}
