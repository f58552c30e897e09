/* Every slot of IDirect3DDevice9's vtable, reached through <d3d9.h>'s IDirect3DDevice9_*
 * macros (COBJMACROS), answering as D3D9 answers: each of the 119 methods is called with
 * valid arguments where that is cheap, and with arguments D3D9 refuses (NULL out pointers,
 * out-of-range indices, invalid values), and the result is checked exactly (HRESULT, or the
 * value a method returns). A slot out of order would call another method and answer
 * differently. Windows' answers are those of Wine's d3d9 tests (dlls/d3d9/tests/device.c,
 * stateblock.c), which pass on Windows, and the D3D9 documentation.
 * `reached` marks each slot called; the program fails unless all 119 were. */
#include <stddef.h>
#include "d3d9_check.h"

#define SLOTS (sizeof(IDirect3DDevice9Vtbl) / sizeof(void *))

static IDirect3DDevice9 *device;
static unsigned char reached[SLOTS];
static D3DCAPS9 caps;

/* Marks `method`'s slot as reached. */
#define SLOT(method) (reached[offsetof(IDirect3DDevice9Vtbl, method) / sizeof(void *)] = 1)
/* Calls `method` on the device through its macro; checks the HRESULT. */
#define DEV_HR(expected, method, ...)                                                  \
    do                                                                                 \
    {                                                                                  \
        SLOT(method);                                                                  \
        check_hr_at(IDirect3DDevice9_##method(device, ##__VA_ARGS__), expected,         \
                "IDirect3DDevice9_" #method "(" #__VA_ARGS__ ")", #expected, __FILE__,  \
                __LINE__);                                                             \
    } while (0)
/* Calls `method` (one that returns a value or nothing) through its macro. */
#define DEV(method, ...) (SLOT(method), IDirect3DDevice9_##method(device, ##__VA_ARGS__))

static const DWORD vs_code[] = {0xfffe0200, 0x0200001f, 0x80000000, 0x900f0000,
    0x02000001, 0xc00f0000, 0x90e40000, 0x0000ffff};
static const DWORD ps_code[] = {0xffff0200, 0x02000001, 0x800f0800, 0xa0e40000, 0x0000ffff};
/* Not shader bytecode: a version token of no shader type. */
static const DWORD bad_code[] = {0xdeadbeef, 0x0000ffff};
static const D3DVERTEXELEMENT9 elements[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    D3DDECL_END(),
};

/* Objects the calls use, released at the end. */
static IDirect3DTexture9 *sys_texture, *managed_texture, *default_texture;
static IDirect3DVolumeTexture9 *volume_texture;
static IDirect3DCubeTexture9 *cube_texture;
static IDirect3DVertexBuffer9 *vb;
static IDirect3DIndexBuffer9 *ib;
static IDirect3DSurface9 *rt, *rt2, *ds, *sys_surface, *sys_surface_x8;
static IDirect3DVertexShader9 *vs;
static IDirect3DPixelShader9 *ps;
static IDirect3DVertexDeclaration9 *decl;

