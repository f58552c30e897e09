/* Queries through the C ABI:
 *  - CreateQuery(type, NULL) answers what CreateQuery(type, &query) does (Wine's
 *    test_query_support): D3D_OK for EVENT and OCCLUSION; the three timestamp types
 *    (TIMESTAMP, TIMESTAMPDISJOINT, TIMESTAMPFREQ) together D3D_OK where the adapter has
 *    timestamps and D3DERR_NOTAVAILABLE where it does not; D3DERR_NOTAVAILABLE, with NULL
 *    or an out pointer, no object made and the out pointer untouched, for every other type,
 *    those D3D9 defines (VCACHE, ..., MEMORYPRESSURE) and numbers it does not (0 to 39);
 *  - an event query, Issue(D3DISSUE_END), then GetData(D3DGETDATA_FLUSH) is S_OK with
 *    TRUE; GetData before any Issue is S_OK with 0xdd bytes (Windows);
 *  - timestamp queries as Wine's test_timestamp_query: data sizes 8, 4, 8; 0xdd bytes
 *    before any Issue; BEGIN accepted on TIMESTAMP; the low DWORD of a UINT64 when asked
 *    for a DWORD; a frequency that is not 0; a later timestamp not smaller; never disjoint.
 * (Occlusion queries: occlusion.c.) */
#include <time.h>

#include "d3d9_check.h"

/* GetData(FLUSH) into `data` (`size` bytes) until it is not S_FALSE, for at most 10 s. */
static void wait_data(IDirect3DQuery9 *query, void *data, DWORD size)
{
    clock_t start = clock();
    HRESULT hr;

    while ((hr = IDirect3DQuery9_GetData(query, data, size, D3DGETDATA_FLUSH)) == S_FALSE)
        CHECK((clock() - start) / CLOCKS_PER_SEC < 10, "no result after 10 seconds");
    CHECK_HR(hr, S_OK);
}

