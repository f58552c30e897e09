/* Compile check of <windows.h> + <d3d9.h> in C with COBJMACROS (d3d9-wgpu's C ABI): a few
 * device calls through the IDirect3DDevice9_* macros and the structs programs fill in.
 * Built with the project's compile line; run, it only creates and releases what it can. */
#define COBJMACROS
#include <stdio.h>
#include <windows.h>
#include <d3d9.h>

static const D3DVERTEXELEMENT9 decl_elements[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
    D3DDECL_END(),
};

static HRESULT draw_once(IDirect3DDevice9 *device)
{
    IDirect3DVertexDeclaration9 *decl = NULL;
    IDirect3DSurface9 *rt = NULL;
    D3DLOCKED_RECT locked;
    D3DCAPS9 caps;
    HRESULT hr;

    if (FAILED(hr = IDirect3DDevice9_GetDeviceCaps(device, &caps)))
        return hr;
    printf("vs %#x ps %#x\n", (unsigned int)caps.VertexShaderVersion,
            (unsigned int)caps.PixelShaderVersion);
    if (FAILED(hr = IDirect3DDevice9_CreateVertexDeclaration(device, decl_elements, &decl)))
        return hr;
    IDirect3DDevice9_SetVertexDeclaration(device, decl);
    IDirect3DDevice9_Clear(device, 0, NULL, D3DCLEAR_TARGET, D3DCOLOR_ARGB(0xff, 0, 0xff, 0),
            1.0f, 0);
    if (SUCCEEDED(hr = IDirect3DDevice9_CreateRenderTarget(device, 4, 4, D3DFMT_A8R8G8B8,
            D3DMULTISAMPLE_NONE, 0, TRUE, &rt, NULL)))
    {
        if (SUCCEEDED(IDirect3DSurface9_LockRect(rt, &locked, NULL, D3DLOCK_READONLY)))
        {
            printf("pitch %d\n", locked.Pitch);
            IDirect3DSurface9_UnlockRect(rt);
        }
        IDirect3DSurface9_Release(rt);
    }
    IDirect3DVertexDeclaration9_Release(decl);
    return hr;
}

int main(void)
{
    D3DPRESENT_PARAMETERS pp = {0};
    IDirect3DDevice9 *device = NULL;
    IDirect3D9 *d3d;
    HRESULT hr;

    if (!(d3d = Direct3DCreate9(D3D_SDK_VERSION)))
    {
        printf("Direct3DCreate9 returned NULL\n");
        return 0;
    }
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.BackBufferFormat = D3DFMT_X8R8G8B8;
    hr = IDirect3D9_CreateDevice(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, (HWND)0x1,
            D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device);
    if (SUCCEEDED(hr))
    {
        hr = draw_once(device);
        IDirect3DDevice9_Release(device);
    }
    printf("hr %#x\n", (unsigned int)hr);
    IDirect3D9_Release(d3d);
    return 0;
}
