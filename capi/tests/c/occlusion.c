/* Occlusion queries through the C ABI (D3DQUERYTYPE_OCCLUSION), with the rules Wine's
 * test_occlusion_query shows on Windows:
 *  - GetData before any Issue is S_OK and fills the caller's DWORD with 0xdd bytes;
 *  - any order of Issue(D3DISSUE_BEGIN) / Issue(D3DISSUE_END) is D3D_OK: BEGIN on an open
 *    query starts it again, END without BEGIN counts nothing;
 *  - GetData is S_FALSE until the result is there (always while the query is open), then
 *    S_OK with the samples that passed the depth and stencil tests: a quad of 64 x 64
 *    pixels counts 4096, one behind the depth buffer 0, several draws their sum, a Clear
 *    nothing. On Vulkan adapters the count is exact; where wgpu's occlusion queries are
 *    boolean (GL) each draw with a visible sample counts 1 (docs/decisions.md);
 *  - GetData writes at most the size given: a WORD of the DWORD, nothing for size 0; 8
 *    bytes get the count as a UINT64;
 *  - misuse: GetData(NULL, 4) (which crashes Windows) and unknown GetData or Issue flags
 *    are D3DERR_INVALIDCALL (this library's choice; no Windows test pins them). */
#include <time.h>

#include "d3d9_check.h"

#define WIDTH 64
#define HEIGHT 64

struct vertex_rhw
{
    float x, y, z, rhw;
    DWORD diffuse;
};

/* Whether occlusion queries count samples: wgpu's Vulkan backend does, its GL backend
 * answers per draw whether any sample passed. The adapter's description names it. */
static BOOL counts_samples;

/* What a query over draws of `samples[i]` samples each answers on this adapter. */
static DWORD expected(const DWORD *samples, unsigned int count)
{
    DWORD sum = 0;
    unsigned int i;

    for (i = 0; i < count; ++i)
        sum += counts_samples ? samples[i] : (samples[i] ? 1 : 0);
    return sum;
}

static void draw_quad(IDirect3DDevice9 *device, float x0, float y0, float x1, float y1, float z)
{
    const struct vertex_rhw quad[] = {
        {x0, y0, z, 1.0f, 0xffffffff},
        {x1, y0, z, 1.0f, 0xffffffff},
        {x0, y1, z, 1.0f, 0xffffffff},
        {x1, y1, z, 1.0f, 0xffffffff},
    };

    CHECK_HR(IDirect3DDevice9_DrawPrimitiveUP(device, D3DPT_TRIANGLESTRIP, 2, quad,
            sizeof(quad[0])), D3D_OK);
}

/* GetData(FLUSH) until it is S_OK (as Wine's wait_query), for at most 10 seconds. */
static DWORD wait_result(IDirect3DQuery9 *query)
{
    clock_t start = clock();
    DWORD data = 0;
    HRESULT hr;

    for (;;)
    {
        hr = IDirect3DQuery9_GetData(query, &data, sizeof(data), D3DGETDATA_FLUSH);
        if (hr != S_FALSE)
            break;
        CHECK((clock() - start) / CLOCKS_PER_SEC < 10, "no result after 10 seconds");
    }
    CHECK_HR(hr, S_OK);
    return data;
}

