/* The C side of `cargo bench -p d3d9-backend --bench frame`: the same frame as the bench's
 * device side (backend/benches/frame.rs), issued through libd3d9's C ABI, timing itself.
 *
 * A frame: 2,000 draws of a 12-triangle indexed cube. Each draw sets its world matrix
 * (SetVertexShaderConstantF, c0..c3); every 8th binds another of 8 textures (SetTexture);
 * every 64th sets another of 4 shader pairs (SetVertexShader, SetPixelShader) and one render
 * state: D3DRS_ALPHABLENDENABLE on even groups of 64, D3DRS_ZFUNC on odd ones. The frame
 * ends with an event query flushed (Issue(D3DISSUE_END), GetData(D3DGETDATA_FLUSH)): the
 * submit. The GPU is then waited for (GetData until S_OK), untimed.
 *
 * Commands, one a line on stdin; answers on stdout:
 *   frame      one timed frame; prints its CPU time in nanoseconds
 *   check      clears target and depth, draws one frame, waits, reads render target 0 back
 *              and prints the FNV-1a hash of its pixels (alpha masked off), in hex
 *   profile N  N frames, each waited for, untimed (the function `profiled`), for callgrind:
 *              a frame's instructions are the difference of `frame`'s inclusive cost
 *              between two runs with different N (docs/benchmarks.md)
 *   quit       (or end of input) releases everything and exits
 * It prints "ready" once the device, resources and shaders exist.
 *
 * Built with the project's compile line (README, C ABI):
 *   cc -std=gnu11 -O2 -I capi/include -idirafter /usr/share/mingw-w64/include \
 *      backend/benches/frame.c -L <libdir> -ld3d9 -lm -Wl,-rpath,<libdir>
 * Every number below (shader constants, matrices, vertices, texels) is computed as
 * frame.rs computes it, so the two sides draw the same picture (the bench compares hashes).
 */
#define COBJMACROS
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <windows.h>
#include <d3d9.h>

#define SIZE 128
#define DRAWS 2000
#define TEXTURES 8
#define PAIRS 4
#define TEX_SIZE 16

