/* D3D9's rules for vertex declarations, FVF codes and vertex shaders, through the C ABI:
 *  - a shader and a declaration are made apart and paired at draw time;
 *  - SetFVF replaces the declaration: GetVertexDeclaration returns one converted from the
 *    FVF (GetDeclaration lists its elements), GetFVF the FVF;
 *  - after SetVertexDeclaration of an application's declaration GetFVF returns 0, except
 *    for the two declarations Windows maps back (POSITION alone: XYZ, POSITIONT: XYZRHW);
 *  - elements whose usage the shader does not declare are ignored;
 *  - XYZRHW / POSITIONT vertices skip the vertex shader;
 *  - on a D3DCREATE_HARDWARE_VERTEXPROCESSING device SetSoftwareVertexProcessing switches modes
 *    keeping streams, declaration and shaders; under software processing a draw whose
 *    shader reads a usage the declaration lacks is refused, under hardware it reads zeros;
 *  - SetVertexDeclaration(NULL) is S_OK. */
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

/* vs_2_0: dcl_position v0; mov oPos, v0; mov oD0, c0 */
static const DWORD vs_const[] = {
    0xfffe0200,
    0x0200001f, 0x80000000, 0x900f0000, /* dcl_position v0 */
    0x02000001, 0xc00f0000, 0x90e40000, /* mov oPos, v0 */
    0x02000001, 0xd00f0000, 0xa0e40000, /* mov oD0, c0 */
    0x0000ffff,
};

/* vs_2_0: dcl_position v0; add oPos, v0, c1; mov oD0, c0 (moves and recolours) */
static const DWORD vs_moving[] = {
    0xfffe0200,
    0x0200001f, 0x80000000, 0x900f0000,             /* dcl_position v0 */
    0x03000002, 0xc00f0000, 0x90e40000, 0xa0e40001, /* add oPos, v0, c1 */
    0x02000001, 0xd00f0000, 0xa0e40000,             /* mov oD0, c0 */
    0x0000ffff,
};

static const D3DVERTEXELEMENT9 position_color[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
    D3DDECL_END(),
};
static const D3DVERTEXELEMENT9 color_position[] = {
    {0, 0, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
    {0, 4, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    D3DDECL_END(),
};
static const D3DVERTEXELEMENT9 position_only[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    D3DDECL_END(),
};
static const D3DVERTEXELEMENT9 positiont_only[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITIONT, 0},
    D3DDECL_END(),
};

struct pos_color
{
    float x, y, z;
    DWORD color;
};
struct color_pos
{
    DWORD color;
    float x, y, z;
};

/* The upper-left half of the target in clip space, clockwise on screen. */
#define UPPER_LEFT(c) {{-1.0f, 1.0f, 0.5f, c}, {1.0f, 1.0f, 0.5f, c}, {-1.0f, -1.0f, 0.5f, c}}

/* Clears to blue, draws `count` triangles of `data` from user memory, and checks that the
 * upper-left half is `inside` and the lower-right corner blue. */
static void draw_and_check(IDirect3DDevice9 *device, const void *data, UINT stride,
        DWORD inside)
{
    struct readback image;

    CHECK_HR(IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET,
            D3DCOLOR_XRGB(0, 0, 0xff), 1.0f, 0), D3D_OK);
    CHECK_HR(IDirect3DDevice9_BeginScene(device), D3D_OK);
    CHECK_HR(IDirect3DDevice9_DrawPrimitiveUP(device, D3DPT_TRIANGLELIST, 1, data, stride),
            D3D_OK);
    CHECK_HR(IDirect3DDevice9_EndScene(device), D3D_OK);
    image = read_back(device);
    CHECK_PIXEL(&image, 8, 8, inside);
    CHECK_PIXEL(&image, 8, 40, inside);
    CHECK_PIXEL(&image, 56, 56, 0x0000ff);
    free_readback(&image);
}

