/* Queries through the C ABI:
 *  - CreateQuery(D3DQUERYTYPE_EVENT, NULL) is S_OK: the type is supported (no object made);
 *  - an event query, Issue(D3DISSUE_END), then GetData(D3DGETDATA_FLUSH) is S_OK with TRUE
 *    once the GPU has done what was submitted (the library waits: the first call answers);
 *  - every other D3DQUERYTYPE is one this library does not answer: D3DERR_NOTAVAILABLE, with
 *    NULL or an out pointer, and no object made, as Windows answers for a type the driver
 *    lacks. */
#include "d3d9_check.h"

int main(void)
{
    /* D3DQUERYTYPE_VCACHE (4) .. D3DQUERYTYPE_MEMORYPRESSURE (19), EVENT (8) excepted. */
    static const D3DQUERYTYPE unsupported[] = {
        D3DQUERYTYPE_VCACHE, D3DQUERYTYPE_RESOURCEMANAGER, D3DQUERYTYPE_VERTEXSTATS,
        D3DQUERYTYPE_OCCLUSION, D3DQUERYTYPE_TIMESTAMP, D3DQUERYTYPE_TIMESTAMPDISJOINT,
        D3DQUERYTYPE_TIMESTAMPFREQ, D3DQUERYTYPE_PIPELINETIMINGS,
        D3DQUERYTYPE_INTERFACETIMINGS, D3DQUERYTYPE_VERTEXTIMINGS, D3DQUERYTYPE_PIXELTIMINGS,
        D3DQUERYTYPE_BANDWIDTHTIMINGS, D3DQUERYTYPE_CACHEUTILIZATION,
        D3DQUERYTYPE_MEMORYPRESSURE,
    };
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    IDirect3DDevice9 *device, *got_device = NULL;
    IDirect3DQuery9 *query = NULL;
    BOOL done = FALSE;
    unsigned int i, live;

    CHECK(d3d != NULL, "Direct3DCreate9 returned NULL");
    device = create_device(d3d, D3DCREATE_HARDWARE_VERTEXPROCESSING, 32, 32);

    section("event query");
    live = D3D9NativeLiveObjects();
    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_EVENT, NULL), D3D_OK);
    CHECK_EQ(D3D9NativeLiveObjects(), live); /* the probe made nothing */
    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_EVENT, &query), D3D_OK);
    CHECK(query != NULL, "no query");
    CHECK_EQ(IDirect3DQuery9_GetType(query), D3DQUERYTYPE_EVENT);
    CHECK_EQ(IDirect3DQuery9_GetDataSize(query), sizeof(BOOL));
    CHECK_HR(IDirect3DQuery9_GetDevice(query, &got_device), D3D_OK);
    CHECK(got_device == device, "GetDevice gave %p", (void *)got_device);
    IDirect3DDevice9_Release(got_device);

    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, 0xff00ff00, 1.0f, 0),
            D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_END), D3D_OK);
    CHECK_HR(IDirect3DQuery9_GetData(query, &done, sizeof(done), D3DGETDATA_FLUSH), S_OK);
    CHECK_EQ(done, TRUE);
    /* Asked again: still done; without a buffer only the answer. */
    done = FALSE;
    CHECK_HR(IDirect3DQuery9_GetData(query, &done, sizeof(done), 0), S_OK);
    CHECK_EQ(done, TRUE);
    CHECK_HR(IDirect3DQuery9_GetData(query, NULL, 0, D3DGETDATA_FLUSH), S_OK);
    CHECK_EQ(IDirect3DQuery9_Release(query), 0);
    printf("ok: Issue(END), GetData(FLUSH) is S_OK with TRUE\n");

    section("query types this library does not answer");
    for (i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); ++i)
    {
        CHECK_HR(IDirect3DDevice9_CreateQuery(device, unsupported[i], NULL),
                D3DERR_NOTAVAILABLE);
        CHECK_HR(IDirect3DDevice9_CreateQuery(device, unsupported[i], &query),
                D3DERR_NOTAVAILABLE);
        CHECK_EQ(D3D9NativeLiveObjects(), live); /* no object made */
    }
    printf("ok: %u types answer D3DERR_NOTAVAILABLE\n", i);

    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    return finish("queries");
}