#define CHECK_HR(call)                                                                   \
    do                                                                                   \
    {                                                                                    \
        HRESULT hr_ = (call);                                                            \
        if (FAILED(hr_))                                                                 \
        {                                                                                \
            fprintf(stderr, "frame.c:%d: %s returned %#x\n", __LINE__, #call,            \
                    (unsigned int)hr_);                                                  \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* vs_2_0: def c8, <VS_DEF[k]>; dcl_position v0; dcl_color v1; dcl_texcoord v2;
 *         m4x4 oPos, v0, c0; mul oD0, v1, c8; mov oT0, v2 */
static const DWORD vs_template[] = {
    0xfffe0200, 0x05000051, 0xa00f0008, 0, 0, 0, 0,
    0x0200001f, 0x80000000, 0x900f0000, 0x0200001f, 0x8000000a, 0x900f0001,
    0x0200001f, 0x80000005, 0x900f0002, 0x03000014, 0xc00f0000, 0x90e40000, 0xa0e40000,
    0x03000005, 0xd00f0000, 0x90e40001, 0xa0e40008, 0x02000001, 0xe00f0000, 0x90e40002,
    0x0000ffff,
};

/* ps_2_0: def c0, <PS_DEF[k]>; dcl t0.xy; dcl v0; dcl_2d s0; texld r0, t0, s0;
 *         mul r0, r0, v0; mul r0, r0, c0; mov oC0, r0 */
static const DWORD ps_template[] = {
    0xffff0200, 0x05000051, 0xa00f0000, 0, 0, 0, 0,
    0x0200001f, 0x80000000, 0xb0030000, 0x0200001f, 0x80000000, 0x900f0000,
    0x0200001f, 0x90000000, 0xa00f0800, 0x03000042, 0x800f0000, 0xb0e40000, 0xa0e40800,
    0x03000005, 0x800f0000, 0x80e40000, 0x90e40000, 0x03000005, 0x800f0000, 0x80e40000,
    0xa0e40000, 0x02000001, 0x800f0800, 0x80e40000, 0x0000ffff,
};

static const float VS_DEF[PAIRS][4] = {
    {1.0f, 0.75f, 0.5f, 1.0f},
    {0.5f, 1.0f, 0.75f, 1.0f},
    {0.75f, 0.5f, 1.0f, 1.0f},
    {1.0f, 1.0f, 1.0f, 1.0f},
};
static const float PS_DEF[PAIRS][4] = {
    {0.5f, 1.0f, 0.8f, 1.0f},
    {1.0f, 0.5f, 1.0f, 1.0f},
    {0.8f, 0.8f, 0.5f, 1.0f},
    {1.0f, 1.0f, 1.0f, 0.75f},
};
static const DWORD CUBE_COLOURS[8] = {
    0xffff4040, 0xff40ff40, 0xff4040ff, 0xffffff40,
    0xc0ff40ff, 0xc040ffff, 0xc0ffffff, 0xc0808080,
};
static const DWORD TEXTURE_COLOURS[TEXTURES] = {
    0xffff8080, 0xff80ff80, 0xff8080ff, 0xffffff80,
    0x80ff80ff, 0x8080ffff, 0xffffffff, 0x80c0c0c0,
};
static const WORD CUBE_INDICES[36] = {
    0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 4, 2, 2, 4, 6,
    1, 3, 5, 3, 7, 5, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7,
};

struct vertex
{
    float x, y, z;
    DWORD diffuse;
    float u, v;
};

struct frame_objects
{
    IDirect3DDevice9 *device;
    IDirect3DVertexShader9 *vs[PAIRS];
    IDirect3DPixelShader9 *ps[PAIRS];
    IDirect3DTexture9 *textures[TEXTURES];
    IDirect3DQuery9 *event;
    float world[DRAWS][16];
};

/* Draw i's world matrix as the registers c0..c3 (m4x4: oPos.n = dp4(v0, c<n>)). */
static void world_registers(unsigned int i, float out[16])
{
    const float s = 0.035f, shear = 0.01f;
    float tx = -0.96f + 0.04f * (float)(i % 50);
    float ty = -0.95f + 0.05f * (float)((i / 50) % 40);
    float tz = 0.25f + 0.005f * (float)((i * 37) % 101);
    const float m[16] = {
        s, 0.0f, shear, tx,
        0.0f, s, shear, ty,
        0.0f, 0.0f, 0.1f, tz,
        0.0f, 0.0f, 0.0f, 1.0f,
    };
    memcpy(out, m, sizeof(m));
}

static DWORD *patched(const DWORD *template, size_t count, const float def[4], DWORD *out)
{
    memcpy(out, template, count * sizeof(DWORD));
    memcpy(out + 3, def, 4 * sizeof(float));
    return out;
}

static void setup(struct frame_objects *f)
{
    static const D3DVERTEXELEMENT9 elements[] = {
        {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
        {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
        {0, 16, D3DDECLTYPE_FLOAT2, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
        D3DDECL_END(),
    };
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    IDirect3DVertexDeclaration9 *decl;
    IDirect3DVertexBuffer9 *vb;
    IDirect3DIndexBuffer9 *ib;
    D3DPRESENT_PARAMETERS pp;
    struct vertex *vertices;
    void *data;
    unsigned int i, k, x, y;
    DWORD tokens[64];

    if (!d3d)
    {
        fprintf(stderr, "Direct3DCreate9 returned NULL\n");
        exit(1);
    }
    memset(&pp, 0, sizeof(pp));
    pp.BackBufferWidth = SIZE;
    pp.BackBufferHeight = SIZE;
    pp.BackBufferFormat = D3DFMT_X8R8G8B8;
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.EnableAutoDepthStencil = TRUE;
    pp.AutoDepthStencilFormat = D3DFMT_D24S8;
    CHECK_HR(IDirect3D9_CreateDevice(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, (HWND)1,
            D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &f->device));
    IDirect3D9_Release(d3d);

    for (k = 0; k < PAIRS; ++k)
    {
        CHECK_HR(IDirect3DDevice9_CreateVertexShader(f->device,
                patched(vs_template, sizeof(vs_template) / sizeof(DWORD), VS_DEF[k], tokens),
                &f->vs[k]));
        CHECK_HR(IDirect3DDevice9_CreatePixelShader(f->device,
                patched(ps_template, sizeof(ps_template) / sizeof(DWORD), PS_DEF[k], tokens),
                &f->ps[k]));
    }
    CHECK_HR(IDirect3DDevice9_CreateVertexDeclaration(f->device, elements, &decl));
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(f->device, decl));
    IDirect3DVertexDeclaration9_Release(decl);

    CHECK_HR(IDirect3DDevice9_CreateVertexBuffer(f->device, 8 * sizeof(struct vertex), 0, 0,
            D3DPOOL_MANAGED, &vb, NULL));
    CHECK_HR(IDirect3DVertexBuffer9_Lock(vb, 0, 0, &data, 0));
    vertices = data;
    for (i = 0; i < 8; ++i)
    {
        vertices[i].x = (i & 1) ? 0.5f : -0.5f;
        vertices[i].y = (i & 2) ? 0.5f : -0.5f;
        vertices[i].z = (i & 4) ? 0.5f : -0.5f;
        vertices[i].diffuse = CUBE_COLOURS[i];
        vertices[i].u = (float)(i & 1);
        vertices[i].v = (float)((i >> 1) & 1);
    }
    CHECK_HR(IDirect3DVertexBuffer9_Unlock(vb));
    CHECK_HR(IDirect3DDevice9_SetStreamSource(f->device, 0, vb, 0, sizeof(struct vertex)));
    IDirect3DVertexBuffer9_Release(vb);

    CHECK_HR(IDirect3DDevice9_CreateIndexBuffer(f->device, sizeof(CUBE_INDICES), 0,
            D3DFMT_INDEX16, D3DPOOL_MANAGED, &ib, NULL));
    CHECK_HR(IDirect3DIndexBuffer9_Lock(ib, 0, 0, &data, 0));
    memcpy(data, CUBE_INDICES, sizeof(CUBE_INDICES));
    CHECK_HR(IDirect3DIndexBuffer9_Unlock(ib));
    CHECK_HR(IDirect3DDevice9_SetIndices(f->device, ib));
    IDirect3DIndexBuffer9_Release(ib);

    for (k = 0; k < TEXTURES; ++k)
    {
        D3DLOCKED_RECT locked;
        CHECK_HR(IDirect3DDevice9_CreateTexture(f->device, TEX_SIZE, TEX_SIZE, 1, 0,
                D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &f->textures[k], NULL));
        CHECK_HR(IDirect3DTexture9_LockRect(f->textures[k], 0, &locked, NULL, 0));
        for (y = 0; y < TEX_SIZE; ++y)
            for (x = 0; x < TEX_SIZE; ++x)
                ((DWORD *)((BYTE *)locked.pBits + y * locked.Pitch))[x] =
                        ((x ^ y) & 1) ? TEXTURE_COLOURS[k] : 0xff404040;
        CHECK_HR(IDirect3DTexture9_UnlockRect(f->textures[k], 0));
    }

    CHECK_HR(IDirect3DDevice9_SetRenderState(f->device, D3DRS_SRCBLEND, D3DBLEND_SRCALPHA));
    CHECK_HR(IDirect3DDevice9_SetRenderState(f->device, D3DRS_DESTBLEND, D3DBLEND_INVSRCALPHA));
    CHECK_HR(IDirect3DDevice9_CreateQuery(f->device, D3DQUERYTYPE_EVENT, &f->event));
    for (i = 0; i < DRAWS; ++i)
        world_registers(i, f->world[i]);
}

/* The frame's calls, then the event query flushed (the submit). */
static __attribute__((noinline)) void frame(struct frame_objects *f)
{
    IDirect3DDevice9 *device = f->device;
    unsigned int i;

    CHECK_HR(IDirect3DDevice9_BeginScene(device));
    for (i = 0; i < DRAWS; ++i)
    {
        if (i % 64 == 0)
        {
            unsigned int k = i / 64;
            CHECK_HR(IDirect3DDevice9_SetVertexShader(device, f->vs[k % PAIRS]));
            CHECK_HR(IDirect3DDevice9_SetPixelShader(device, f->ps[k % PAIRS]));
            if (k % 2 == 0)
                CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_ALPHABLENDENABLE,
                        (k / 2) % 2 == 1));
            else
                CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_ZFUNC,
                        (k / 2) % 2 == 1 ? D3DCMP_LESSEQUAL : D3DCMP_ALWAYS));
        }
        if (i % 8 == 0)
            CHECK_HR(IDirect3DDevice9_SetTexture(device, 0,
                    (IDirect3DBaseTexture9 *)f->textures[(i / 8) % TEXTURES]));
        CHECK_HR(IDirect3DDevice9_SetVertexShaderConstantF(device, 0, f->world[i], 4));
        CHECK_HR(IDirect3DDevice9_DrawIndexedPrimitive(device, D3DPT_TRIANGLELIST, 0, 0, 8, 0,
                12));
    }
    CHECK_HR(IDirect3DDevice9_EndScene(device));
    CHECK_HR(IDirect3DQuery9_Issue(f->event, D3DISSUE_END));
    CHECK_HR(IDirect3DQuery9_GetData(f->event, NULL, 0, D3DGETDATA_FLUSH));
}