/* Rule: declaration and shader are paired at draw time: one shader with two layouts, one
 * layout with two shaders, all created before any is bound. */
static void paired_at_draw_time(IDirect3DDevice9 *device)
{
    static const struct pos_color red[] = UPPER_LEFT(0xffff0000);
    static const struct color_pos green[] = {
        {0xff00ff00, -1.0f, 1.0f, 0.5f}, {0xff00ff00, 1.0f, 1.0f, 0.5f},
        {0xff00ff00, -1.0f, -1.0f, 0.5f}};
    static const float yellow[4] = {1.0f, 1.0f, 0.0f, 1.0f};
    IDirect3DVertexShader9 *color = NULL, *constant = NULL;
    IDirect3DVertexDeclaration9 *decl_a = NULL, *decl_b = NULL;

    section("shader and declaration made apart, paired at draw time");
    CHECK_HR(IDirect3DDevice9_CreateVertexShader(device, vs_color, &color), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateVertexShader(device, vs_const, &constant), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateVertexDeclaration(device, position_color, &decl_a), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateVertexDeclaration(device, color_position, &decl_b), D3D_OK);

    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, color), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, decl_a), D3D_OK);
    draw_and_check(device, red, sizeof(red[0]), 0xff0000);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, decl_b), D3D_OK);
    draw_and_check(device, green, sizeof(green[0]), 0x00ff00);
    CHECK_HR(IDirect3DDevice9_SetVertexShaderConstantF(device, 0, yellow, 1), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, constant), D3D_OK);
    draw_and_check(device, green, sizeof(green[0]), 0xffff00);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, decl_a), D3D_OK);
    draw_and_check(device, red, sizeof(red[0]), 0xffff00);
    printf("ok: 2 layouts x 2 shaders\n");

    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, NULL), D3D_OK);
    CHECK_EQ(IDirect3DVertexShader9_Release(color), 0);
    CHECK_EQ(IDirect3DVertexShader9_Release(constant), 0);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(decl_a), 0);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(decl_b), 0);
}

/* The declaration's elements are exactly `expected` (up to and including D3DDECL_END). */
static void check_elements(IDirect3DVertexDeclaration9 *decl, const D3DVERTEXELEMENT9 *expected,
        UINT count)
{
    D3DVERTEXELEMENT9 elements[MAXD3DDECLLENGTH + 1];
    UINT got = 0, i;

    CHECK_HR(IDirect3DVertexDeclaration9_GetDeclaration(decl, NULL, &got), D3D_OK);
    CHECK_EQ(got, count);
    memset(elements, 0xcc, sizeof(elements));
    CHECK_HR(IDirect3DVertexDeclaration9_GetDeclaration(decl, elements, &got), D3D_OK);
    CHECK_EQ(got, count);
    for (i = 0; i < count; ++i)
        CHECK(!memcmp(&elements[i], &expected[i], sizeof(elements[i])),
                "element %u is {%u, %u, %u, %u, %u, %u}", i, elements[i].Stream,
                elements[i].Offset, elements[i].Type, elements[i].Method, elements[i].Usage,
                elements[i].UsageIndex);
}

/* Rules: SetFVF replaces the declaration with one converted from the FVF (the same object
 * for the same FVF, counted only by the references Get* handed out); GetFVF returns the
 * FVF; SetVertexDeclaration of an application's declaration makes GetFVF 0, except a lone
 * POSITION (D3DFVF_XYZ) or POSITIONT (D3DFVF_XYZRHW). */