/* Slots 0-22: IUnknown, the device itself, swap chains, cursor, gamma. */
static void device_slots(IDirect3D9 *d3d)
{
    D3DPRESENT_PARAMETERS bad;
    D3DDEVICE_CREATION_PARAMETERS params;
    D3DDISPLAYMODE mode;
    D3DRASTER_STATUS raster;
    D3DGAMMARAMP ramp, got_ramp;
    IDirect3D9 *got_d3d = NULL;
    IDirect3DSwapChain9 *chain = (void *)0xdeadbeef;
    IDirect3DSurface9 *surface = (void *)0xdeadbeef;
    void *out = (void *)0xdeadbeef;
    unsigned int i;
    ULONG refs;

    section("slots 0-22");
    refs = refcount(device); /* 2: the application's and the surface's */
    CHECK_EQ(refs, 2);
    DEV_HR(S_OK, QueryInterface, &IID_IDirect3DDevice9, &out);
    CHECK(out == (void *)device, "QueryInterface gave %p", out);
    CHECK_EQ(DEV(Release), refs);
    DEV_HR(E_NOINTERFACE, QueryInterface, &IID_IDirect3DTexture9, &out);
    CHECK(out == NULL, "a refused QueryInterface left %p", out);
    CHECK_EQ(DEV(AddRef), refs + 1);
    CHECK_EQ(DEV(Release), refs);
    DEV_HR(D3D_OK, TestCooperativeLevel);
    CHECK(DEV(GetAvailableTextureMem) >= (1u << 20), "no texture memory");
    DEV_HR(D3D_OK, EvictManagedResources);
    DEV_HR(D3DERR_INVALIDCALL, GetDirect3D, NULL);
    DEV_HR(D3D_OK, GetDirect3D, &got_d3d);
    CHECK(got_d3d == d3d, "GetDirect3D gave %p", (void *)got_d3d);
    IDirect3D9_Release(got_d3d);
    DEV_HR(D3DERR_INVALIDCALL, GetDeviceCaps, NULL);
    DEV_HR(D3D_OK, GetDeviceCaps, &caps);
    CHECK_EQ(caps.DeviceType, D3DDEVTYPE_HAL);
    CHECK(caps.VertexShaderVersion >= D3DVS_VERSION(2, 0), "vs %#x",
            (unsigned int)caps.VertexShaderVersion);
    CHECK_EQ(caps.DevCaps & (D3DDEVCAPS_RTPATCHES | D3DDEVCAPS_NPATCHES), 0);
    DEV_HR(D3DERR_INVALIDCALL, GetDisplayMode, 1, &mode);
    DEV_HR(D3D_OK, GetDisplayMode, 0, &mode);
    CHECK(mode.Width > 0 && mode.Height > 0, "display mode %ux%u", mode.Width, mode.Height);
    DEV_HR(D3D_OK, GetCreationParameters, &params);
    CHECK_EQ(params.AdapterOrdinal, D3DADAPTER_DEFAULT);
    CHECK_EQ(params.DeviceType, D3DDEVTYPE_HAL);
    CHECK(params.hFocusWindow == (HWND)1, "focus window %p", (void *)params.hFocusWindow);
    CHECK_EQ(params.BehaviorFlags, D3DCREATE_HARDWARE_VERTEXPROCESSING);
    DEV_HR(D3DERR_INVALIDCALL, SetCursorProperties, 0, 0, NULL);
    DEV_HR(D3D_OK, SetCursorProperties, 0, 0, sys_surface);
    DEV(SetCursorPosition, 1, 1, 0);
    CHECK_EQ(DEV(ShowCursor, FALSE), FALSE); /* the cursor starts hidden */

    /* An invalid swap effect is refused before anything is made. */
    memset(&bad, 0, sizeof(bad));
    bad.Windowed = TRUE;
    bad.SwapEffect = 0;
    bad.BackBufferFormat = D3DFMT_X8R8G8B8;
    DEV_HR(D3DERR_INVALIDCALL, CreateAdditionalSwapChain, &bad, &chain);
    DEV_HR(D3DERR_INVALIDCALL, GetSwapChain, 1, &chain);
    CHECK(chain == NULL, "a refused GetSwapChain left %p", (void *)chain);
    DEV_HR(D3D_OK, GetSwapChain, 0, &chain);
    /* The swap chain's GetBackBuffer leaves the out pointer alone when it refuses (Wine's
     * test_swapchain). */
    CHECK_HR(IDirect3DSwapChain9_GetBackBuffer(chain, 1, D3DBACKBUFFER_TYPE_MONO, &surface),
            D3DERR_INVALIDCALL);
    CHECK(surface == (void *)0xdeadbeef, "a refused GetBackBuffer wrote %p", (void *)surface);
    CHECK_EQ(IDirect3DSwapChain9_Release(chain), 0);
    CHECK_EQ(DEV(GetNumberOfSwapChains), 1);
    DEV_HR(D3DERR_INVALIDCALL, Reset, &bad);
    DEV_HR(D3D_OK, TestCooperativeLevel); /* a refused Reset loses nothing */
    DEV_HR(D3D_OK, Present, NULL, NULL, NULL, NULL);
    DEV_HR(D3DERR_INVALIDCALL, GetBackBuffer, 0, 1, D3DBACKBUFFER_TYPE_MONO, &surface);
    CHECK(surface == NULL, "a refused GetBackBuffer left %p", (void *)surface);
    DEV_HR(D3DERR_INVALIDCALL, GetBackBuffer, 1, 0, D3DBACKBUFFER_TYPE_MONO, &surface);
    DEV_HR(D3D_OK, GetBackBuffer, 0, 0, D3DBACKBUFFER_TYPE_MONO, &surface);
    IDirect3DSurface9_Release(surface);
    /* The back buffer type is ignored (Wine's d3d9, after its tests on Windows). */
    DEV_HR(D3D_OK, GetBackBuffer, 0, 0, D3DBACKBUFFER_TYPE_LEFT, &surface);
    IDirect3DSurface9_Release(surface);
    DEV_HR(D3DERR_INVALIDCALL, GetRasterStatus, 1, &raster);
    DEV_HR(D3D_OK, GetRasterStatus, 0, &raster);
    DEV_HR(D3D_OK, SetDialogBoxMode, FALSE); /* disabling GDI dialogs */
    for (i = 0; i < 256; ++i)
        ramp.red[i] = ramp.green[i] = ramp.blue[i] = (WORD)(65535 - i * 257);
    DEV(SetGammaRamp, 0, D3DSGR_NO_CALIBRATION, &ramp);
    memset(&got_ramp, 0, sizeof(got_ramp));
    DEV(GetGammaRamp, 0, &got_ramp);
    CHECK(!memcmp(&ramp, &got_ramp, sizeof(ramp)), "GetGammaRamp differs from SetGammaRamp");
    printf("ok\n");
}

