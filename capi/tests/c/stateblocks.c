/* State blocks through the C ABI, as D3D9 documents them:
 *  - CreateStateBlock(D3DSBT_ALL / _PIXELSTATE / _VERTEXSTATE) captures the states of its
 *    kind, Apply sets exactly those: D3DRS_ALPHABLENDENABLE, D3DTSS_COLOROP and
 *    D3DSAMP_MINFILTER and the pixel shader with its constants are pixel state;
 *    D3DRS_CULLMODE and the vertex shader with its constants vertex state;
 *    D3DTSS_TEXCOORDINDEX both; textures and stream sources belong to D3DSBT_ALL only;
 *  - Capture takes the device's current values of the states a block holds;
 *  - BeginStateBlock / EndStateBlock record exactly what was set, and while recording the
 *    device's state does not change (Get* return the old values);
 *  - the objects a state block holds stay alive: a texture recorded with SetTexture and
 *    released comes back with Apply, and GetTexture returns it. */
#include "d3d9_check.h"

static const DWORD vs_a[] = {0xfffe0200, 0x0200001f, 0x80000000, 0x900f0000,
    0x02000001, 0xc00f0000, 0x90e40000, 0x0000ffff};
static const DWORD vs_b[] = {0xfffe0200, 0x0200001f, 0x80000000, 0x900f0000,
    0x02000001, 0xc00f0000, 0x90e40000, 0x02000001, 0xd00f0000, 0xa0e40000, 0x0000ffff};
static const DWORD ps_a[] = {0xffff0200, 0x02000001, 0x800f0800, 0xa0e40000, 0x0000ffff};
static const DWORD ps_b[] = {0xffff0200, 0x02000001, 0x800f0800, 0xa0e40001, 0x0000ffff};

/* The states this program follows, one value each. */
enum field
{
    ALPHA_BLEND,  /* D3DRS_ALPHABLENDENABLE: pixel */
    CULL,         /* D3DRS_CULLMODE: vertex */
    COLOR_OP,     /* D3DTSS_COLOROP, stage 0: pixel */
    TEXCOORD_IDX, /* D3DTSS_TEXCOORDINDEX, stage 0: pixel and vertex */
    MIN_FILTER,   /* D3DSAMP_MINFILTER, sampler 0: pixel */
    VS_CONST,     /* vertex shader c5: vertex */
    PS_CONST,     /* pixel shader c3: pixel */
    VS,           /* the vertex shader: vertex */
    PS,           /* the pixel shader: pixel */
    TEXTURE,      /* texture 0: ALL only */
    STREAM,       /* stream 0 (buffer, offset, stride): ALL only */
    FIELDS
};

static const char *const field_names[FIELDS] = {"D3DRS_ALPHABLENDENABLE", "D3DRS_CULLMODE",
    "D3DTSS_COLOROP", "D3DTSS_TEXCOORDINDEX", "D3DSAMP_MINFILTER", "vertex constant c5",
    "pixel constant c3", "vertex shader", "pixel shader", "texture 0", "stream 0"};

/* Which fields a block of each kind holds. */
static const int in_all[FIELDS] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
static const int in_pixel[FIELDS] = {1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 0};
static const int in_vertex[FIELDS] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0};
static const int in_none[FIELDS] = {0};

struct state
{
    DWORD alpha_blend, cull, color_op, texcoord_index, min_filter;
    float vs_c5[4], ps_c3[4];
    IDirect3DVertexShader9 *vs;
    IDirect3DPixelShader9 *ps;
    IDirect3DTexture9 *texture;
    IDirect3DVertexBuffer9 *vb;
    UINT offset, stride;
};

static void set_state(IDirect3DDevice9 *device, const struct state *s)
{
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_ALPHABLENDENABLE, s->alpha_blend),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_CULLMODE, s->cull), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetTextureStageState(device, 0, D3DTSS_COLOROP, s->color_op),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetTextureStageState(device, 0, D3DTSS_TEXCOORDINDEX,
            s->texcoord_index), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetSamplerState(device, 0, D3DSAMP_MINFILTER, s->min_filter),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShaderConstantF(device, 5, s->vs_c5, 1), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetPixelShaderConstantF(device, 3, s->ps_c3, 1), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, s->vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetPixelShader(device, s->ps), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, (IDirect3DBaseTexture9 *)s->texture), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, s->vb, s->offset, s->stride), D3D_OK);
}