static void fvf_and_declarations(IDirect3DDevice9 *device)
{
    IDirect3DVertexDeclaration9 *app = NULL, *converted = NULL, *again = NULL, *other = NULL;
    DWORD fvf = 0xdeadbeef;

    section("SetFVF, GetVertexDeclaration, GetFVF");
    CHECK_HR(IDirect3DDevice9_CreateVertexDeclaration(device, position_color, &app), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, app), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetFVF(device, &fvf), D3D_OK);
    CHECK_EQ(fvf, 0);

    CHECK_HR(IDirect3DDevice9_SetFVF(device, D3DFVF_XYZ | D3DFVF_DIFFUSE), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetFVF(device, &fvf), D3D_OK);
    CHECK_EQ(fvf, D3DFVF_XYZ | D3DFVF_DIFFUSE);
    CHECK_HR(IDirect3DDevice9_GetVertexDeclaration(device, &converted), D3D_OK);
    CHECK(converted != NULL && converted != app, "SetFVF left declaration %p", (void *)converted);
    check_elements(converted, position_color, 3);
    CHECK_HR(IDirect3DDevice9_GetVertexDeclaration(device, &again), D3D_OK);
    CHECK(again == converted, "a second GetVertexDeclaration gave %p, not %p", (void *)again,
            (void *)converted);
    CHECK_EQ(refcount(converted), 2);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(again), 1);

    /* Another FVF: another declaration; the first one keeps its elements. */
    CHECK_HR(IDirect3DDevice9_SetFVF(device, D3DFVF_XYZRHW), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetVertexDeclaration(device, &other), D3D_OK);
    CHECK(other != converted, "D3DFVF_XYZRHW gave the XYZ|DIFFUSE declaration");
    check_elements(other, positiont_only, 2);
    check_elements(converted, position_color, 3);
    CHECK_HR(IDirect3DDevice9_SetFVF(device, D3DFVF_XYZ | D3DFVF_DIFFUSE), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetVertexDeclaration(device, &again), D3D_OK);
    CHECK(again == converted, "the same FVF gave another declaration");
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(again), 1);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(other), 0);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(converted), 0);

    /* Back to the application's declaration: GetFVF is 0 again. */
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, app), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetVertexDeclaration(device, &again), D3D_OK);
    CHECK(again == app, "GetVertexDeclaration gave %p, not the declaration set", (void *)again);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(again), 1);
    CHECK_HR(IDirect3DDevice9_GetFVF(device, &fvf), D3D_OK);
    CHECK_EQ(fvf, 0);
    printf("ok: FVF declaration converted and shared, GetFVF follows\n");

    /* The two declarations Windows maps back to an FVF (Wine's test_fvf_decl_conversion). */
    CHECK_HR(IDirect3DDevice9_CreateVertexDeclaration(device, position_only, &other), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, other), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetFVF(device, &fvf), D3D_OK);
    CHECK_EQ(fvf, D3DFVF_XYZ);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(other), 0);
    CHECK_HR(IDirect3DDevice9_CreateVertexDeclaration(device, positiont_only, &other), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, other), D3D_OK);
    CHECK_HR(IDirect3DDevice9_GetFVF(device, &fvf), D3D_OK);
    CHECK_EQ(fvf, D3DFVF_XYZRHW);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(other), 0);
    printf("ok: POSITION alone is D3DFVF_XYZ, POSITIONT alone D3DFVF_XYZRHW\n");

    /* SetVertexDeclaration(NULL) is accepted and leaves no declaration, no FVF. */
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, NULL), D3D_OK);
    again = (void *)0xdeadbeef;
    CHECK_HR(IDirect3DDevice9_GetVertexDeclaration(device, &again), D3D_OK);
    CHECK(again == NULL, "GetVertexDeclaration gave %p after NULL", (void *)again);
    CHECK_HR(IDirect3DDevice9_GetFVF(device, &fvf), D3D_OK);
    CHECK_EQ(fvf, 0);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(app), 0);
    printf("ok: SetVertexDeclaration(NULL) is S_OK\n");
}

