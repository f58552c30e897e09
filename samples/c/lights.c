/* The D3D9 SDK's Tutorial 4 (Lights) in C: the Rust scene `lights`
 * (samples/src/scenes/lights.rs), call for call: a cylinder strip (top vertex first at
 * each of 49 steps), one directional light, a yellow material, D3DRS_AMBIENT 0x00202020. */
#include "common.h"

#include <math.h>
#include <string.h>

#define STEPS 49

struct vertex
{
    float position[3];
    float normal[3];
};

void sample_lights(IDirect3DDevice9 *device)
{
    struct vertex vertices[2 * STEPS];
    IDirect3DVertexBuffer9 *vb = NULL;
    D3DMATERIAL9 material;
    D3DLIGHT9 light;
    D3DMATRIX world;
    void *data = NULL;
    int i, k;

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
            v->normal[0] = s;
            v->normal[1] = 0.0f;
            v->normal[2] = c;
        }
    }
    CHECK_HR(IDirect3DDevice9_CreateVertexBuffer(device, sizeof(vertices), 0,
            D3DFVF_XYZ | D3DFVF_NORMAL, D3DPOOL_DEFAULT, &vb, NULL));
    CHECK_HR(IDirect3DVertexBuffer9_Lock(vb, 0, sizeof(vertices), &data, 0));
    memcpy(data, vertices, sizeof(vertices));
    CHECK_HR(IDirect3DVertexBuffer9_Unlock(vb));

    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, D3DCOLOR_XRGB(0, 0, 255),
            1.0f, 0));
    sample_identity(&world); /* RotationX(t) at t = 0 */
    CHECK_HR(IDirect3DDevice9_SetTransform(device, D3DTS_WORLD, &world));
    sample_tutorial_camera(device);

    memset(&material, 0, sizeof(material));
    material.Diffuse.r = material.Ambient.r = 1.0f;
    material.Diffuse.g = material.Ambient.g = 0.75f;
    material.Diffuse.b = material.Ambient.b = 0.0f;
    material.Diffuse.a = material.Ambient.a = 1.0f;
    CHECK_HR(IDirect3DDevice9_SetMaterial(device, &material));

    memset(&light, 0, sizeof(light));
    light.Type = D3DLIGHT_DIRECTIONAL;
    light.Diffuse.r = light.Diffuse.g = light.Diffuse.b = light.Diffuse.a = 1.0f;
    {
        float direction[3] = {0.5f, -0.3f, 1.0f};
        sample_normalize(direction);
        light.Direction.x = direction[0];
        light.Direction.y = direction[1];
        light.Direction.z = direction[2];
    }
    light.Range = 1000.0f;
    CHECK_HR(IDirect3DDevice9_SetLight(device, 0, &light));
    CHECK_HR(IDirect3DDevice9_LightEnable(device, 0, TRUE));
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_LIGHTING, TRUE));
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_AMBIENT, 0x00202020));

    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, vb, 0, sizeof(struct vertex)));
    CHECK_HR(IDirect3DDevice9_SetFVF(device, D3DFVF_XYZ | D3DFVF_NORMAL));
    CHECK_HR(IDirect3DDevice9_DrawPrimitive(device, D3DPT_TRIANGLESTRIP, 0, 2 * STEPS - 2));
    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, NULL, 0, 0));
    IDirect3DVertexBuffer9_Release(vb);
}
