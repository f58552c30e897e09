/* D3DCREATE_MIXED_VERTEXPROCESSING through the C ABI: SetSoftwareVertexProcessing switches
 * between hardware and software vertex processing without resetting streams, declaration
 * or shaders (Get* return the same objects after the switch); under software processing a
 * draw whose vertex shader declares a usage missing from the declaration is refused with
 * D3DERR_INVALIDCALL, under hardware processing the same draw succeeds, the missing input
 * reading zeros. */
#include "d3d9_check.h"

#define WIDTH 64
#define HEIGHT 64

/* vs_2_0: dcl_position v0; dcl_color v1; mov oPos, v0; mov oD0, v1 */
static const DWORD vs_color[] = {
    0xfffe0200,
    0x0200001f, 0x80000000, 0x900f0000, /* dcl_position v0 */
    0x0200001f, 0x8000000a, 0x900f0001, /* dcl_color v1 */
    0x02000001, 0xc00f0000, 0x90e40000, /* mov oPos, v0 */
    0x02000001, 0xd00f0000, 0x90e40001, /* mov oD0, v1 */
    0x0000ffff,
};

/* No COLOR element: the shader's v1 has nothing to read. */
static const D3DVERTEXELEMENT9 position_only[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    D3DDECL_END(),
};

/* Rules: a mixed device switches between hardware and software vertex processing keeping
 * its streams, declaration and shaders; a shader input missing from the declaration is
 * refused under software processing and reads zeros under hardware processing. */
static void mixed_vertex_processing(IDirect3DDevice9 *device)
{
    static const float positions[] = {
        -1.0f, 1.0f, 0.5f, 1.0f, 1.0f, 0.5f, -1.0f, -1.0f, 0.5f,
    };
    IDirect3DVertexShader9 *vs = NULL, *got_vs = NULL;
    IDirect3DVertexDeclaration9 *decl = NULL, *got_decl = NULL;
    IDirect3DVertexBuffer9 *vb = NULL, *got_vb = NULL;
    struct readback image;
    UINT offset = 1, stride = 1;
    void *data = NULL;

    section("mixed device: SetSoftwareVertexProcessing");
    CHECK_EQ(IDirect3DDevice9_GetSoftwareVertexProcessing(device), FALSE);
    CHECK_HR(IDirect3DDevice9_CreateVertexShader(device, vs_color, &vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateVertexDeclaration(device, position_only, &decl), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateVertexBuffer(device, sizeof(positions),
            D3DUSAGE_WRITEONLY | D3DUSAGE_SOFTWAREPROCESSING, 0, D3DPOOL_DEFAULT, &vb, NULL),
            D3D_OK);
    CHECK_HR(IDirect3DVertexBuffer9_Lock(vb, 0, 0, &data, 0), D3D_OK);
    memcpy(data, positions, sizeof(positions));
    CHECK_HR(IDirect3DVertexBuffer9_Unlock(vb), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, vb, 0, 12), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, decl), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, vs), D3D_OK);

    CHECK_HR(IDirect3DDevice9_SetSoftwareVertexProcessing(device, TRUE), D3D_OK);
    CHECK_EQ(IDirect3DDevice9_GetSoftwareVertexProcessing(device), TRUE);
    CHECK_HR(IDirect3DDevice9_GetStreamSource(device, 0, &got_vb, &offset, &stride), D3D_OK);
    CHECK(got_vb == vb, "stream 0 is %p after the switch", (void *)got_vb);
    CHECK_EQ(offset, 0);
    CHECK_EQ(stride, 12);
    CHECK_HR(IDirect3DDevice9_GetVertexDeclaration(device, &got_decl), D3D_OK);
    CHECK(got_decl == decl, "the declaration is %p after the switch", (void *)got_decl);
    CHECK_HR(IDirect3DDevice9_GetVertexShader(device, &got_vs), D3D_OK);
    CHECK(got_vs == vs, "the vertex shader is %p after the switch", (void *)got_vs);
    IDirect3DVertexBuffer9_Release(got_vb);
    IDirect3DVertexDeclaration9_Release(got_decl);
    IDirect3DVertexShader9_Release(got_vs);
    printf("ok: streams, declaration and shader kept\n");

    /* Software: the shader's dcl_color v1 has no element: refused. */
    CHECK_HR(IDirect3DDevice9_BeginScene(device), D3D_OK);
    CHECK_HR(IDirect3DDevice9_DrawPrimitive(device, D3DPT_TRIANGLELIST, 0, 1),
            D3DERR_INVALIDCALL);
    CHECK_HR(IDirect3DDevice9_EndScene(device), D3D_OK);
    printf("ok: software processing refuses a missing input\n");

    /* Hardware again: the same draw reads v1 as zeros (black). */
    CHECK_HR(IDirect3DDevice9_SetSoftwareVertexProcessing(device, FALSE), D3D_OK);
    CHECK_EQ(IDirect3DDevice9_GetSoftwareVertexProcessing(device), FALSE);
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET,
            D3DCOLOR_XRGB(0, 0, 0xff), 1.0f, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_BeginScene(device), D3D_OK);
    CHECK_HR(IDirect3DDevice9_DrawPrimitive(device, D3DPT_TRIANGLELIST, 0, 1), D3D_OK);
    CHECK_HR(IDirect3DDevice9_EndScene(device), D3D_OK);
    image = read_back(device);
    CHECK_PIXEL(&image, 8, 8, 0x000000);
    CHECK_PIXEL(&image, 56, 56, 0x0000ff);
    free_readback(&image);
    printf("ok: hardware processing draws it, reading zeros\n");

    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, NULL, 0, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, NULL), D3D_OK);
    CHECK_EQ(IDirect3DVertexBuffer9_Release(vb), 0);
    CHECK_EQ(IDirect3DVertexShader9_Release(vs), 0);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(decl), 0);
}

/* Rule: a hardware or software device has one mode: GetSoftwareVertexProcessing answers it
 * and SetSoftwareVertexProcessing does not switch it. */
static void fixed_modes(IDirect3D9 *d3d)
{
    IDirect3DDevice9 *device;

    section("hardware and software devices keep their mode");
    device = create_device(d3d, D3DCREATE_HARDWARE_VERTEXPROCESSING, WIDTH, HEIGHT);
    CHECK_EQ(IDirect3DDevice9_GetSoftwareVertexProcessing(device), FALSE);
    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    device = create_device(d3d, D3DCREATE_SOFTWARE_VERTEXPROCESSING, WIDTH, HEIGHT);
    CHECK_EQ(IDirect3DDevice9_GetSoftwareVertexProcessing(device), TRUE);
    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    printf("ok\n");
}

int main(void)
{
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    IDirect3DDevice9 *device;

    CHECK(d3d != NULL, "Direct3DCreate9 returned NULL");
    fixed_modes(d3d);
    device = create_device(d3d, D3DCREATE_MIXED_VERTEXPROCESSING, WIDTH, HEIGHT);
    mixed_vertex_processing(device);
    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    return finish("mixed_processing");
}