/* Rule: elements whose usage the shader does not declare are ignored. */
static void unused_elements_ignored(IDirect3DDevice9 *device)
{
    static const D3DVERTEXELEMENT9 wide[] = {
        {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
        {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
        {0, 16, D3DDECLTYPE_FLOAT2, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
        {0, 24, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_NORMAL, 0},
        D3DDECL_END(),
    };
    static const struct
    {
        float x, y, z;
        DWORD color;
        float u, v, nx, ny, nz;
    } vertices[] = {
        {-1.0f, 1.0f, 0.5f, 0xffff0000, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f},
        {1.0f, 1.0f, 0.5f, 0xffff0000, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f},
        {-1.0f, -1.0f, 0.5f, 0xffff0000, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f},
    };
    static const float magenta[4] = {1.0f, 0.0f, 1.0f, 1.0f};
    IDirect3DVertexShader9 *vs = NULL;
    IDirect3DVertexDeclaration9 *decl = NULL;

    section("elements the shader does not declare are ignored");
    CHECK_HR(IDirect3DDevice9_CreateVertexShader(device, vs_const, &vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_CreateVertexDeclaration(device, wide, &decl), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, decl), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShaderConstantF(device, 0, magenta, 1), D3D_OK);
    draw_and_check(device, vertices, sizeof(vertices[0]), 0xff00ff);
    printf("ok: COLOR, TEXCOORD, NORMAL unread; the draw gives c0\n");
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, NULL), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexDeclaration(device, NULL), D3D_OK);
    CHECK_EQ(IDirect3DVertexShader9_Release(vs), 0);
    CHECK_EQ(IDirect3DVertexDeclaration9_Release(decl), 0);
}

/* Rule: pre-transformed vertices (XYZRHW, POSITIONT) skip the vertex shader: a shader that
 * would move and recolour them changes nothing. */
static void pretransformed_skip_shader(IDirect3DDevice9 *device)
{
    static const struct
    {
        float x, y, z, rhw;
        DWORD color;
    } vertices[] = {
        {0.0f, 0.0f, 0.5f, 1.0f, 0xff00ffff},
        {64.0f, 0.0f, 0.5f, 1.0f, 0xff00ffff},
        {0.0f, 64.0f, 0.5f, 1.0f, 0xff00ffff},
    };
    /* c0: white; c1 moves every vertex off the target. */
    static const float constants[8] = {1.0f, 1.0f, 1.0f, 1.0f, 5.0f, 5.0f, 0.0f, 0.0f};
    IDirect3DVertexShader9 *vs = NULL, *bound = NULL;

    section("XYZRHW vertices skip the vertex shader");
    CHECK_HR(IDirect3DDevice9_CreateVertexShader(device, vs_moving, &vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, vs), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetVertexShaderConstantF(device, 0, constants, 2), D3D_OK);
    CHECK_HR(IDirect3DDevice9_SetFVF(device, D3DFVF_XYZRHW | D3DFVF_DIFFUSE), D3D_OK);
    draw_and_check(device, vertices, sizeof(vertices[0]), 0x00ffff);
    CHECK_HR(IDirect3DDevice9_GetVertexShader(device, &bound), D3D_OK);
    CHECK(bound == vs, "the draw unset the vertex shader");
    CHECK_EQ(IDirect3DVertexShader9_Release(bound), 1);
    printf("ok: the pre-transformed positions and colours win\n");
    CHECK_HR(IDirect3DDevice9_SetVertexShader(device, NULL), D3D_OK);
    CHECK_EQ(IDirect3DVertexShader9_Release(vs), 0);
}

int main(void)
{
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    IDirect3DDevice9 *device;

    CHECK(d3d != NULL, "Direct3DCreate9 returned NULL");
    device = create_device(d3d, D3DCREATE_HARDWARE_VERTEXPROCESSING, WIDTH, HEIGHT);
    paired_at_draw_time(device);
    fvf_and_declarations(device);
    unused_elements_ignored(device);
    pretransformed_skip_shader(device);
    CHECK_EQ(IDirect3DDevice9_Release(device), 0);
    CHECK_EQ(IDirect3D9_Release(d3d), 0);
    return finish("declarations");
}
