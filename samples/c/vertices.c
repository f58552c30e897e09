/* The D3D9 SDK's Tutorial 2 (Vertices) in C: the Rust scene `vertices`
 * (samples/src/scenes/vertices.rs), call for call. */
#include "common.h"

#include <string.h>

struct vertex
{
    float x, y, z, rhw; /* screen pixels */
    DWORD color;
};

void sample_vertices(IDirect3DDevice9 *device)
{
    static const struct vertex vertices[] = {
        {320.0f, 60.0f, 0.5f, 1.0f, 0xffff0000},
        {560.0f, 420.0f, 0.5f, 1.0f, 0xff00ff00},
        {80.0f, 420.0f, 0.5f, 1.0f, 0xff00ffff},
    };
    IDirect3DVertexBuffer9 *vb = NULL;
    void *data = NULL;

    CHECK_HR(IDirect3DDevice9_CreateVertexBuffer(device, sizeof(vertices), 0,
            D3DFVF_XYZRHW | D3DFVF_DIFFUSE, D3DPOOL_DEFAULT, &vb, NULL));
    CHECK_HR(IDirect3DVertexBuffer9_Lock(vb, 0, sizeof(vertices), &data, 0));
    memcpy(data, vertices, sizeof(vertices));
    CHECK_HR(IDirect3DVertexBuffer9_Unlock(vb));

    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, D3DCOLOR_XRGB(0, 0, 255),
            1.0f, 0));
    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, vb, 0, sizeof(struct vertex)));
    CHECK_HR(IDirect3DDevice9_SetFVF(device, D3DFVF_XYZRHW | D3DFVF_DIFFUSE));
    CHECK_HR(IDirect3DDevice9_DrawPrimitive(device, D3DPT_TRIANGLELIST, 0, 1));
    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, NULL, 0, 0));
    IDirect3DVertexBuffer9_Release(vb);
}
