/* The reference counts and QueryInterface answers Windows shows (Wine's test_refcount and
 * test_fvf_decl_management, which pass on Windows), through the C ABI:
 *  - creating a resource adds a reference to the device (AddRef/Release answers);
 *  - binding an object with Set* keeps it alive without changing its public count:
 *    SetTexture then Release gives 0, yet GetTexture returns the object, with count 1;
 *  - every Get* that returns an interface adds one reference;
 *  - surfaces (and volumes) of a texture share the texture's count, and a level bound as a
 *    render target keeps its texture alive;
 *  - the device's implicit objects (swap chain, back buffer, depth-stencil surface) start at
 *    0, hold a device reference while counted, and are not freed at 0;
 *  - QueryInterface answers IUnknown, the interface's IID and its bases, E_NOINTERFACE
 *    (and NULL) otherwise;
 *  - an object is freed with its last reference: D3D9NativeLiveObjects() counts back to 0,
 *    the device's and IDirect3D9's final Release return 0; the device may go before its
 *    children, the last of which takes it along. */
#include "d3d9_check.h"

static ULONG device_refs;

/* The device's public count is `device_refs`. */
#define CHECK_DEVICE(device) CHECK_EQ(refcount(device), device_refs)

/* QueryInterface(iid) gives `object` itself with one more reference on `counted` (the object,
 * or the texture a level counts on). */