/* The device's values of the fields now (objects compared by pointer, their Get*
 * references given back). */
static struct state get_state(IDirect3DDevice9 *device)
{
    IDirect3DBaseTexture9 *texture = NULL;
    struct state s;

    memset(&s, 0, sizeof(s));
    CHECK_HR(IDirect3DDevice9_GetRenderState(device, D3DRS_ALPHABLENDENABLE, &s.alpha_blend),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetRenderState(device, D3DRS_CULLMODE, &s.cull), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetTextureStageState(device, 0, D3DTSS_COLOROP, &s.color_op),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetTextureStageState(device, 0, D3DTSS_TEXCOORDINDEX,
            &s.texcoord_index), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetSamplerState(device, 0, D3DSAMP_MINFILTER, &s.min_filter),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetVertexShaderConstantF(device, 5, s.vs_c5, 1), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetPixelShaderConstantF(device, 3, s.ps_c3, 1), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetVertexShader(device, &s.vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetPixelShader(device, &s.ps), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetTexture(device, 0, &texture), D3D_OK);
    s.texture = (IDirect3DTexture9 *)texture;
    CHECK_HR(IDirect3DDevice9_GetStreamSource(device, 0, &s.vb, &s.offset, &s.stride), D3D_OK);
    if (s.vs) IDirect3DVertexShader9_Release(s.vs);
    if (s.ps) IDirect3DPixelShader9_Release(s.ps);
    if (s.texture) IDirect3DTexture9_Release(s.texture);
    if (s.vb) IDirect3DVertexBuffer9_Release(s.vb);
    return s;
}

static int same(enum field f, const struct state *x, const struct state *y)
{
    switch (f)
    {
        case ALPHA_BLEND: return x->alpha_blend == y->alpha_blend;
        case CULL: return x->cull == y->cull;
        case COLOR_OP: return x->color_op == y->color_op;
        case TEXCOORD_IDX: return x->texcoord_index == y->texcoord_index;
        case MIN_FILTER: return x->min_filter == y->min_filter;
        case VS_CONST: return !memcmp(x->vs_c5, y->vs_c5, sizeof(x->vs_c5));
        case PS_CONST: return !memcmp(x->ps_c3, y->ps_c3, sizeof(x->ps_c3));
        case VS: return x->vs == y->vs;
        case PS: return x->ps == y->ps;
        case TEXTURE: return x->texture == y->texture;
        case STREAM:
            return x->vb == y->vb && x->offset == y->offset && x->stride == y->stride;
        default: return 0;
    }
}

/* Each field of the device equals `a`'s where `from_a` says so, else `b`'s (which must
 * differ from `a`'s, so that every check tells the two apart). */
static void expect(IDirect3DDevice9 *device, const char *what, const struct state *a,
        const struct state *b, const int *from_a)
{
    struct state got = get_state(device);
    int f;

    for (f = 0; f < FIELDS; ++f)
    {
        CHECK(!same(f, a, b), "%s: the two states agree on %s", what, field_names[f]);
        CHECK(same(f, &got, from_a[f] ? a : b), "%s: %s is not the %s value", what,
                field_names[f], from_a[f] ? "captured" : "current");
    }
    printf("ok: %s\n", what);
}

/* Rules: a block of each kind captures and applies exactly its states; Capture refreshes
 * them. */
static void block_kinds(IDirect3DDevice9 *device, const struct state *a, const struct state *b)
{
    static const struct
    {
        D3DSTATEBLOCKTYPE type;
        const char *name;
        const int *holds;
    } kinds[] = {
        {D3DSBT_ALL, "D3DSBT_ALL", in_all},
        {D3DSBT_PIXELSTATE, "D3DSBT_PIXELSTATE", in_pixel},
        {D3DSBT_VERTEXSTATE, "D3DSBT_VERTEXSTATE", in_vertex},
    };
    IDirect3DStateBlock9 *blocks[3], *invalid = (void *)0xdeadbeef;
    char what[128];
    unsigned int i;

    section("CreateStateBlock, Apply, Capture");
    set_state(device, a);
    for (i = 0; i < 3; ++i)
        CHECK_HR(IDirect3DDevice9_CreateStateBlock(device, kinds[i].type, &blocks[i]), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateStateBlock(device, 0, &invalid), D3DERR_INVALIDCALL);
    CHECK(invalid == NULL, "a refused CreateStateBlock left %p", (void *)invalid);
    for (i = 0; i < 3; ++i)
    {
        set_state(device, b);
        snprintf(what, sizeof(what), "%s applied", kinds[i].name);
        CHECK_HR(IDirect3DStateBlock9_Apply(blocks[i]), D3D_OK);
        expect(device, what, a, b, kinds[i].holds);
    }

    /* Capture at B, then Apply over A: the block's states come back as B. */
    for (i = 0; i < 3; ++i)
    {
        set_state(device, b);
        CHECK_HR(IDirect3DStateBlock9_Capture(blocks[i]), D3D_OK);
        set_state(device, a);
        CHECK_HR(IDirect3DStateBlock9_Apply(blocks[i]), D3D_OK);
        snprintf(what, sizeof(what), "%s captured again and applied", kinds[i].name);
        expect(device, what, b, a, kinds[i].holds);
    }
    for (i = 0; i < 3; ++i)
        CHECK_EQ(IDirect3DStateBlock9_Release(blocks[i]), 0);
}

/* Rules: a recorded block holds exactly what was set while recording; the device does not
 * change while recording; Capture of a recorded block refreshes only its states. */
static void recorded_block(IDirect3DDevice9 *device, const struct state *a, const struct state *b)
{
    static const int recorded[FIELDS] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0};
    IDirect3DStateBlock9 *block = NULL, *untouched = (void *)0xdeadbeef;