/* Slots 23-42: creating resources, copies, render targets, scenes. */
static void resource_slots(void)
{
    IDirect3DSurface9 *surface = (void *)0xdeadbeef;
    D3DSURFACE_DESC desc;
    D3DVERTEXBUFFER_DESC vb_desc;
    D3DINDEXBUFFER_DESC ib_desc;

    section("slots 23-42");
    DEV_HR(D3D_OK, CreateTexture, 8, 8, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sys_texture,
            NULL);
    DEV_HR(D3D_OK, CreateTexture, 8, 8, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED,
            &managed_texture, NULL);
    DEV_HR(D3D_OK, CreateTexture, 8, 8, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT,
            &default_texture, NULL);
    CHECK_EQ(IDirect3DTexture9_GetLevelCount(default_texture), 4); /* 8, 4, 2, 1 */
    DEV_HR(D3D_OK, CreateVolumeTexture, 4, 4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED,
            &volume_texture, NULL);
    CHECK_EQ(IDirect3DVolumeTexture9_GetLevelCount(volume_texture), 1);
    DEV_HR(D3D_OK, CreateCubeTexture, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &cube_texture,
            NULL);
    CHECK_EQ(IDirect3DCubeTexture9_GetLevelCount(cube_texture), 1);
    DEV_HR(D3D_OK, CreateVertexBuffer, 48, 0, D3DFVF_XYZ, D3DPOOL_MANAGED, &vb, NULL);
    CHECK_HR(IDirect3DVertexBuffer9_GetDesc(vb, &vb_desc), D3D_OK);
    CHECK_EQ(vb_desc.Size, 48);
    CHECK_EQ(vb_desc.FVF, D3DFVF_XYZ);
    DEV_HR(D3D_OK, CreateIndexBuffer, 12, 0, D3DFMT_INDEX16, D3DPOOL_MANAGED, &ib, NULL);
    CHECK_HR(IDirect3DIndexBuffer9_GetDesc(ib, &ib_desc), D3D_OK);
    CHECK_EQ(ib_desc.Format, D3DFMT_INDEX16);
    DEV_HR(D3D_OK, CreateRenderTarget, 16, 16, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE,
            &rt, NULL);
    DEV_HR(D3D_OK, CreateRenderTarget, 16, 16, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE,
            &rt2, NULL);
    DEV_HR(D3D_OK, CreateDepthStencilSurface, 64, 64, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0,
            FALSE, &ds, NULL);
    CHECK_HR(IDirect3DSurface9_GetDesc(ds, &desc), D3D_OK);
    CHECK_EQ(desc.Usage, D3DUSAGE_DEPTHSTENCIL);
    CHECK_EQ(desc.Format, D3DFMT_D24S8);
    DEV_HR(D3DERR_INVALIDCALL, CreateOffscreenPlainSurface, 8, 8, D3DFMT_A8R8G8B8,
            D3DPOOL_MANAGED, &surface, NULL);
    CHECK(surface == NULL, "a refused CreateOffscreenPlainSurface left %p", (void *)surface);
    DEV_HR(D3D_OK, CreateOffscreenPlainSurface, 16, 16, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM,
            &sys_surface_x8, NULL);

    /* UpdateSurface: formats must match. */
    DEV_HR(D3DERR_INVALIDCALL, UpdateSurface, sys_surface, NULL, rt, NULL);
    DEV_HR(D3D_OK, UpdateSurface, sys_surface_x8, NULL, rt, NULL);
    /* UpdateTexture: from SYSTEMMEM to DEFAULT only. */
    DEV_HR(D3DERR_INVALIDCALL, UpdateTexture, (IDirect3DBaseTexture9 *)managed_texture,
            (IDirect3DBaseTexture9 *)default_texture);
    DEV_HR(D3D_OK, UpdateTexture, (IDirect3DBaseTexture9 *)sys_texture,
            (IDirect3DBaseTexture9 *)default_texture);
    DEV_HR(D3DERR_INVALIDCALL, GetRenderTargetData, NULL, sys_surface_x8);
    DEV_HR(D3D_OK, GetRenderTargetData, rt, sys_surface_x8);
    DEV_HR(D3DERR_INVALIDCALL, GetFrontBufferData, 1, sys_surface);
    /* StretchRect: both surfaces in D3DPOOL_DEFAULT. */
    DEV_HR(D3DERR_INVALIDCALL, StretchRect, sys_surface_x8, NULL, rt, NULL, D3DTEXF_NONE);
    DEV_HR(D3D_OK, StretchRect, rt2, NULL, rt, NULL, D3DTEXF_NONE);
    DEV_HR(D3DERR_INVALIDCALL, ColorFill, NULL, NULL, 0xff00ff00);
    DEV_HR(D3DERR_INVALIDCALL, ColorFill, sys_surface_x8, NULL, 0xff00ff00);
    DEV_HR(D3D_OK, ColorFill, rt, NULL, 0xff00ff00);

    DEV_HR(D3DERR_INVALIDCALL, SetRenderTarget, 0, NULL);
    DEV_HR(D3DERR_INVALIDCALL, SetRenderTarget, 1000, rt);
    /* Only surfaces made for it are bound (wined3d's bind-flag checks, after Wine's tests). */
    DEV_HR(D3DERR_INVALIDCALL, SetRenderTarget, 1, sys_surface_x8);
    DEV_HR(D3DERR_INVALIDCALL, SetDepthStencilSurface, rt);
    DEV_HR(D3DERR_NOTFOUND, GetRenderTarget, 1, &surface);
    CHECK(surface == NULL, "GetRenderTarget(1) left %p", (void *)surface);
    DEV_HR(D3D_OK, SetRenderTarget, 1, rt);
    DEV_HR(D3DERR_INVALIDCALL, GetRenderTarget, 0, NULL);
    DEV_HR(D3D_OK, GetRenderTarget, 1, &surface);
    CHECK(surface == rt, "GetRenderTarget(1) gave %p", (void *)surface);
    IDirect3DSurface9_Release(surface);
    DEV_HR(D3D_OK, SetRenderTarget, 1, NULL);
    DEV_HR(D3DERR_INVALIDCALL, GetDepthStencilSurface, NULL);
    DEV_HR(D3DERR_NOTFOUND, GetDepthStencilSurface, &surface); /* no automatic one */
    CHECK(surface == NULL, "GetDepthStencilSurface left %p", (void *)surface);
    DEV_HR(D3D_OK, SetDepthStencilSurface, ds);
    DEV_HR(D3D_OK, GetDepthStencilSurface, &surface);
    CHECK(surface == ds, "GetDepthStencilSurface gave %p", (void *)surface);
    IDirect3DSurface9_Release(surface);

    DEV_HR(D3D_OK, BeginScene);
    DEV_HR(D3DERR_INVALIDCALL, BeginScene);
    DEV_HR(D3D_OK, EndScene);
    DEV_HR(D3DERR_INVALIDCALL, EndScene);
    printf("ok\n");
}

