/* The D3D9 SDK's Tutorial 5 (Textures) in C: the Rust scene `textures`
 * (samples/src/scenes/textures.rs), call for call: the cylinder with white vertices and a
 * 64x64 checker texture filled through LockRect, stage 0 MODULATE(TEXTURE, DIFFUSE). */
#include "common.h"

#include <math.h>
#include <string.h>

#define STEPS 49
#define SIZE 64

struct vertex
{
    float position[3];
    DWORD color;
    float tu, tv;
};

/* 8x8 cells, offset by 4 so that the texture's centre is the middle of a cell. */
static DWORD checker(UINT x, UINT y)
{
    return ((x + 4) / 8 + (y + 4) / 8) % 2 ? 0xff2040a0 : 0xffe08020;
}

void sample_textures(IDirect3DDevice9 *device)
{
    struct vertex vertices[2 * STEPS];
    IDirect3DVertexBuffer9 *vb = NULL;
    IDirect3DTexture9 *texture = NULL;
    D3DLOCKED_RECT locked;
    D3DMATRIX world;
    void *data = NULL;
    UINT x, y;
    int i, k;

    CHECK_HR(IDirect3DDevice9_CreateTexture(device, SIZE, SIZE, 1, 0, D3DFMT_X8R8G8B8,
            D3DPOOL_MANAGED, &texture, NULL));
    CHECK_HR(IDirect3DTexture9_LockRect(texture, 0, &locked, NULL, 0));
    for (y = 0; y < SIZE; ++y)
    {
        DWORD *row = (DWORD *)((BYTE *)locked.pBits + y * locked.Pitch);
        for (x = 0; x < SIZE; ++x)
            row[x] = checker(x, y);
    }
    CHECK_HR(IDirect3DTexture9_UnlockRect(texture, 0));

    for (i = 0; i < STEPS; ++i)
    {
        float u = (float)i / (float)(STEPS - 1);
        float angle = 6.28318530717958647692f * u;
        float s = sinf(angle), c = cosf(angle);
        for (k = 0; k < 2; ++k)
        {
            struct vertex *v = &vertices[2 * i + k];
            v->position[0] = s;
            v->position[1] = k == 0 ? 1.0f : -1.0f;
            v->position[2] = c;
            v->color = 0xffffffff;
            v->tu = u;
            v->tv = k == 0 ? 0.0f : 1.0f;
        }
    }
    CHECK_HR(IDirect3DDevice9_CreateVertexBuffer(device, sizeof(vertices), 0,
            D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_TEX1, D3DPOOL_DEFAULT, &vb, NULL));
    CHECK_HR(IDirect3DVertexBuffer9_Lock(vb, 0, sizeof(vertices), &data, 0));
    memcpy(data, vertices, sizeof(vertices));
    CHECK_HR(IDirect3DVertexBuffer9_Unlock(vb));

    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, D3DCOLOR_XRGB(0, 0, 255),
            1.0f, 0));
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_LIGHTING, FALSE));
    sample_identity(&world); /* RotationX(t) at t = 0 */
    CHECK_HR(IDirect3DDevice9_SetTransform(device, D3DTS_WORLD, &world));
    sample_tutorial_camera(device);
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, (IDirect3DBaseTexture9 *)texture));
    CHECK_HR(IDirect3DDevice9_SetTextureStageState(device, 0, D3DTSS_COLOROP, D3DTOP_MODULATE));
    CHECK_HR(IDirect3DDevice9_SetTextureStageState(device, 0, D3DTSS_COLORARG1, D3DTA_TEXTURE));
    CHECK_HR(IDirect3DDevice9_SetTextureStageState(device, 0, D3DTSS_COLORARG2, D3DTA_DIFFUSE));
    CHECK_HR(IDirect3DDevice9_SetSamplerState(device, 0, D3DSAMP_MINFILTER, D3DTEXF_LINEAR));
    CHECK_HR(IDirect3DDevice9_SetSamplerState(device, 0, D3DSAMP_MAGFILTER, D3DTEXF_LINEAR));

    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, vb, 0, sizeof(struct vertex)));
    CHECK_HR(IDirect3DDevice9_SetFVF(device, D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_TEX1));
    CHECK_HR(IDirect3DDevice9_DrawPrimitive(device, D3DPT_TRIANGLESTRIP, 0, 2 * STEPS - 2));
    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, NULL, 0, 0));
    CHECK_HR(IDirect3DDevice9_SetTexture(device, 0, NULL));
    IDirect3DVertexBuffer9_Release(vb);
    IDirect3DTexture9_Release(texture);
}
