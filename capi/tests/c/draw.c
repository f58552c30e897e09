/* Two triangles drawn through the C ABI and read back as a D3D9 application reads them
 * (CreateOffscreenPlainSurface in D3DPOOL_SYSTEMMEM, GetRenderTargetData, LockRect):
 *  1. an FVF triangle (D3DFVF_XYZRHW | D3DFVF_DIFFUSE) drawn with DrawPrimitiveUP;
 *  2. a triangle of a vertex buffer (CreateVertexBuffer, Lock, memcpy, Unlock,
 *     SetStreamSource) described by CreateVertexDeclaration and drawn with DrawPrimitive
 *     through hand-assembled vs_2_0 and ps_2_0 bytecode.
 * Each checks exact colours inside the triangle and the clear colour outside it.
 *  3. the vendors' alpha-to-coverage hacks: CheckDeviceFormat(D3DRTYPE_SURFACE, 'ATOC') is
 *     D3D_OK (NVIDIA's, as NVIDIA and Intel drivers and DXVK answer), 'A2M1' is
 *     D3DERR_NOTAVAILABLE (AMD's is never advertised); SetRenderState of
 *     D3DRS_ADAPTIVETESS_Y 'ATOC' / D3DFMT_UNKNOWN and D3DRS_POINTSIZE 'A2M1' / 'A2M0' is
 *     D3D_OK and GetRenderState returns the values. */
#include "d3d9_check.h"

#define WIDTH 64
#define HEIGHT 64

/* vs_2_0: dcl_position v0; mov oPos, v0 */
static const DWORD vs_position[] = {
    0xfffe0200,
    0x0200001f, 0x80000000, 0x900f0000, /* dcl_position v0 */
    0x02000001, 0xc00f0000, 0x90e40000, /* mov oPos, v0 */
    0x0000ffff,
};

/* ps_2_0: def c0, 0, 1, 0, 1; mov oC0, c0 (opaque green) */
static const DWORD ps_green[] = {
    0xffff0200,
    0x05000051, 0xa00f0000, 0x00000000, 0x3f800000, 0x00000000, 0x3f800000, /* def c0 */
    0x02000001, 0x800f0800, 0xa0e40000,                                     /* mov oC0, c0 */
    0x0000ffff,
};

struct vertex_rhw
{
    float x, y, z, rhw;
    DWORD diffuse;
};

/* Rule: an FVF triangle of pre-transformed vertices drawn from user memory fills exactly
 * its pixels with its vertices' colour; the rest keeps the clear colour. */
static void fvf_triangle_up(IDirect3DDevice9 *device)
{
    /* Clockwise on screen (D3D9's front face under the default D3DCULL_CCW). */
    static const struct vertex_rhw triangle[] = {
        {8.0f, 8.0f, 0.5f, 1.0f, 0xffff0000},
        {56.0f, 8.0f, 0.5f, 1.0f, 0xffff0000},
        {8.0f, 56.0f, 0.5f, 1.0f, 0xffff0000},
    };
    struct readback image;

    section("FVF XYZRHW|DIFFUSE triangle, DrawPrimitiveUP");
    CHECK_HR(IDirect3DDevice9_SetFVF(device, D3DFVF_XYZRHW | D3DFVF_DIFFUSE), D3D_OK);
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET,
            D3DCOLOR_XRGB(0, 0, 0xff), 1.0f, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_BeginScene(device), D3D_OK);
    CHECK_HR(IDirect3DDevice9_DrawPrimitiveUP(device, D3DPT_TRIANGLELIST, 1, triangle,
            sizeof(triangle[0])), D3D_OK);
    CHECK_HR(IDirect3DDevice9_EndScene(device), D3D_OK);

    image = read_back(device);
    CHECK_EQ(image.width, WIDTH);
    CHECK_EQ(image.height, HEIGHT);
    CHECK_PIXEL(&image, 16, 16, 0xff0000); /* inside */
    CHECK_PIXEL(&image, 40, 12, 0xff0000);
    CHECK_PIXEL(&image, 12, 40, 0xff0000);
    CHECK_PIXEL(&image, 48, 48, 0x0000ff); /* beyond the long edge */
    CHECK_PIXEL(&image, 2, 2, 0x0000ff);   /* left of and above the corner */
    CHECK_PIXEL(&image, 60, 60, 0x0000ff);
    free_readback(&image);
    printf("ok: inside ff0000, outside 0000ff\n");
}

/* Rule: shaders and a declaration made apart, a vertex buffer filled through Lock, drawn
 * with DrawPrimitive: the vertex shader places the vertices, the pixel shader colours them. */