#define CHECK_QI(object, iid, counted)                                               \
    do                                                                               \
    {                                                                                \
        void *out_ = NULL;                                                           \
        ULONG before_ = refcount(counted);                                           \
        CHECK_HR(IUnknown_QueryInterface((IUnknown *)(object), &(iid), &out_), S_OK); \
        CHECK(out_ == (void *)(object), "QueryInterface(" #iid ") gave %p", out_);   \
        CHECK_EQ(refcount(counted), before_ + 1);                                    \
        IUnknown_Release((IUnknown *)out_);                                          \
        CHECK_EQ(refcount(counted), before_);                                        \
    } while (0)

/* QueryInterface(iid) is E_NOINTERFACE and writes NULL. */
#define CHECK_NO_QI(object, iid)                                                     \
    do                                                                               \
    {                                                                                \
        void *out_ = (void *)0xdeadbeef;                                             \
        CHECK_HR(IUnknown_QueryInterface((IUnknown *)(object), &(iid), &out_),        \
                E_NOINTERFACE);                                                      \
        CHECK(out_ == NULL, "QueryInterface(" #iid ") left %p", out_);               \
    } while (0)

static const DWORD vs_code[] = {0xfffe0200, 0x0200001f, 0x80000000, 0x900f0000,
    0x02000001, 0xc00f0000, 0x90e40000, 0x0000ffff};
static const DWORD ps_code[] = {0xffff0200, 0x02000001, 0x800f0800, 0xa0e40000, 0x0000ffff};
static const D3DVERTEXELEMENT9 elements[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    D3DDECL_END(),
};

/* Rules: the implicit swap chain, back buffer and depth-stencil surface start at 0, count a
 * device reference while the application holds them, and survive 0; GetRenderTarget and
 * GetBackBuffer give the same surface; GetContainer answers the swap chain / the device. */
static void implicit_objects(IDirect3DDevice9 *device)
{
    IDirect3DSwapChain9 *chain = NULL;
    IDirect3DSurface9 *target = NULL, *back = NULL, *depth = NULL;
    void *container = NULL;

    section("implicit swap chain, back buffer, depth-stencil surface");
    CHECK_HR(IDirect3DDevice9_GetSwapChain(device, 0, &chain), D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_EQ(refcount(chain), 1);
    CHECK_HR(IDirect3DDevice9_GetRenderTarget(device, 0, &target), D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_EQ(refcount(target), 1);
    CHECK_EQ(refcount(chain), 1); /* not forwarded to the container */
    CHECK_HR(IDirect3DDevice9_GetBackBuffer(device, 0, 0, D3DBACKBUFFER_TYPE_MONO, &back),
            D3D_OK);
    CHECK(back == target, "GetBackBuffer %p and GetRenderTarget %p differ", (void *)back,
            (void *)target);
    CHECK_EQ(refcount(target), 2);
    CHECK_DEVICE(device);
    CHECK_HR(IDirect3DSurface9_GetContainer(target, &IID_IDirect3DSwapChain9, &container),
            D3D_OK);
    CHECK(container == (void *)chain, "the back buffer's container is %p", container);
    CHECK_EQ(refcount(chain), 2);
    CHECK_EQ(IUnknown_Release((IUnknown *)container), 1);
    CHECK_EQ(IDirect3DSurface9_Release(back), 1);
    CHECK_EQ(IDirect3DSurface9_Release(target), 0);
    --device_refs;
    CHECK_DEVICE(device);
    /* Held by the device at 0: AddRef brings it back, with its device reference. */
    CHECK_EQ(IDirect3DSurface9_AddRef(target), 1);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_EQ(IDirect3DSurface9_Release(target), 0);
    --device_refs;

    CHECK_HR(IDirect3DDevice9_GetDepthStencilSurface(device, &depth), D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_EQ(refcount(depth), 1);
    CHECK_HR(IDirect3DSurface9_GetContainer(depth, &IID_IDirect3DDevice9, &container), D3D_OK);
    CHECK(container == (void *)device, "the depth surface's container is %p", container);
    ++device_refs;
    CHECK_DEVICE(device);
    IUnknown_Release((IUnknown *)container);
    --device_refs;
    CHECK_EQ(IDirect3DSurface9_Release(depth), 0);
    --device_refs;
    CHECK_EQ(IDirect3DSwapChain9_Release(chain), 0);
    --device_refs;
    CHECK_DEVICE(device);
    printf("ok\n");
}

/* Rules: each Create* adds a device reference; Set* does not change the public count, and
 * a bound object outlives its last public reference; every Get* adds one. */
static void resources_and_bindings(IDirect3DDevice9 *device)
{
    IDirect3DVertexBuffer9 *vb = NULL, *got_vb = NULL;
    IDirect3DIndexBuffer9 *ib = NULL, *got_ib = NULL;
    IDirect3DVertexDeclaration9 *decl = NULL, *got_decl = NULL;
    IDirect3DVertexShader9 *vs = NULL, *got_vs = NULL;
    IDirect3DPixelShader9 *ps = NULL, *got_ps = NULL;
    IDirect3DTexture9 *texture = NULL;
    IDirect3DBaseTexture9 *got_texture = NULL;
    IDirect3DSurface9 *rt = NULL, *got_rt = NULL;
    IDirect3DStateBlock9 *block = NULL;
    IDirect3DQuery9 *query = NULL;
    IDirect3DDevice9 *got_device = NULL;
    UINT offset, stride, live;

    section("Create* add a device reference; Set* keeps objects alive; Get* add one");
    CHECK_HR(IDirect3DDevice9_CreateVertexBuffer(device, 64, 0, 0, D3DPOOL_DEFAULT, &vb, NULL),
            D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_HR(IDirect3DDevice9_CreateIndexBuffer(device, 64, 0, D3DFMT_INDEX16,
            D3DPOOL_DEFAULT, &ib, NULL), D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_HR(IDirect3DDevice9_CreateVertexDeclaration(device, elements, &decl), D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_HR(IDirect3DDevice9_CreateVertexShader(device, vs_code, &vs), D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_HR(IDirect3DDevice9_CreatePixelShader(device, ps_code, &ps), D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_HR(IDirect3DDevice9_CreateTexture(device, 8, 8, 2, 0, D3DFMT_A8R8G8B8,
            D3DPOOL_MANAGED, &texture, NULL), D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_HR(IDirect3DDevice9_CreateRenderTarget(device, 8, 8, D3DFMT_A8R8G8B8,
            D3DMULTISAMPLE_NONE, 0, TRUE, &rt, NULL), D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_HR(IDirect3DDevice9_CreateStateBlock(device, D3DSBT_ALL, &block), D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_EVENT, &query), D3D_OK);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_EQ(refcount(vb), 1);
    CHECK_EQ(refcount(texture), 1);

    /* Binding changes no public count. */
    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, vb, 0, 12), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetIndices(device, ib), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, decl), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetPixelShader(device, ps), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, (IDirect3DBaseTexture9 *)texture), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderTarget(device, 1, rt), D3D_OK);
    CHECK_EQ(refcount(vb), 1);
    CHECK_EQ(refcount(ib), 1);
    CHECK_EQ(refcount(decl), 1);
    CHECK_EQ(refcount(vs), 1);
    CHECK_EQ(refcount(ps), 1);
    CHECK_EQ(refcount(texture), 1);
    CHECK_EQ(refcount(rt), 1);
    CHECK_DEVICE(device);

    /* Each Get* adds one. */
    CHECK_HR(IDirect3DDevice9_GetStreamSource(device, 0, &got_vb, &offset, &stride), D3D_OK);
    CHECK(got_vb == vb, "GetStreamSource gave %p", (void *)got_vb);
    CHECK_EQ(refcount(vb), 2);
    CHECK_HR(IDirect3DDevice9_GetIndices(device, &got_ib), D3D_OK);
    CHECK(got_ib == ib, "GetIndices gave %p", (void *)got_ib);
    CHECK_EQ(refcount(ib), 2);
    CHECK_HR(IDirect3DDevice9_GetVertexDeclaration(device, &got_decl), D3D_OK);
    CHECK(got_decl == decl, "GetVertexDeclaration gave %p", (void *)got_decl);
    CHECK_EQ(refcount(decl), 2);
    CHECK_HR(IDirect3DDevice9_GetVertexShader(device, &got_vs), D3D_OK);
    CHECK(got_vs == vs, "GetVertexShader gave %p", (void *)got_vs);
    CHECK_EQ(refcount(vs), 2);
    CHECK_HR(IDirect3DDevice9_GetPixelShader(device, &got_ps), D3D_OK);
    CHECK(got_ps == ps, "GetPixelShader gave %p", (void *)got_ps);
    CHECK_EQ(refcount(ps), 2);
    CHECK_HR(IDirect3DDevice9_GetRenderTarget(device, 1, &got_rt), D3D_OK);
    CHECK(got_rt == rt, "GetRenderTarget(1) gave %p", (void *)got_rt);
    CHECK_EQ(refcount(rt), 2);
    CHECK_HR(IDirect3DVertexBuffer9_GetDevice(vb, &got_device), D3D_OK);
    CHECK(got_device == device, "GetDevice gave %p", (void *)got_device);
    ++device_refs;
    CHECK_DEVICE(device);
    CHECK_EQ(IDirect3DDevice9_Release(got_device), device_refs - 1);
    --device_refs;
    CHECK_EQ(IDirect3DVertexBuffer9_Release(got_vb), 1);
    CHECK_EQ(IDirect3DIndexBuffer9_Release(got_ib), 1);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(got_decl), 1);
    CHECK_EQ(IDirect3DVertexShader9_Release(got_vs), 1);
    CHECK_EQ(IDirect3DPixelShader9_Release(got_ps), 1);
    CHECK_EQ(IDirect3DSurface9_Release(got_rt), 1);

    /* SetTexture, then Release: 0, yet bound; GetTexture gives it back with count 1, and
     * the device reference comes back with it. */
    live = D3D9NativeLiveObjects();
    CHECK_EQ(IDirect3DTexture9_Release(texture), 0);
    --device_refs;
    CHECK_DEVICE(device);
    CHECK_EQ(D3D9NativeLiveObjects(), live);
    CHECK_HR(IDirect3DDevice9_GetTexture(device, 0, &got_texture), D3D_OK);
    CHECK(got_texture == (IDirect3DBaseTexture9 *)texture, "GetTexture gave %p",
            (void *)got_texture);
    ++device_refs;
    CHECK_EQ(refcount(texture), 1);
    CHECK_DEVICE(device);
    printf("ok: a released bound texture lives on with count 0 and comes back with 1\n");

    /* Unbinding the last holder frees it. */
    CHECK_EQ(IDirect3DTexture9_Release(texture), 0);
    --device_refs;
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, NULL), D3D_OK);
    CHECK_EQ(D3D9NativeLiveObjects(), live - 1);
    CHECK_DEVICE(device);

    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, NULL, 0, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetIndices(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetPixelShader(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderTarget(device, 1, NULL), D3D_OK);
    CHECK_EQ(IDirect3DVertexBuffer9_Release(vb), 0);
    CHECK_EQ(IDirect3DIndexBuffer9_Release(ib), 0);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(decl), 0);
    CHECK_EQ(IDirect3DVertexShader9_Release(vs), 0);
    CHECK_EQ(IDirect3DPixelShader9_Release(ps), 0);
    CHECK_EQ(IDirect3DSurface9_Release(rt), 0);
    CHECK_EQ(IDirect3DStateBlock9_Release(block), 0);
    CHECK_EQ(IDirect3DQuery9_Release(query), 0);
    device_refs -= 8;
    CHECK_DEVICE(device);
    printf("ok\n");
}

/* Rules: a texture's levels count on the texture (GetSurfaceLevel, AddRef on the level,
 * GetContainer, GetVolumeLevel), never on the device. */
static void texture_levels(IDirect3DDevice9 *device)
{
    IDirect3DTexture9 *texture = NULL;
    IDirect3DVolumeTexture9 *volume_texture = NULL;
    IDirect3DSurface9 *level = NULL, *got = NULL;
    IDirect3DVolume9 *volume = NULL;
    D3DSURFACE_DESC desc;
    void *container = NULL;
    UINT live;

    section("levels share their texture's count");
    CHECK_HR(IDirect3DDevice9_CreateTexture(device, 8, 8, 2, 0, D3DFMT_A8R8G8B8,
            D3DPOOL_MANAGED, &texture, NULL), D3D_OK);
    ++device_refs;
    CHECK_HR(IDirect3DTexture9_GetSurfaceLevel(texture, 1, &level), D3D_OK);
    CHECK_DEVICE(device);
    CHECK_EQ(refcount(texture), 2);
    CHECK_EQ(refcount(level), 2);
    CHECK_EQ(IDirect3DSurface9_AddRef(level), 3);
    CHECK_EQ(refcount(texture), 3);
    CHECK_EQ(IDirect3DSurface9_Release(level), 2);
    CHECK_HR(IDirect3DSurface9_GetContainer(level, &IID_IDirect3DTexture9, &container), D3D_OK);
    CHECK(container == (void *)texture, "the level's container is %p", container);
    CHECK_EQ(refcount(texture), 3);
    IUnknown_Release((IUnknown *)container);
    CHECK_NO_QI(level, IID_IDirect3DTexture9);
    CHECK_QI(level, IID_IDirect3DSurface9, texture);
    CHECK_QI(level, IID_IDirect3DResource9, texture);
    CHECK_QI(level, IID_IUnknown, texture);
    CHECK_EQ(IDirect3DTexture9_Release(texture), 1);
    CHECK_EQ(refcount(level), 1);
    CHECK_DEVICE(device);
    CHECK_EQ(IDirect3DSurface9_Release(level), 0); /* the texture's last reference */
    --device_refs;
    CHECK_DEVICE(device);

    CHECK_HR(IDirect3DDevice9_CreateVolumeTexture(device, 4, 4, 4, 1, 0, D3DFMT_A8R8G8B8,
            D3DPOOL_MANAGED, &volume_texture, NULL), D3D_OK);
    ++device_refs;
    CHECK_HR(IDirect3DVolumeTexture9_GetVolumeLevel(volume_texture, 0, &volume), D3D_OK);
    CHECK_DEVICE(device);
    CHECK_EQ(refcount(volume_texture), 2);
    CHECK_EQ(IDirect3DVolume9_AddRef(volume), 3);
    CHECK_EQ(IDirect3DVolume9_Release(volume), 2);
    CHECK_QI(volume, IID_IDirect3DVolume9, volume_texture);
    CHECK_NO_QI(volume, IID_IDirect3DResource9);
    CHECK_HR(IDirect3DVolume9_GetContainer(volume, &IID_IDirect3DVolumeTexture9, &container),
            D3D_OK);
    CHECK(container == (void *)volume_texture, "the volume's container is %p", container);
    IUnknown_Release((IUnknown *)container);
    CHECK_EQ(IDirect3DVolume9_Release(volume), 1);
    CHECK_EQ(IDirect3DVolumeTexture9_Release(volume_texture), 0);
    --device_refs;
    CHECK_DEVICE(device);

    /* A level bound as a render target keeps its texture alive past the last Release. */
    CHECK_HR(IDirect3DDevice9_CreateTexture(device, 8, 8, 1, D3DUSAGE_RENDERTARGET,
            D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &texture, NULL), D3D_OK);
    ++device_refs;
    CHECK_HR(IDirect3DTexture9_GetSurfaceLevel(texture, 0, &level), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderTarget(device, 1, level), D3D_OK);
    live = D3D9NativeLiveObjects();
    CHECK_EQ(IDirect3DSurface9_Release(level), 1);
    CHECK_EQ(IDirect3DTexture9_Release(texture), 0);
    --device_refs;
    CHECK_DEVICE(device);
    CHECK_EQ(D3D9NativeLiveObjects(), live);
    CHECK_HR(IDirect3DDevice9_GetRenderTarget(device, 1, &got), D3D_OK);
    CHECK(got == level, "GetRenderTarget(1) gave %p, not the level %p", (void *)got,
            (void *)level);
    ++device_refs;
    CHECK_EQ(refcount(texture), 1);
    CHECK_HR(IDirect3DSurface9_GetDesc(got, &desc), D3D_OK);
    CHECK_EQ(desc.Usage, D3DUSAGE_RENDERTARGET);
    CHECK_EQ(IDirect3DSurface9_Release(got), 0);
    --device_refs;
    CHECK_HR(IDirect3DDevice9_SetRenderTarget(device, 1, NULL), D3D_OK);
    CHECK_EQ(D3D9NativeLiveObjects(), live - 2); /* the texture and its level */
    CHECK_DEVICE(device);
    printf("ok\n");
}

/* Rule: QueryInterface answers IUnknown, the object's interface and its bases, and
 * E_NOINTERFACE (writing NULL) for anything else. */
static void query_interfaces(IDirect3D9 *d3d, IDirect3DDevice9 *device)
{
    IDirect3DCubeTexture9 *cube = NULL;
    IDirect3DTexture9 *texture = NULL;
    IDirect3DVertexBuffer9 *vb = NULL;
    IDirect3DIndexBuffer9 *ib = NULL;
    IDirect3DSurface9 *surface = NULL;
    IDirect3DVertexShader9 *vs = NULL;
    IDirect3DPixelShader9 *ps = NULL;
    IDirect3DVertexDeclaration9 *decl = NULL;
    IDirect3DStateBlock9 *block = NULL;
    IDirect3DQuery9 *query = NULL;
    IDirect3DSwapChain9 *chain = NULL;

    section("QueryInterface");
    CHECK_QI(d3d, IID_IUnknown, d3d);
    CHECK_QI(d3d, IID_IDirect3D9, d3d);
    CHECK_NO_QI(d3d, IID_IDirect3DDevice9);
    CHECK_NO_QI(d3d, IID_IDirect3D9Ex);
    CHECK_QI(device, IID_IUnknown, device);
    CHECK_QI(device, IID_IDirect3DDevice9, device);
    CHECK_NO_QI(device, IID_IDirect3D9);
    CHECK_NO_QI(device, IID_IDirect3DDevice9Ex);

    CHECK_HR(IDirect3DDevice9_CreateTexture(device, 4, 4, 1, 0, D3DFMT_A8R8G8B8,
            D3DPOOL_MANAGED, &texture, NULL), D3D_OK);
    CHECK_QI(texture, IID_IUnknown, texture);
    CHECK_QI(texture, IID_IDirect3DTexture9, texture);
    CHECK_QI(texture, IID_IDirect3DBaseTexture9, texture);
    CHECK_QI(texture, IID_IDirect3DResource9, texture);
    CHECK_NO_QI(texture, IID_IDirect3DCubeTexture9);
    CHECK_NO_QI(texture, IID_IDirect3DSurface9);
    CHECK_HR(IDirect3DDevice9_CreateCubeTexture(device, 4, 1, 0, D3DFMT_A8R8G8B8,
            D3DPOOL_MANAGED, &cube, NULL), D3D_OK);
    CHECK_QI(cube, IID_IDirect3DCubeTexture9, cube);
    CHECK_QI(cube, IID_IDirect3DBaseTexture9, cube);
    CHECK_QI(cube, IID_IDirect3DResource9, cube);
    CHECK_NO_QI(cube, IID_IDirect3DTexture9);
    CHECK_NO_QI(cube, IID_IDirect3DVolumeTexture9);
    CHECK_HR(IDirect3DDevice9_CreateVertexBuffer(device, 16, 0, 0, D3DPOOL_MANAGED, &vb, NULL),
            D3D_OK);
    CHECK_QI(vb, IID_IDirect3DVertexBuffer9, vb);
    CHECK_QI(vb, IID_IDirect3DResource9, vb);
    CHECK_NO_QI(vb, IID_IDirect3DIndexBuffer9);
    CHECK_HR(IDirect3DDevice9_CreateIndexBuffer(device, 16, 0, D3DFMT_INDEX16, D3DPOOL_MANAGED,
            &ib, NULL), D3D_OK);
    CHECK_QI(ib, IID_IDirect3DIndexBuffer9, ib);
    CHECK_QI(ib, IID_IDirect3DResource9, ib);
    CHECK_NO_QI(ib, IID_IDirect3DVertexBuffer9);
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, 4, 4, D3DFMT_A8R8G8B8,
            D3DPOOL_SYSTEMMEM, &surface, NULL), D3D_OK);
    CHECK_QI(surface, IID_IDirect3DSurface9, surface);
    CHECK_QI(surface, IID_IDirect3DResource9, surface);
    CHECK_NO_QI(surface, IID_IDirect3DTexture9);
    CHECK_NO_QI(surface, IID_IDirect3DVolume9);
    CHECK_HR(IDirect3DDevice9_CreateVertexShader(device, vs_code, &vs), D3D_OK);
    CHECK_QI(vs, IID_IDirect3DVertexShader9, vs);
    CHECK_NO_QI(vs, IID_IDirect3DPixelShader9);
    CHECK_NO_QI(vs, IID_IDirect3DResource9);
    CHECK_HR(IDirect3DDevice9_CreatePixelShader(device, ps_code, &ps), D3D_OK);
    CHECK_QI(ps, IID_IDirect3DPixelShader9, ps);
    CHECK_NO_QI(ps, IID_IDirect3DVertexShader9);
    CHECK_HR(IDirect3DDevice9_CreateVertexDeclaration(device, elements, &decl), D3D_OK);
    CHECK_QI(decl, IID_IDirect3DVertexDeclaration9, decl);
    CHECK_NO_QI(decl, IID_IDirect3DResource9);
    CHECK_HR(IDirect3DDevice9_CreateStateBlock(device, D3DSBT_PIXELSTATE, &block), D3D_OK);
    CHECK_QI(block, IID_IDirect3DStateBlock9, block);
    CHECK_NO_QI(block, IID_IDirect3DQuery9);
    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_EVENT, &query), D3D_OK);
    CHECK_QI(query, IID_IDirect3DQuery9, query);
    CHECK_NO_QI(query, IID_IDirect3DStateBlock9);
    CHECK_HR(IDirect3DDevice9_GetSwapChain(device, 0, &chain), D3D_OK);
    CHECK_QI(chain, IID_IDirect3DSwapChain9, chain);
    CHECK_NO_QI(chain, IID_IDirect3DSwapChain9Ex);
    CHECK_NO_QI(chain, IID_IDirect3DResource9);

    CHECK_EQ(IDirect3DSwapChain9_Release(chain), 0);
    CHECK_EQ(IDirect3DQuery9_Release(query), 0);
    CHECK_EQ(IDirect3DStateBlock9_Release(block), 0);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(decl), 0);
    CHECK_EQ(IDirect3DPixelShader9_Release(ps), 0);
    CHECK_EQ(IDirect3DVertexShader9_Release(vs), 0);
    CHECK_EQ(IDirect3DSurface9_Release(surface), 0);
    CHECK_EQ(IDirect3DIndexBuffer9_Release(ib), 0);
    CHECK_EQ(IDirect3DVertexBuffer9_Release(vb), 0);
    CHECK_EQ(IDirect3DCubeTexture9_Release(cube), 0);
    CHECK_EQ(IDirect3DTexture9_Release(texture), 0);
    CHECK_DEVICE(device);
    printf("ok\n");
}