/* Slots 43-80: clears, transforms, viewport, material and lights, clip planes, render,
 * texture-stage and sampler states, state blocks, textures, palettes, scissor, modes. */
static void state_slots(void)
{
    static const float plane[4] = {1.0f, 0.0f, 0.0f, 0.5f};
    D3DMATRIX m, got_m;
    D3DVIEWPORT9 vp = {2, 3, 40, 30, 0.25f, 0.75f}, got_vp;
    D3DMATERIAL9 material, got_material;
    D3DLIGHT9 light, got_light;
    D3DCLIPSTATUS9 clip = {D3DCS_LEFT, D3DCS_ALL}, got_clip;
    IDirect3DStateBlock9 *block = (void *)0xdeadbeef;
    IDirect3DBaseTexture9 *texture = (void *)0xdeadbeef;
    PALETTEENTRY palette[256];
    RECT scissor = {1, 2, 30, 40}, got_scissor;
    float got_plane[4];
    DWORD value = 0;
    BOOL enabled = 7;
    UINT number = 7;

    section("slots 43-80");
    DEV_HR(D3D_OK, Clear, 0, NULL, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff0000ff, 1.0f, 0);
    DEV_HR(D3D_OK, SetDepthStencilSurface, NULL);
    DEV_HR(D3DERR_INVALIDCALL, Clear, 0, NULL, D3DCLEAR_ZBUFFER, 0, 1.0f, 0); /* no depth */
    DEV_HR(D3D_OK, SetDepthStencilSurface, ds);

    memset(&m, 0, sizeof(m));
    m._11 = m._22 = m._33 = 2.0f;
    m._44 = 1.0f;
    DEV_HR(D3D_OK, SetTransform, D3DTS_WORLD, &m);
    DEV_HR(D3D_OK, GetTransform, D3DTS_WORLD, &got_m);
    CHECK(!memcmp(&m, &got_m, sizeof(m)), "GetTransform differs from SetTransform");
    DEV_HR(D3D_OK, MultiplyTransform, D3DTS_WORLD, &m);
    DEV_HR(D3D_OK, GetTransform, D3DTS_WORLD, &got_m);
    CHECK(got_m._11 == 4.0f && got_m._44 == 1.0f && got_m._12 == 0.0f,
            "MultiplyTransform gave _11 %f _44 %f", got_m._11, got_m._44);
    DEV_HR(D3D_OK, SetViewport, &vp);
    DEV_HR(D3D_OK, GetViewport, &got_vp);
    CHECK(!memcmp(&vp, &got_vp, sizeof(vp)), "GetViewport differs from SetViewport");

    memset(&material, 0, sizeof(material));
    material.Power = 3.0f;
    DEV_HR(D3D_OK, SetMaterial, &material);
    DEV_HR(D3D_OK, GetMaterial, &got_material);
    CHECK_EQ(got_material.Power == 3.0f, 1);
    memset(&material, 0, sizeof(material));
    DEV_HR(D3D_OK, SetMaterial, &material); /* back to the default */

    memset(&light, 0, sizeof(light));
    DEV_HR(D3DERR_INVALIDCALL, SetLight, 0, &light); /* Type 0 is no light type */
    light.Type = D3DLIGHT_DIRECTIONAL;
    light.Direction.z = 1.0f;
    DEV_HR(D3D_OK, SetLight, 0, &light);
    DEV_HR(D3DERR_INVALIDCALL, GetLight, 7, &got_light); /* never set */
    DEV_HR(D3D_OK, GetLight, 0, &got_light);
    CHECK(!memcmp(&light, &got_light, sizeof(light)), "GetLight differs from SetLight");
    DEV_HR(D3D_OK, LightEnable, 0, FALSE);
    DEV_HR(D3DERR_INVALIDCALL, GetLightEnable, 9, &enabled);
    DEV_HR(D3D_OK, GetLightEnable, 0, &enabled);
    CHECK_EQ(enabled, FALSE);

    DEV_HR(D3D_OK, SetClipPlane, 0, plane);
    DEV_HR(D3D_OK, GetClipPlane, 0, got_plane);
    CHECK(!memcmp(plane, got_plane, sizeof(plane)), "GetClipPlane differs from SetClipPlane");
    /* Indices past MaxUserClipPlanes - 1 name the last plane (Wine's
     * test_clip_planes_limits). */
    DEV_HR(D3D_OK, SetClipPlane, 100, plane);
    memset(got_plane, 0, sizeof(got_plane));
    DEV_HR(D3D_OK, GetClipPlane, 5, got_plane);
    CHECK(!memcmp(plane, got_plane, sizeof(plane)), "plane 100 did not set plane 5");

    DEV_HR(D3D_OK, SetRenderState, D3DRS_FILLMODE, D3DFILL_WIREFRAME);
    DEV_HR(D3D_OK, GetRenderState, D3DRS_FILLMODE, &value);
    CHECK_EQ(value, D3DFILL_WIREFRAME);
    DEV_HR(D3D_OK, SetRenderState, D3DRS_FILLMODE, D3DFILL_SOLID);

    DEV_HR(D3DERR_INVALIDCALL, CreateStateBlock, 0x1234, &block);
    DEV_HR(D3D_OK, CreateStateBlock, D3DSBT_VERTEXSTATE, &block);
    CHECK_EQ(IDirect3DStateBlock9_Release(block), 0);
    DEV_HR(D3D_OK, BeginStateBlock);
    DEV_HR(D3DERR_INVALIDCALL, CreateStateBlock, D3DSBT_ALL, &block); /* while recording */
    DEV_HR(D3D_OK, EndStateBlock, &block);
    CHECK_EQ(IDirect3DStateBlock9_Release(block), 0);
    block = (void *)0xdeadbeef;
    DEV_HR(D3DERR_INVALIDCALL, EndStateBlock, &block);
    CHECK(block == (void *)0xdeadbeef, "a refused EndStateBlock wrote %p", (void *)block);

    DEV_HR(D3D_OK, SetClipStatus, &clip);
    DEV_HR(D3DERR_INVALIDCALL, GetClipStatus, NULL);
    DEV_HR(D3D_OK, GetClipStatus, &got_clip);
    CHECK_EQ(got_clip.ClipUnion, D3DCS_LEFT);
    CHECK_EQ(got_clip.ClipIntersection, D3DCS_ALL);

    DEV_HR(D3DERR_INVALIDCALL, GetTexture, 0, NULL);
    DEV_HR(D3D_OK, GetTexture, 0, &texture);
    CHECK(texture == NULL, "texture 0 is %p before any SetTexture", (void *)texture);
    DEV_HR(D3D_OK, SetTexture, 0, (IDirect3DBaseTexture9 *)managed_texture);
    DEV_HR(D3D_OK, GetTexture, 0, &texture);
    CHECK(texture == (IDirect3DBaseTexture9 *)managed_texture, "GetTexture gave %p",
            (void *)texture);
    IDirect3DBaseTexture9_Release(texture);
    DEV_HR(D3D_OK, SetTexture, D3DVERTEXTEXTURESAMPLER0, (IDirect3DBaseTexture9 *)cube_texture);
    DEV_HR(D3D_OK, GetTexture, D3DVERTEXTEXTURESAMPLER0, &texture);
    CHECK(texture == (IDirect3DBaseTexture9 *)cube_texture, "vertex sampler 0 gave %p",
            (void *)texture);
    IDirect3DBaseTexture9_Release(texture);
    DEV_HR(D3D_OK, GetTextureStageState, 0, D3DTSS_COLOROP, &value);
    CHECK_EQ(value, D3DTOP_MODULATE);
    DEV_HR(D3D_OK, SetTextureStageState, 1, D3DTSS_COLOROP, D3DTOP_ADD);
    DEV_HR(D3D_OK, GetTextureStageState, 1, D3DTSS_COLOROP, &value);
    CHECK_EQ(value, D3DTOP_ADD);
    DEV_HR(D3D_OK, GetSamplerState, 0, D3DSAMP_ADDRESSU, &value);
    CHECK_EQ(value, D3DTADDRESS_WRAP);
    DEV_HR(D3D_OK, SetSamplerState, 0, D3DSAMP_ADDRESSU, D3DTADDRESS_CLAMP);
    DEV_HR(D3D_OK, GetSamplerState, 0, D3DSAMP_ADDRESSU, &value);
    CHECK_EQ(value, D3DTADDRESS_CLAMP);

    memset(palette, 0x40, sizeof(palette));
    DEV_HR(D3D_OK, SetPaletteEntries, 0, palette);
    DEV_HR(D3DERR_INVALIDCALL, GetPaletteEntries, 99, palette); /* never set */
    DEV_HR(D3D_OK, SetCurrentTexturePalette, 0);
    DEV_HR(D3D_OK, GetCurrentTexturePalette, &number);
    CHECK_EQ(number, 0);
    DEV_HR(D3D_OK, SetScissorRect, &scissor);
    DEV_HR(D3D_OK, GetScissorRect, &got_scissor);
    CHECK(!memcmp(&scissor, &got_scissor, sizeof(scissor)), "GetScissorRect differs");
    DEV_HR(D3D_OK, SetSoftwareVertexProcessing, FALSE);
    CHECK_EQ(DEV(GetSoftwareVertexProcessing), FALSE);
    DEV_HR(D3D_OK, SetNPatchMode, 0.0f);
    CHECK(DEV(GetNPatchMode) == 0.0f, "GetNPatchMode is not 0");

    /* Back to what the draws below expect: no textures, stage 1 off. */
    DEV_HR(D3D_OK, SetTextureStageState, 1, D3DTSS_COLOROP, D3DTOP_DISABLE);
    DEV_HR(D3D_OK, SetTexture, 0, NULL);
    DEV_HR(D3D_OK, SetTexture, D3DVERTEXTEXTURESAMPLER0, NULL);
    DEV_HR(D3D_OK, SetRenderState, D3DRS_LIGHTING, FALSE);
    /* The default stages and samplers: one pass. */
    value = 0;
    DEV_HR(D3D_OK, ValidateDevice, &value);
    CHECK_EQ(value, 1);
    printf("ok\n");
}