    section("BeginStateBlock, EndStateBlock");
    set_state(device, b);
    CHECK_HR(IDirect3DDevice9_BeginStateBlock(device), D3D_OK);
    CHECK_HR(IDirect3DDevice9_BeginStateBlock(device), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_ALPHABLENDENABLE, a->alpha_blend),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShaderConstantF(device, 5, a->vs_c5, 1), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, (IDirect3DBaseTexture9 *)a->texture), D3D_OK);
    /* Recorded, not applied: every Get* still answers B. */
    expect(device, "nothing changes while recording", a, b, in_none);
    CHECK_HR(IDirect3DDevice9_EndStateBlock(device, &block), D3D_OK);
    CHECK(block != NULL, "EndStateBlock gave no block");
    /* Not recording: refused, the out pointer untouched (Wine's stateblock.c). */
    CHECK_HR(IDirect3DDevice9_EndStateBlock(device, &untouched), D3DERR_INVALIDCALL);
    CHECK(untouched == (void *)0xdeadbeef, "a refused EndStateBlock wrote %p", (void *)untouched);
    expect(device, "nothing changes at EndStateBlock", a, b, in_none);

    CHECK_HR(IDirect3DStateBlock9_Apply(block), D3D_OK);
    expect(device, "the recorded block applies exactly what was set", a, b, recorded);

    /* Capture takes the device's values of the recorded states only. */
    set_state(device, b);
    CHECK_HR(IDirect3DStateBlock9_Capture(block), D3D_OK);
    set_state(device, a);
    CHECK_HR(IDirect3DStateBlock9_Apply(block), D3D_OK);
    expect(device, "Capture refreshed only the recorded states", b, a, recorded);
    CHECK_EQ(IDirect3DStateBlock9_Release(block), 0);
}

/* Rule: a state block keeps alive the objects it holds: released by the application and
 * unbound, a recorded texture comes back with Apply. */