/* Rule: an application may release the device before its children (Wine's test_refcount
 * does): each child holds the device, and the last child's Release destroys the device,
 * whose bindings then free what only they held, the releasing child included. */
static void device_released_first(IDirect3D9 *d3d)
{
    IDirect3DDevice9 *dev = create_device(d3d, D3DCREATE_HARDWARE_VERTEXPROCESSING, 16, 16);
    IDirect3DSwapChain9 *chain = NULL;
    IDirect3DSurface9 *back = NULL;
    IDirect3DTexture9 *texture = NULL;
    unsigned int before_device = D3D9NativeLiveObjects() - 3; /* device, chain, back buffer */

    section("the device released before its children");
    CHECK_HR(IDirect3DDevice9_GetSwapChain(dev, 0, &chain), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetBackBuffer(dev, 0, 0, D3DBACKBUFFER_TYPE_MONO, &back), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateTexture(dev, 4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED,
            &texture, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetTexture(dev, 0, (IDirect3DBaseTexture9 *)texture), D3D_OK);
    CHECK_EQ(IDirect3DDevice9_Release(dev), 3); /* the chain, the back buffer, the texture */
    CHECK_EQ(IDirect3DSurface9_Release(back), 0);
    CHECK_EQ(IDirect3DSwapChain9_Release(chain), 0);
    CHECK_EQ(refcount(texture), 1);
    CHECK(D3D9NativeLiveObjects() > before_device, "the device went with a child left");
    /* The texture's Release gives up the device, whose destruction unbinds the texture. */
    CHECK_EQ(IDirect3DTexture9_Release(texture), 0);
    CHECK_EQ(D3D9NativeLiveObjects(), before_device);
    printf("ok\n");
}

int main(void)
{
    D3DPRESENT_PARAMETERS pp;
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION), *got_d3d = NULL;
    IDirect3DDevice9 *device = NULL;

    CHECK(d3d != NULL, "Direct3DCreate9 returned NULL");
    CHECK_EQ(refcount(d3d), 1);
    memset(&pp, 0, sizeof(pp));
    pp.BackBufferWidth = 32;
    pp.BackBufferHeight = 32;
    pp.BackBufferFormat = D3DFMT_X8R8G8B8;
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.EnableAutoDepthStencil = TRUE;
    pp.AutoDepthStencilFormat = D3DFMT_D24S8;
    CHECK_HR(IDirect3D9_CreateDevice(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, (HWND)1,
            D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device), D3D_OK);
    device_refs = 1;
    CHECK_DEVICE(device);
    CHECK_EQ(refcount(d3d), 2); /* the device holds its IDirect3D9 */
    CHECK_HR(IDirect3DDevice9_GetDirect3D(device, &got_d3d), D3D_OK);
    CHECK(got_d3d == d3d, "GetDirect3D gave %p", (void *)got_d3d);
    CHECK_EQ(refcount(d3d), 3);
    CHECK_DEVICE(device);
    CHECK_EQ(IDirect3D9_Release(got_d3d), 2);

    implicit_objects(device);
    resources_and_bindings(device);
    texture_levels(device);
    query_interfaces(d3d, device);

    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(refcount(d3d), 1);
    device_released_first(d3d);
    CHECK_EQ(refcount(d3d), 1);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    return finish("refcounts");
}