/* Slots 81-118: draws, declarations and FVFs, shaders and constants, streams, indices,
 * patches, queries. */
static void draw_slots(void)
{
    static const float triangle[] = {-1.0f, -1.0f, 0.5f, -1.0f, 1.0f, 0.5f, 1.0f, -1.0f, 0.5f};
    static const WORD indices[] = {0, 1, 2};
    float f[8] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f}, got_f[4];
    int i4[4] = {1, 2, 3, 4}, got_i[4];
    BOOL b = TRUE, got_b = FALSE;
    IDirect3DVertexDeclaration9 *got_decl = (void *)0xdeadbeef;
    IDirect3DVertexShader9 *got_vs = NULL, *bad_vs = (void *)0xdeadbeef;
    IDirect3DPixelShader9 *got_ps = NULL, *bad_ps = (void *)0xdeadbeef;
    IDirect3DVertexBuffer9 *got_vb = NULL;
    IDirect3DIndexBuffer9 *got_ib = NULL;
    UINT offset = 9, stride = 9, freq = 0;
    DWORD fvf = 0xdeadbeef;

    section("slots 81-118");
    DEV_HR(D3D_OK, SetVertexDeclaration, NULL);
    DEV_HR(D3D_OK, BeginScene);
    DEV_HR(D3DERR_INVALIDCALL, DrawPrimitive, D3DPT_TRIANGLELIST, 0, 1); /* no declaration */
    DEV_HR(D3D_OK, DrawPrimitiveUP, D3DPT_TRIANGLELIST, 0, triangle, 12); /* nothing to draw */
    DEV_HR(D3DERR_INVALIDCALL, DrawPrimitiveUP, D3DPT_TRIANGLELIST, 1, triangle, 0);
    DEV_HR(D3DERR_INVALIDCALL, DrawIndexedPrimitiveUP, D3DPT_TRIANGLELIST, 0, 3, 1, indices,
            D3DFMT_INDEX16, triangle, 0);
    DEV_HR(D3DERR_INVALIDCALL, CreateVertexDeclaration, elements, NULL);
    DEV_HR(D3D_OK, CreateVertexDeclaration, elements, &decl);
    DEV_HR(D3D_OK, SetVertexDeclaration, decl);
    DEV_HR(D3DERR_INVALIDCALL, GetVertexDeclaration, NULL);
    DEV_HR(D3D_OK, GetVertexDeclaration, &got_decl);
    CHECK(got_decl == decl, "GetVertexDeclaration gave %p", (void *)got_decl);
    IDirect3DVertexDeclaration9_Release(got_decl);
    DEV_HR(D3D_OK, SetIndices, NULL);
    DEV_HR(D3DERR_INVALIDCALL, DrawIndexedPrimitive, D3DPT_TRIANGLELIST, 0, 0, 3, 0, 1);
    DEV_HR(D3D_OK, DrawPrimitiveUP, D3DPT_TRIANGLELIST, 1, triangle, 12);
    DEV_HR(D3D_OK, DrawIndexedPrimitiveUP, D3DPT_TRIANGLELIST, 0, 3, 1, indices,
            D3DFMT_INDEX16, triangle, 12);
    DEV_HR(D3DERR_INVALIDCALL, ProcessVertices, 0, 0, 3, NULL, NULL, 0);
    DEV_HR(D3D_OK, SetFVF, 0); /* no FVF: accepted, nothing changes */
    DEV_HR(D3D_OK, GetFVF, &fvf);
    CHECK_EQ(fvf, D3DFVF_XYZ); /* a lone FLOAT3 POSITION maps back to D3DFVF_XYZ */
    DEV_HR(D3D_OK, SetFVF, D3DFVF_XYZRHW);
    DEV_HR(D3D_OK, GetFVF, &fvf);
    CHECK_EQ(fvf, D3DFVF_XYZRHW);
    DEV_HR(D3D_OK, SetVertexDeclaration, decl);

    DEV_HR(D3DERR_INVALIDCALL, CreateVertexShader, bad_code, &bad_vs);
    DEV_HR(D3D_OK, CreateVertexShader, vs_code, &vs);
    DEV_HR(D3D_OK, SetVertexShader, vs);
    DEV_HR(D3D_OK, GetVertexShader, &got_vs);
    CHECK(got_vs == vs, "GetVertexShader gave %p", (void *)got_vs);
    IDirect3DVertexShader9_Release(got_vs);
    DEV_HR(D3DERR_INVALIDCALL, SetVertexShaderConstantF, 255, f, 2);
    DEV_HR(D3D_OK, SetVertexShaderConstantF, 254, f, 2);
    DEV_HR(D3DERR_INVALIDCALL, GetVertexShaderConstantF, 255, got_f, 2);
    DEV_HR(D3D_OK, GetVertexShaderConstantF, 255, got_f, 1);
    CHECK(!memcmp(got_f, f + 4, sizeof(got_f)), "vertex c255 is not {5, 6, 7, 8}");
    DEV_HR(D3DERR_INVALIDCALL, SetVertexShaderConstantI, 16, i4, 1);
    DEV_HR(D3D_OK, SetVertexShaderConstantI, 15, i4, 1);
    DEV_HR(D3DERR_INVALIDCALL, GetVertexShaderConstantI, 16, got_i, 1);
    DEV_HR(D3D_OK, GetVertexShaderConstantI, 15, got_i, 1);
    CHECK(!memcmp(got_i, i4, sizeof(i4)), "vertex i15 differs");
    DEV_HR(D3DERR_INVALIDCALL, SetVertexShaderConstantB, 16, &b, 1);
    DEV_HR(D3D_OK, SetVertexShaderConstantB, 15, &b, 1);
    DEV_HR(D3DERR_INVALIDCALL, GetVertexShaderConstantB, 16, &got_b, 1);
    DEV_HR(D3D_OK, GetVertexShaderConstantB, 15, &got_b, 1);
    CHECK_EQ(got_b, TRUE);

    DEV_HR(D3DERR_INVALIDCALL, SetStreamSource, 16, vb, 0, 12);
    DEV_HR(D3D_OK, SetStreamSource, 0, vb, 0, 12);
    DEV_HR(D3DERR_INVALIDCALL, GetStreamSource, 0, NULL, &offset, &stride);
    DEV_HR(D3DERR_INVALIDCALL, GetStreamSource, 16, &got_vb, &offset, &stride);
    DEV_HR(D3D_OK, GetStreamSource, 0, &got_vb, &offset, &stride);
    CHECK(got_vb == vb && offset == 0 && stride == 12, "stream 0 is %p +%u /%u",
            (void *)got_vb, offset, stride);
    IDirect3DVertexBuffer9_Release(got_vb);
    DEV_HR(D3DERR_INVALIDCALL, SetStreamSourceFreq, 16, 1);
    DEV_HR(D3DERR_INVALIDCALL, SetStreamSourceFreq, 0, 0);
    DEV_HR(D3DERR_INVALIDCALL, SetStreamSourceFreq, 1,
            D3DSTREAMSOURCE_INDEXEDDATA | D3DSTREAMSOURCE_INSTANCEDATA | 1);
    DEV_HR(D3D_OK, SetStreamSourceFreq, 0, D3DSTREAMSOURCE_INDEXEDDATA | 2);
    DEV_HR(D3D_OK, GetStreamSourceFreq, 0, &freq);
    CHECK_EQ(freq, D3DSTREAMSOURCE_INDEXEDDATA | 2);
    DEV_HR(D3D_OK, SetStreamSourceFreq, 0, 1);
    DEV_HR(D3D_OK, SetIndices, ib);
    DEV_HR(D3DERR_INVALIDCALL, GetIndices, NULL);
    DEV_HR(D3D_OK, GetIndices, &got_ib);
    CHECK(got_ib == ib, "GetIndices gave %p", (void *)got_ib);
    IDirect3DIndexBuffer9_Release(got_ib);
    DEV_HR(D3D_OK, DrawPrimitive, D3DPT_TRIANGLELIST, 0, 1);
    DEV_HR(D3D_OK, DrawIndexedPrimitive, D3DPT_TRIANGLELIST, 0, 0, 3, 0, 1);
    DEV_HR(D3DERR_INVALIDCALL, DrawPrimitive, 0, 0, 1); /* no primitive type 0 */
    CHECK(caps.MaxPrimitiveCount >= 0xffff, "MaxPrimitiveCount %#x",
            (unsigned int)caps.MaxPrimitiveCount);
    DEV_HR(D3DERR_INVALIDCALL, DrawPrimitive, D3DPT_TRIANGLEFAN, 0, caps.MaxPrimitiveCount + 1);
    DEV_HR(D3DERR_INVALIDCALL, DrawPrimitiveUP, D3DPT_TRIANGLELIST, caps.MaxPrimitiveCount + 1,
            triangle, 12); /* refused before reading */

    DEV_HR(D3DERR_INVALIDCALL, CreatePixelShader, bad_code, &bad_ps);
    DEV_HR(D3D_OK, CreatePixelShader, ps_code, &ps);
    DEV_HR(D3D_OK, SetPixelShader, ps);
    DEV_HR(D3DERR_INVALIDCALL, GetPixelShader, NULL);
    DEV_HR(D3D_OK, GetPixelShader, &got_ps);
    CHECK(got_ps == ps, "GetPixelShader gave %p", (void *)got_ps);
    IDirect3DPixelShader9_Release(got_ps);
    DEV_HR(D3DERR_INVALIDCALL, SetPixelShaderConstantF, 224, f, 1);
    DEV_HR(D3D_OK, SetPixelShaderConstantF, 222, f, 2);
    DEV_HR(D3DERR_INVALIDCALL, GetPixelShaderConstantF, 223, got_f, 2);
    DEV_HR(D3D_OK, GetPixelShaderConstantF, 223, got_f, 1);
    CHECK(!memcmp(got_f, f + 4, sizeof(got_f)), "pixel c223 is not {5, 6, 7, 8}");
    DEV_HR(D3DERR_INVALIDCALL, SetPixelShaderConstantI, 16, i4, 1);
    DEV_HR(D3D_OK, SetPixelShaderConstantI, 0, i4, 1);
    DEV_HR(D3DERR_INVALIDCALL, GetPixelShaderConstantI, 16, got_i, 1);
    DEV_HR(D3D_OK, GetPixelShaderConstantI, 0, got_i, 1);
    CHECK(!memcmp(got_i, i4, sizeof(i4)), "pixel i0 differs");
    DEV_HR(D3DERR_INVALIDCALL, SetPixelShaderConstantB, 16, &b, 1);
    DEV_HR(D3D_OK, SetPixelShaderConstantB, 0, &b, 1);
    DEV_HR(D3DERR_INVALIDCALL, GetPixelShaderConstantB, 16, &got_b, 1);
    got_b = FALSE;
    DEV_HR(D3D_OK, GetPixelShaderConstantB, 0, &got_b, 1);
    CHECK_EQ(got_b, TRUE);

    /* No D3DDEVCAPS_RTPATCHES / NPATCHES (checked above): no patch is drawn or cached. */
    DEV_HR(D3DERR_INVALIDCALL, DrawRectPatch, 0, NULL, NULL);
    DEV_HR(D3DERR_INVALIDCALL, DrawTriPatch, 0, NULL, NULL);
    DEV_HR(D3DERR_INVALIDCALL, DeletePatch, 0);
    DEV_HR(D3D_OK, EndScene);
    DEV_HR(D3D_OK, CreateQuery, D3DQUERYTYPE_EVENT, NULL);
    DEV_HR(D3DERR_NOTAVAILABLE, CreateQuery, D3DQUERYTYPE_VCACHE, NULL);
    printf("ok\n");
}