static void wait_gpu(struct frame_objects *f)
{
    HRESULT hr;
    struct timespec pause = {0, 100000};
    /* The event is reached once the GPU has done the frame; poll it with short pauses. */
    while ((hr = IDirect3DQuery9_GetData(f->event, NULL, 0, D3DGETDATA_FLUSH)) == S_FALSE)
        nanosleep(&pause, NULL);
    CHECK_HR(hr);
}

static unsigned long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

/* FNV-1a over render target 0's pixels, alpha masked off (frame.rs hashes the same way). */
static unsigned int target_hash(IDirect3DDevice9 *device)
{
    IDirect3DSurface9 *target, *copy;
    D3DSURFACE_DESC desc;
    D3DLOCKED_RECT locked;
    unsigned int hash = 2166136261u, x, y;

    CHECK_HR(IDirect3DDevice9_GetRenderTarget(device, 0, &target));
    CHECK_HR(IDirect3DSurface9_GetDesc(target, &desc));
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, desc.Width, desc.Height,
            desc.Format, D3DPOOL_SYSTEMMEM, &copy, NULL));
    CHECK_HR(IDirect3DDevice9_GetRenderTargetData(device, target, copy));
    CHECK_HR(IDirect3DSurface9_LockRect(copy, &locked, NULL, D3DLOCK_READONLY));
    for (y = 0; y < desc.Height; ++y)
        for (x = 0; x < desc.Width; ++x)
        {
            DWORD p = ((const DWORD *)((const BYTE *)locked.pBits + y * locked.Pitch))[x];
            hash = (hash ^ (p & 0x00ffffffu)) * 16777619u;
        }
    CHECK_HR(IDirect3DSurface9_UnlockRect(copy));
    IDirect3DSurface9_Release(copy);
    IDirect3DSurface9_Release(target);
    return hash;
}