static void block_keeps_objects(IDirect3DDevice9 *device)
{
    IDirect3DTexture9 *texture = NULL;
    IDirect3DBaseTexture9 *got = NULL;
    IDirect3DStateBlock9 *block = NULL;
    unsigned int live;

    section("a state block keeps its objects alive");
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateTexture(device, 4, 4, 1, 0, D3DFMT_A8R8G8B8,
            D3DPOOL_MANAGED, &texture, NULL), D3D_OK);
    live = D3D9NativeLiveObjects();
    CHECK_HR(IDirect3DDevice9_BeginStateBlock(device), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, (IDirect3DBaseTexture9 *)texture), D3D_OK);
    CHECK_HR(IDirect3DDevice9_EndStateBlock(device, &block), D3D_OK);
    CHECK_EQ(IDirect3DTexture9_Release(texture), 0);
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, NULL), D3D_OK);
    /* The block's object came with EndStateBlock; the texture is not freed. */
    CHECK_EQ(D3D9NativeLiveObjects(), live + 1);

    CHECK_HR(IDirect3DStateBlock9_Apply(block), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetTexture(device, 0, &got), D3D_OK);
    CHECK(got == (IDirect3DBaseTexture9 *)texture, "GetTexture gave %p, not the recorded %p",
            (void *)got, (void *)texture);
    CHECK_EQ(IDirect3DBaseTexture9_Release(got), 0);
    printf("ok: the released texture comes back with Apply\n");

    /* Unbound and the block released: now it is freed. */
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, NULL), D3D_OK);
    CHECK_EQ(IDirect3DStateBlock9_Release(block), 0);
    CHECK_EQ(D3D9NativeLiveObjects(), live - 1);
    printf("ok: freed with the last reference of either kind\n");
}

int main(void)
{
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    IDirect3DDevice9 *device;
    struct state a, b;

    CHECK(d3d != NULL, "Direct3DCreate9 returned NULL");
    device = create_device(d3d, D3DCREATE_HARDWARE_VERTEXPROCESSING, 64, 64);
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    a.alpha_blend = TRUE;
    b.alpha_blend = FALSE;
    a.cull = D3DCULL_NONE;
    b.cull = D3DCULL_CW;
    a.color_op = D3DTOP_SELECTARG1;
    b.color_op = D3DTOP_ADD;
    a.texcoord_index = 1;
    b.texcoord_index = 2;
    a.min_filter = D3DTEXF_LINEAR;
    b.min_filter = D3DTEXF_POINT;
    a.vs_c5[0] = 1.0f, a.vs_c5[1] = 2.0f, a.vs_c5[2] = 3.0f, a.vs_c5[3] = 4.0f;
    b.vs_c5[0] = b.vs_c5[1] = b.vs_c5[2] = b.vs_c5[3] = 9.0f;
    a.ps_c3[0] = 5.0f, a.ps_c3[1] = 6.0f, a.ps_c3[2] = 7.0f, a.ps_c3[3] = 8.0f;
    b.ps_c3[0] = b.ps_c3[1] = b.ps_c3[2] = b.ps_c3[3] = -1.0f;
    CHECK_HR(IDirect3DDevice9_CreateVertexShader(device, vs_a, &a.vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateVertexShader(device, vs_b, &b.vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreatePixelShader(device, ps_a, &a.ps), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreatePixelShader(device, ps_b, &b.ps), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateTexture(device, 4, 4, 1, 0, D3DFMT_A8R8G8B8,
            D3DPOOL_MANAGED, &a.texture, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateTexture(device, 4, 4, 1, 0, D3DFMT_A8R8G8B8,
            D3DPOOL_MANAGED, &b.texture, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateVertexBuffer(device, 64, 0, 0, D3DPOOL_MANAGED, &a.vb,
            NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateVertexBuffer(device, 64, 0, 0, D3DPOOL_MANAGED, &b.vb,
            NULL), D3D_OK);
    a.offset = 0, a.stride = 16;
    b.offset = 4, b.stride = 32;

    block_kinds(device, &a, &b);
    recorded_block(device, &a, &b);
    block_keeps_objects(device);

    /* Unbind and release everything. */
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetPixelShader(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, NULL, 0, 0), D3D_OK);
    CHECK_EQ(IDirect3DVertexShader9_Release(a.vs), 0);
    CHECK_EQ(IDirect3DVertexShader9_Release(b.vs), 0);
    CHECK_EQ(IDirect3DPixelShader9_Release(a.ps), 0);
    CHECK_EQ(IDirect3DPixelShader9_Release(b.ps), 0);
    CHECK_EQ(IDirect3DTexture9_Release(a.texture), 0);
    CHECK_EQ(IDirect3DTexture9_Release(b.texture), 0);
    CHECK_EQ(IDirect3DVertexBuffer9_Release(a.vb), 0);
    CHECK_EQ(IDirect3DVertexBuffer9_Release(b.vb), 0);
    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    return finish("stateblocks");
}