int main(void)
{
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    unsigned int i;

    CHECK(d3d != NULL, "Direct3DCreate9 returned NULL");
    CHECK_EQ(SLOTS, 119);
    device = create_device(d3d, D3DCREATE_HARDWARE_VERTEXPROCESSING, 64, 64);
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 32, 32, D3DFMT_A8R8G8B8,
            D3DPOOL_SYSTEMMEM, &sys_surface, NULL), D3D_OK);

    device_slots(d3d);
    resource_slots();
    state_slots();
    draw_slots();

    for (i = 0; i < SLOTS; ++i)
        CHECK(reached[i], "slot %u was never called", i);
    printf("ok: all %u slots reached and answering\n", (unsigned int)SLOTS);

    /* Unbind and release everything. */
    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, NULL, 0, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetIndices(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetPixelShader(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetTexture(device, D3DVERTEXTEXTURESAMPLER0, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetDepthStencilSurface(device, NULL), D3D_OK);
    CHECK_EQ(IDirect3DTexture9_Release(sys_texture), 0);
    CHECK_EQ(IDirect3DTexture9_Release(managed_texture), 0);
    CHECK_EQ(IDirect3DTexture9_Release(default_texture), 0);
    CHECK_EQ(IDirect3DVolumeTexture9_Release(volume_texture), 0);
    CHECK_EQ(IDirect3DCubeTexture9_Release(cube_texture), 0);
    CHECK_EQ(IDirect3DVertexBuffer9_Release(vb), 0);
    CHECK_EQ(IDirect3DIndexBuffer9_Release(ib), 0);
    CHECK_EQ(IDirect3DSurface9_Release(rt), 0);
    CHECK_EQ(IDirect3DSurface9_Release(rt2), 0);
    CHECK_EQ(IDirect3DSurface9_Release(ds), 0);
    CHECK_EQ(IDirect3DSurface9_Release(sys_surface), 0);
    CHECK_EQ(IDirect3DSurface9_Release(sys_surface_x8), 0);
    CHECK_EQ(IDirect3DVertexShader9_Release(vs), 0);
    CHECK_EQ(IDirect3DPixelShader9_Release(ps), 0);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(decl), 0);
    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    return finish("device_vtable");
}