int main(void)
{
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    IDirect3DDevice9 *device, *got_device = NULL;
    IDirect3DSurface9 *depth = NULL;
    IDirect3DQuery9 *query = NULL, *other = NULL;
    D3DADAPTER_IDENTIFIER9 id;
    union
    {
        WORD word[4];
        DWORD dword[2];
    } data;
    unsigned int live;
    ULONG device_refs;

    CHECK(d3d != NULL, "Direct3DCreate9 returned NULL");
    CHECK_HR(IDirect3D9_GetAdapterIdentifier(d3d, D3DADAPTER_DEFAULT, 0, &id), D3D_OK);
    counts_samples = strstr(id.Description, "on Vulkan") != NULL;
    printf("adapter %s: occlusion queries %s\n", id.Description,
            counts_samples ? "count samples" : "are boolean per draw");
    device = create_device(d3d, D3DCREATE_HARDWARE_VERTEXPROCESSING, WIDTH, HEIGHT);
    CHECK_HR(IDirect3DDevice9_CreateDepthStencilSurface(device, WIDTH, HEIGHT, D3DFMT_D24S8,
            D3DMULTISAMPLE_NONE, 0, FALSE, &depth, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetDepthStencilSurface(device, depth), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_ZENABLE, D3DZB_TRUE), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_CULLMODE, D3DCULL_NONE), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetFVF(device, D3DFVF_XYZRHW | D3DFVF_DIFFUSE), D3D_OK);
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0,
            1.0f, 0), D3D_OK);

    section("creating an occlusion query");
    live = D3D9NativeLiveObjects();
    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_OCCLUSION, NULL), D3D_OK);
    CHECK_EQ(D3D9NativeLiveObjects(), live); /* the probe made nothing */
    device_refs = refcount(device);
    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_OCCLUSION, &query), D3D_OK);
    CHECK(query != NULL, "no query");
    CHECK_EQ(refcount(device), device_refs + 1); /* a child holds its device */
    CHECK_EQ(IDirect3DQuery9_GetType(query), D3DQUERYTYPE_OCCLUSION);
    CHECK_EQ(IDirect3DQuery9_GetDataSize(query), sizeof(DWORD));
    CHECK_HR(IDirect3DQuery9_GetDevice(query, &got_device), D3D_OK);
    CHECK(got_device == device, "GetDevice gave %p", (void *)got_device);
    IDirect3DDevice9_Release(got_device);

    section("before any Issue");
    memset(&data, 0xff, sizeof(data));
    CHECK_HR(IDirect3DQuery9_GetData(query, NULL, 0, D3DGETDATA_FLUSH), S_OK);
    CHECK_HR(IDirect3DQuery9_GetData(query, &data, sizeof(DWORD), D3DGETDATA_FLUSH), S_OK);
    CHECK_EQ(data.dword[0], 0xdddddddd);
    CHECK_EQ(data.dword[1], 0xffffffff);

    section("END, BEGIN, BEGIN, draw, END");
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_END), D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_BEGIN), D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_BEGIN), D3D_OK);
    /* Open: not yet, flushed or not. */
    CHECK_HR(IDirect3DQuery9_GetData(query, NULL, 0, D3DGETDATA_FLUSH), S_FALSE);
    CHECK_HR(IDirect3DQuery9_GetData(query, &data, sizeof(DWORD), 0), S_FALSE);
    CHECK_HR(IDirect3DDevice9_BeginScene(device), D3D_OK);
    draw_quad(device, 0.0f, 0.0f, WIDTH, HEIGHT, 0.5f);
    CHECK_HR(IDirect3DDevice9_EndScene(device), D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_END), D3D_OK);
    {
        const DWORD samples[] = {WIDTH * HEIGHT};
        DWORD want = expected(samples, 1);

        CHECK_EQ(wait_result(query), want);
        printf("ok: a 64 x 64 quad counts %u\n", (unsigned int)want);

        section("GetData sizes");
        memset(&data, 0xff, sizeof(data));
        CHECK_HR(IDirect3DQuery9_GetData(query, &data, sizeof(WORD), D3DGETDATA_FLUSH), S_OK);
        CHECK_EQ(data.word[0], want & 0xffff);
        CHECK_EQ(data.word[1], 0xffff);
        memset(&data, 0xf0, sizeof(data));
        CHECK_HR(IDirect3DQuery9_GetData(query, &data, sizeof(data), D3DGETDATA_FLUSH), S_OK);
        CHECK_EQ(data.dword[0], want);
        CHECK_EQ(data.dword[1], 0); /* the count as a UINT64 */
        memset(&data, 0xff, sizeof(data));
        CHECK_HR(IDirect3DQuery9_GetData(query, &data, 0, D3DGETDATA_FLUSH), S_OK);
        CHECK_EQ(data.dword[0], 0xffffffff);
        CHECK_HR(IDirect3DQuery9_GetData(query, NULL, 0, 0), S_OK);
    }

    section("misuse");
    CHECK_HR(IDirect3DQuery9_GetData(query, NULL, sizeof(DWORD), D3DGETDATA_FLUSH),
            D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DQuery9_GetData(query, &data, sizeof(DWORD), 2), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DQuery9_Issue(query, 0), D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_BEGIN | D3DISSUE_END), D3DERR_INVALIDCALL);
    /* The result is untouched by the refused calls. */
    CHECK_EQ(wait_result(query), counts_samples ? WIDTH * HEIGHT : 1);

    section("END without BEGIN, END twice");
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_BEGIN), D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_END), D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_END), D3D_OK);
    CHECK_EQ(wait_result(query), 0);

    section("behind the depth buffer");
    CHECK_HR(IDirect3DDevice9_BeginScene(device), D3D_OK); /* draws need a scene */
    draw_quad(device, 0.0f, 0.0f, WIDTH, HEIGHT, 0.25f); /* outside the query */
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_BEGIN), D3D_OK);
    draw_quad(device, 0.0f, 0.0f, WIDTH, HEIGHT, 0.75f);
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_END), D3D_OK);
    CHECK_EQ(wait_result(query), 0);

    section("several draws and a Clear");
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_ZBUFFER, 0, 1.0f, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_OCCLUSION, &other), D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_BEGIN), D3D_OK);
    draw_quad(device, 0.0f, 0.0f, 32.0f, 64.0f, 0.5f);              /* 2048 */
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0,
            1.0f, 0), D3D_OK);                                      /* nothing */
    CHECK_HR(IDirect3DQuery9_Issue(other, D3DISSUE_BEGIN), D3D_OK);  /* overlapping */
    draw_quad(device, 0.0f, 0.0f, 16.0f, 16.0f, 0.5f);              /* 256 */
    draw_quad(device, 0.0f, 0.0f, 16.0f, 16.0f, 0.75f);             /* behind: 0 */
    CHECK_HR(IDirect3DQuery9_Issue(other, D3DISSUE_END), D3D_OK);
    draw_quad(device, 32.0f, 0.0f, 64.0f, 8.0f, 0.5f);              /* 256 */
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_END), D3D_OK);
    {
        const DWORD all[] = {2048, 256, 0, 256};
        const DWORD inner[] = {256, 0};

        CHECK_EQ(wait_result(query), expected(all, 4));
        CHECK_EQ(wait_result(other), expected(inner, 2));
    }
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_BEGIN), D3D_OK);
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, 0, 1.0f, 0), D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_END), D3D_OK);
    CHECK_EQ(wait_result(query), 0);
    printf("ok: draws sum, overlapping queries, a Clear counts nothing\n");

    section("released while open");
    CHECK_HR(IDirect3DQuery9_Issue(other, D3DISSUE_BEGIN), D3D_OK);
    CHECK_EQ(IDirect3DQuery9_Release(other), 0);
    draw_quad(device, 0.0f, 0.0f, WIDTH, HEIGHT, 0.5f);
    CHECK_HR(IDirect3DDevice9_EndScene(device), D3D_OK);
    CHECK_EQ(IDirect3DQuery9_Release(query), 0);
    CHECK_EQ(refcount(device), device_refs);

    IDirect3DSurface9_Release(depth);
    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    return finish("occlusion");
}