static __attribute__((noinline)) void profiled(struct frame_objects *f, unsigned int n)
{
    while (n--)
    {
        frame(f);
        wait_gpu(f);
    }
}

int main(void)
{
    static struct frame_objects f;
    char line[64];
    unsigned int k;

    setup(&f);
    printf("ready\n");
    fflush(stdout);
    while (fgets(line, sizeof(line), stdin))
    {
        unsigned int n;
        if (strncmp(line, "frame", 5) == 0)
        {
            /* "frame N": N untimed frames first, each waited for, then the timed one. */
            unsigned long long start, elapsed;
            if (sscanf(line, "frame %u", &n) == 1)
                while (n--)
                {
                    frame(&f);
                    wait_gpu(&f);
                }
            start = now_ns();
            frame(&f);
            elapsed = now_ns() - start;
            wait_gpu(&f);
            printf("%llu\n", elapsed);
        }
        else if (strncmp(line, "check", 5) == 0)
        {
            CHECK_HR(IDirect3DDevice9_Clear(f.device, 0, NULL, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER,
                    0xff202040, 1.0f, 0));
            frame(&f);
            wait_gpu(&f);
            printf("%08x\n", target_hash(f.device));
        }
        else if (sscanf(line, "profile %u", &n) == 1)
        {
            profiled(&f, n);
            printf("done\n");
        }
        else
            break;
        fflush(stdout);
    }
    for (k = 0; k < PAIRS; ++k)
    {
        IDirect3DVertexShader9_Release(f.vs[k]);
        IDirect3DPixelShader9_Release(f.ps[k]);
    }
    for (k = 0; k < TEXTURES; ++k)
        IDirect3DTexture9_Release(f.textures[k]);
    IDirect3DQuery9_Release(f.event);
    IDirect3DDevice9_Release(f.device);
    return 0;
}