static void shader_triangle_vb(IDirect3DDevice9 *device)
{
    static const D3DVERTEXELEMENT9 elements[] = {
        {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
        D3DDECL_END(),
    };
    /* Clip space: the upper-left half of the target, clockwise on screen. */
    static const float positions[] = {
        -1.0f, 1.0f, 0.5f,
        1.0f, 1.0f, 0.5f,
        -1.0f, -1.0f, 0.5f,
    };
    IDirect3DVertexShader9 *vs = NULL;
    IDirect3DPixelShader9 *ps = NULL;
    IDirect3DVertexDeclaration9 *decl = NULL;
    IDirect3DVertexBuffer9 *vb = NULL;
    void *data = NULL;
    struct readback image;

    section("vs_2_0/ps_2_0 triangle, locked vertex buffer, DrawPrimitive");
    CHECK_HR(IDirect3DDevice9_CreateVertexShader(device, vs_position, &vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreatePixelShader(device, ps_green, &ps), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateVertexDeclaration(device, elements, &decl), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateVertexBuffer(device, sizeof(positions),
            D3DUSAGE_WRITEONLY, 0, D3DPOOL_DEFAULT, &vb, NULL), D3D_OK);
    CHECK_HR(IDirect3DVertexBuffer9_Lock(vb, 0, 0, &data, 0), D3D_OK);
    CHECK(data != NULL, "Lock gave no pointer");
    memcpy(data, positions, sizeof(positions));
    CHECK_HR(IDirect3DVertexBuffer9_Unlock(vb), D3D_OK);

    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, vb, 0, 3 * sizeof(float)), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, decl), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetPixelShader(device, ps), D3D_OK);
    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET,
            D3DCOLOR_XRGB(0, 0, 0xff), 1.0f, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_BeginScene(device), D3D_OK);
    CHECK_HR(IDirect3DDevice9_DrawPrimitive(device, D3DPT_TRIANGLELIST, 0, 1), D3D_OK);
    CHECK_HR(IDirect3DDevice9_EndScene(device), D3D_OK);

    image = read_back(device);
    CHECK_PIXEL(&image, 8, 8, 0x00ff00); /* inside */
    CHECK_PIXEL(&image, 40, 8, 0x00ff00);
    CHECK_PIXEL(&image, 8, 40, 0x00ff00);
    CHECK_PIXEL(&image, 48, 48, 0x0000ff); /* the lower-right half: outside */
    CHECK_PIXEL(&image, 60, 60, 0x0000ff);
    CHECK_PIXEL(&image, 40, 40, 0x0000ff);
    free_readback(&image);
    printf("ok: inside 00ff00, outside 0000ff\n");

    /* Unbind, then release: the device's bindings do not outlive the objects' last use. */
    CHECK_HR(IDirect3DDevice9_SetStreamSource(device, 0, NULL, 0, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetPixelShader(device, NULL), D3D_OK);
    CHECK_EQ(IDirect3DVertexBuffer9_Release(vb), 0);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(decl), 0);
    CHECK_EQ(IDirect3DVertexShader9_Release(vs), 0);
    CHECK_EQ(IDirect3DPixelShader9_Release(ps), 0);
}

static void alpha_to_coverage_hacks(IDirect3D9 *d3d, IDirect3DDevice9 *device)
{
    const DWORD atoc = MAKEFOURCC('A', 'T', 'O', 'C');
    const DWORD a2m1 = MAKEFOURCC('A', '2', 'M', '1');
    const DWORD a2m0 = MAKEFOURCC('A', '2', 'M', '0');
    DWORD value = 0;

    section("alpha-to-coverage hacks");
    CHECK_HR(IDirect3D9_CheckDeviceFormat(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL,
            D3DFMT_X8R8G8B8, 0, D3DRTYPE_SURFACE, (D3DFORMAT)atoc), D3D_OK);
    CHECK_HR(IDirect3D9_CheckDeviceFormat(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL,
            D3DFMT_X8R8G8B8, 0, D3DRTYPE_TEXTURE, (D3DFORMAT)atoc), D3DERR_NOTAVAILABLE);
    CHECK_HR(IDirect3D9_CheckDeviceFormat(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL,
            D3DFMT_X8R8G8B8, 0, D3DRTYPE_SURFACE, (D3DFORMAT)a2m1), D3DERR_NOTAVAILABLE);

    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_ADAPTIVETESS_Y, atoc), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetRenderState(device, D3DRS_ADAPTIVETESS_Y, &value), D3D_OK);
    CHECK_EQ(value, atoc);
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_ADAPTIVETESS_Y, D3DFMT_UNKNOWN),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_POINTSIZE, a2m1), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetRenderState(device, D3DRS_POINTSIZE, &value), D3D_OK);
    CHECK_EQ(value, a2m1);
    CHECK_HR(IDirect3DDevice9_SetRenderState(device, D3DRS_POINTSIZE, a2m0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetRenderState(device, D3DRS_POINTSIZE, &value), D3D_OK);
    CHECK_EQ(value, a2m0);
    printf("ok: ATOC advertised, A2M1 not; both hacks' states kept\n");
}

int main(void)
{
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    IDirect3DDevice9 *device;

    CHECK(d3d != NULL, "Direct3DCreate9 returned NULL");
    device = create_device(d3d, D3DCREATE_HARDWARE_VERTEXPROCESSING, WIDTH, HEIGHT);
    fvf_triangle_up(device);
    shader_triangle_vb(device);
    alpha_to_coverage_hacks(d3d, device);
    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    return finish("draw");
}
