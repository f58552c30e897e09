/* The C samples' shared part: see common.h. */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sample_fail(const char *file, int line, const char *call, HRESULT hr)
{
    fprintf(stderr, "%s:%d: %s failed: 0x%08lx\n", file, line, call, (unsigned long)hr);
    exit(1);
}

IDirect3DDevice9 *sample_create_device(IDirect3D9 **d3d)
{
    D3DPRESENT_PARAMETERS pp;
    IDirect3DDevice9 *device = NULL;

    *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    if (!*d3d)
    {
        fprintf(stderr, "Direct3DCreate9 returned NULL\n");
        exit(1);
    }
    memset(&pp, 0, sizeof(pp));
    pp.BackBufferWidth = SAMPLE_WIDTH;
    pp.BackBufferHeight = SAMPLE_HEIGHT;
    pp.BackBufferFormat = D3DFMT_A8R8G8B8;
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    /* No window: libd3d9 renders headless when the window is not a native one. */
    CHECK_HR(IDirect3D9_CreateDevice(*d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, (HWND)1,
            D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device));
    return device;
}

void sample_write_ppm(IDirect3DDevice9 *device, const char *path)
{
    IDirect3DSurface9 *target = NULL, *copy = NULL;
    D3DSURFACE_DESC desc;
    D3DLOCKED_RECT locked;
    FILE *file;
    UINT x, y;

    CHECK_HR(IDirect3DDevice9_GetRenderTarget(device, 0, &target));
    CHECK_HR(IDirect3DSurface9_GetDesc(target, &desc));
    CHECK_HR(IDirect3DDevice9_CreateOffscreenPlainSurface(device, desc.Width, desc.Height,
            desc.Format, D3DPOOL_SYSTEMMEM, &copy, NULL));
    CHECK_HR(IDirect3DDevice9_GetRenderTargetData(device, target, copy));
    CHECK_HR(IDirect3DSurface9_LockRect(copy, &locked, NULL, D3DLOCK_READONLY));
    file = fopen(path, "wb");
    if (!file)
    {
        perror(path);
        exit(1);
    }
    fprintf(file, "P6\n%u %u\n255\n", desc.Width, desc.Height);
    for (y = 0; y < desc.Height; ++y)
    {
        const DWORD *row = (const DWORD *)((const BYTE *)locked.pBits + y * locked.Pitch);
        for (x = 0; x < desc.Width; ++x)
        {
            unsigned char rgb[3] = {(row[x] >> 16) & 0xff, (row[x] >> 8) & 0xff, row[x] & 0xff};
            fwrite(rgb, 1, 3, file);
        }
    }
    fclose(file);
    CHECK_HR(IDirect3DSurface9_UnlockRect(copy));
    IDirect3DSurface9_Release(copy);
    IDirect3DSurface9_Release(target);
}

void sample_identity(D3DMATRIX *m)
{
    memset(m, 0, sizeof(*m));
    m->m[0][0] = m->m[1][1] = m->m[2][2] = m->m[3][3] = 1.0f;
}

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(float out[3], const float a[3], const float b[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void sample_normalize(float v[3])
{
    float length = sqrtf(dot3(v, v));
    float inverse;
    if (length == 0.0f)
        return;
    inverse = 1.0f / length;
    v[0] *= inverse;
    v[1] *= inverse;
    v[2] *= inverse;
}

void sample_look_at_lh(D3DMATRIX *m, const float eye[3], const float at[3], const float up[3])
{
    float x[3], y[3], z[3] = {at[0] - eye[0], at[1] - eye[1], at[2] - eye[2]};
    int i;

    sample_normalize(z);
    cross3(x, up, z);
    sample_normalize(x);
    cross3(y, z, x);
    for (i = 0; i < 3; ++i)
    {
        m->m[i][0] = x[i];
        m->m[i][1] = y[i];
        m->m[i][2] = z[i];
        m->m[i][3] = 0.0f;
    }
    m->m[3][0] = -dot3(x, eye);
    m->m[3][1] = -dot3(y, eye);
    m->m[3][2] = -dot3(z, eye);
    m->m[3][3] = 1.0f;
}

void sample_perspective_fov_lh(D3DMATRIX *m, float fov_y, float aspect, float zn, float zf)
{
    float y = 1.0f / tanf(fov_y / 2.0f);
    float q = zf / (zf - zn);

    memset(m, 0, sizeof(*m));
    m->m[0][0] = y / aspect;
    m->m[1][1] = y;
    m->m[2][2] = q;
    m->m[2][3] = 1.0f;
    m->m[3][2] = -zn * q;
}

void sample_tutorial_camera(IDirect3DDevice9 *device)
{
    static const float eye[3] = {0.0f, 3.0f, -5.0f}, at[3] = {0.0f, 0.0f, 0.0f},
                       up[3] = {0.0f, 1.0f, 0.0f};
    D3DMATRIX view, projection;

    sample_look_at_lh(&view, eye, at, up);
    sample_perspective_fov_lh(&projection, 0.78539816339744830962f, 4.0f / 3.0f, 1.0f, 100.0f);
    CHECK_HR(IDirect3DDevice9_SetTransform(device, D3DTS_VIEW, &view));
    CHECK_HR(IDirect3DDevice9_SetTransform(device, D3DTS_PROJECTION, &projection));
}
