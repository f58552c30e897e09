/* What the C samples share: the device they draw on (640x480 A8R8G8B8, headless), the
 * back buffer read back as a D3D9 application reads it (GetRenderTargetData into a
 * SYSTEMMEM surface, LockRect) and written as a binary PPM, and D3DX-style matrices
 * computed as the Rust samples' `math` module computes them (same operations, same order,
 * so both give the same floats). */
#ifndef D3D9_SAMPLES_COMMON_H
#define D3D9_SAMPLES_COMMON_H

#include <windows.h>
#include <d3d9.h>

#define SAMPLE_WIDTH 640
#define SAMPLE_HEIGHT 480

/* Fails the program with a message when `hr` is not D3D_OK. */
#define CHECK_HR(call)                                                              \
    do                                                                              \
    {                                                                               \
        HRESULT hr_ = (call);                                                       \
        if (FAILED(hr_))                                                            \
            sample_fail(__FILE__, __LINE__, #call, hr_);                            \
    } while (0)

void sample_fail(const char *file, int line, const char *call, HRESULT hr);

/* Direct3DCreate9 + CreateDevice(HAL, hardware vertex processing), 640x480 A8R8G8B8. */
IDirect3DDevice9 *sample_create_device(IDirect3D9 **d3d);

/* Render target 0 read back and written to `path` as a binary PPM (P6). */
void sample_write_ppm(IDirect3DDevice9 *device, const char *path);

/* D3DXMatrixRotationX / LookAtLH / PerspectiveFovLH / Multiply, as samples/src/math.rs. */
void sample_identity(D3DMATRIX *m);
void sample_look_at_lh(D3DMATRIX *m, const float eye[3], const float at[3], const float up[3]);
void sample_perspective_fov_lh(D3DMATRIX *m, float fov_y, float aspect, float zn, float zf);
void sample_normalize(float v[3]);

/* The SDK tutorials' camera: from (0, 3, -5) towards the origin, 45 degrees, 4:3, 1..100. */
void sample_tutorial_camera(IDirect3DDevice9 *device);

/* The samples: each draws its frame (time 0) on `device`. */
void sample_vertices(IDirect3DDevice9 *device);
void sample_lights(IDirect3DDevice9 *device);
void sample_textures(IDirect3DDevice9 *device);

#endif