static void timestamps(IDirect3DDevice9 *device)
{
    IDirect3DQuery9 *freq_query = NULL, *disjoint_query = NULL, *first = NULL, *second = NULL;
    DWORD freq[2], stamp[2];
    UINT64 t0 = 0, t1 = 0, frequency = 0;
    WORD disjoint[2];
    BOOL is_disjoint = TRUE;

    section("timestamp queries");
    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_TIMESTAMPFREQ, &freq_query),
            D3D_OK);
    CHECK_EQ(IDirect3DQuery9_GetDataSize(freq_query), sizeof(UINT64));
    memset(freq, 0xff, sizeof(freq));
    CHECK_HR(IDirect3DQuery9_GetData(freq_query, NULL, 0, D3DGETDATA_FLUSH), S_OK);
    CHECK_HR(IDirect3DQuery9_GetData(freq_query, freq, sizeof(DWORD), D3DGETDATA_FLUSH), S_OK);
    CHECK_EQ(freq[0], 0xdddddddd);
    CHECK_EQ(freq[1], 0xffffffff);

    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_TIMESTAMPDISJOINT,
            &disjoint_query), D3D_OK);
    CHECK_EQ(IDirect3DQuery9_GetDataSize(disjoint_query), sizeof(BOOL));
    memset(disjoint, 0xff, sizeof(disjoint));
    CHECK_HR(IDirect3DQuery9_GetData(disjoint_query, disjoint, sizeof(WORD),
            D3DGETDATA_FLUSH), S_OK);
    CHECK_EQ(disjoint[0], 0xdddd);
    CHECK_EQ(disjoint[1], 0xffff);

    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_TIMESTAMP, &first), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_TIMESTAMP, &second), D3D_OK);
    CHECK_EQ(IDirect3DQuery9_GetType(first), D3DQUERYTYPE_TIMESTAMP);
    CHECK_EQ(IDirect3DQuery9_GetDataSize(first), sizeof(UINT64));

    CHECK_HR(IDirect3DQuery9_Issue(freq_query, D3DISSUE_END), D3D_OK);
    wait_data(freq_query, &frequency, sizeof(frequency));
    CHECK(frequency != 0, "a frequency of 0");
    memset(freq, 0xff, sizeof(freq));
    CHECK_HR(IDirect3DQuery9_GetData(freq_query, freq, sizeof(DWORD), D3DGETDATA_FLUSH), S_OK);
    CHECK_EQ(freq[0], (DWORD)frequency);
    CHECK_EQ(freq[1], 0xffffffff);

    /* END then BEGIN twice on the disjoint query, BEGIN on a timestamp: all D3D_OK. */
    CHECK_HR(IDirect3DQuery9_Issue(disjoint_query, D3DISSUE_END), D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(disjoint_query, D3DISSUE_BEGIN), D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(disjoint_query, D3DISSUE_BEGIN), D3D_OK);
    CHECK_HR(IDirect3DQuery9_GetData(disjoint_query, NULL, 0, D3DGETDATA_FLUSH), S_FALSE);
    CHECK_HR(IDirect3DQuery9_Issue(first, D3DISSUE_BEGIN), D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(first, D3DISSUE_END), D3D_OK);
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, 0xff00ff00, 1.0f, 0),
            D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(second, D3DISSUE_END), D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(disjoint_query, D3DISSUE_END), D3D_OK);

    wait_data(first, &t0, sizeof(t0));
    wait_data(second, &t1, sizeof(t1));
    CHECK(t0 != 0 && t1 >= t0, "timestamps %llu then %llu", (unsigned long long)t0,
            (unsigned long long)t1);
    memset(stamp, 0xff, sizeof(stamp));
    CHECK_HR(IDirect3DQuery9_GetData(second, stamp, sizeof(DWORD), D3DGETDATA_FLUSH), S_OK);
    CHECK_EQ(stamp[0], (DWORD)t1);
    CHECK_EQ(stamp[1], 0xffffffff);
    wait_data(disjoint_query, &is_disjoint, sizeof(is_disjoint));
    CHECK_EQ(is_disjoint, FALSE);
    printf("ok: timestamps %llu .. %llu at %llu per second\n", (unsigned long long)t0,
            (unsigned long long)t1, (unsigned long long)frequency);

    CHECK_EQ(IDirect3DQuery9_Release(first), 0);
    CHECK_EQ(IDirect3DQuery9_Release(second), 0);
    CHECK_EQ(IDirect3DQuery9_Release(disjoint_query), 0);
    CHECK_EQ(IDirect3DQuery9_Release(freq_query), 0);
}

int main(void)
{
    /* D3DQUERYTYPE_VCACHE (4) .. D3DQUERYTYPE_MEMORYPRESSURE (19) this library does not do. */
    static const D3DQUERYTYPE unsupported[] = {
        D3DQUERYTYPE_VCACHE, D3DQUERYTYPE_RESOURCEMANAGER, D3DQUERYTYPE_VERTEXSTATS,
        D3DQUERYTYPE_PIPELINETIMINGS, D3DQUERYTYPE_INTERFACETIMINGS,
        D3DQUERYTYPE_VERTEXTIMINGS, D3DQUERYTYPE_PIXELTIMINGS, D3DQUERYTYPE_BANDWIDTHTIMINGS,
        D3DQUERYTYPE_CACHEUTILIZATION, D3DQUERYTYPE_MEMORYPRESSURE,
    };
    static const D3DQUERYTYPE timestamp_types[] = {
        D3DQUERYTYPE_TIMESTAMP, D3DQUERYTYPE_TIMESTAMPDISJOINT, D3DQUERYTYPE_TIMESTAMPFREQ,
    };
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    IDirect3DDevice9 *device, *got_device = NULL;
    IDirect3DQuery9 *query = NULL;
    HRESULT timestamps_hr;
    BOOL done = FALSE;
    DWORD poison = 0;
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
    CHECK_HR(IDirect3DQuery9_GetData(query, &poison, sizeof(poison), D3DGETDATA_FLUSH), S_OK);
    CHECK_EQ(poison, 0xdddddddd); /* never issued */

    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, 0xff00ff00, 1.0f, 0),
            D3D_OK);
    CHECK_HR(IDirect3DQuery9_Issue(query, D3DISSUE_END), D3D_OK);
    wait_data(query, &done, sizeof(done));
    CHECK_EQ(done, TRUE);
    /* Asked again: still done; without a buffer only the answer. */
    done = FALSE;
    CHECK_HR(IDirect3DQuery9_GetData(query, &done, sizeof(done), 0), S_OK);
    CHECK_EQ(done, TRUE);
    CHECK_HR(IDirect3DQuery9_GetData(query, NULL, 0, D3DGETDATA_FLUSH), S_OK);
    CHECK_EQ(IDirect3DQuery9_Release(query), 0);
    printf("ok: Issue(END), GetData(FLUSH) is S_OK with TRUE\n");

    section("occlusion queries are offered");
    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_OCCLUSION, NULL), D3D_OK);
    CHECK_EQ(D3D9NativeLiveObjects(), live);
    CHECK_HR(IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_OCCLUSION, &query), D3D_OK);
    CHECK_EQ(IDirect3DQuery9_GetType(query), D3DQUERYTYPE_OCCLUSION);
    CHECK_EQ(IDirect3DQuery9_GetDataSize(query), sizeof(DWORD));
    CHECK_EQ(IDirect3DQuery9_Release(query), 0);

    section("timestamp types: all or none, as the probe says");
    timestamps_hr = IDirect3DDevice9_CreateQuery(device, D3DQUERYTYPE_TIMESTAMP, NULL);
    CHECK(timestamps_hr == D3D_OK || timestamps_hr == D3DERR_NOTAVAILABLE, "hr %#x",
            (unsigned int)timestamps_hr);
    for (i = 0; i < sizeof(timestamp_types) / sizeof(timestamp_types[0]); ++i)
    {
        query = (IDirect3DQuery9 *)0xdeadbeef;
        CHECK_HR(IDirect3DDevice9_CreateQuery(device, timestamp_types[i], NULL), timestamps_hr);
        CHECK_HR(IDirect3DDevice9_CreateQuery(device, timestamp_types[i], &query),
                timestamps_hr);
        if (timestamps_hr == D3D_OK)
            CHECK_EQ(IDirect3DQuery9_Release(query), 0);
        else
            CHECK(query == (IDirect3DQuery9 *)0xdeadbeef, "out pointer written: %p",
                    (void *)query);
        CHECK_EQ(D3D9NativeLiveObjects(), live);
    }
    printf("ok: timestamp queries %s\n", timestamps_hr == D3D_OK ? "offered" : "not offered");
    if (timestamps_hr == D3D_OK)
        timestamps(device);

    section("query types this library does not answer");
    for (i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); ++i)
    {
        CHECK_HR(IDirect3DDevice9_CreateQuery(device, unsupported[i], NULL),
                D3DERR_NOTAVAILABLE);
        query = (IDirect3DQuery9 *)0xdeadbeef;
        CHECK_HR(IDirect3DDevice9_CreateQuery(device, unsupported[i], &query),
                D3DERR_NOTAVAILABLE);
        CHECK(query == (IDirect3DQuery9 *)0xdeadbeef, "out pointer written: %p", (void *)query);
        CHECK_EQ(D3D9NativeLiveObjects(), live); /* no object made */
    }
    printf("ok: %u types answer D3DERR_NOTAVAILABLE\n", i);
    /* Numbers D3D9 does not define: D3DERR_NOTAVAILABLE too (test_query_support; Windows 10
     * answers D3D_OK to the probe of 0x16, which it then fails to create: skipped). */
    for (i = 0; i < 40; ++i)
    {
        if ((i >= D3DQUERYTYPE_VCACHE && i <= D3DQUERYTYPE_MEMORYPRESSURE) || i == 0x16)
            continue;
        CHECK_HR(IDirect3DDevice9_CreateQuery(device, i, NULL), D3DERR_NOTAVAILABLE);
        query = (IDirect3DQuery9 *)0xdeadbeef;
        CHECK_HR(IDirect3DDevice9_CreateQuery(device, i, &query), D3DERR_NOTAVAILABLE);
        CHECK(query == (IDirect3DQuery9 *)0xdeadbeef, "out pointer written: %p", (void *)query);
    }
    CHECK_EQ(D3D9NativeLiveObjects(), live);
    printf("ok: numbers outside D3D9's types answer D3DERR_NOTAVAILABLE\n");

    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    return finish("queries");
}
