// Compile check of <windows.h> + <d3d9.h> in C++ (d3d9-wgpu's C ABI): the interfaces as
// classes with virtual methods, `d3d->CreateDevice(...)`. Run, it only creates and releases
// what it can.
#include <cstdio>
#include <windows.h>
#include <d3d9.h>

int main()
{
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    if (!d3d)
    {
        std::printf("Direct3DCreate9 returned NULL\n");
        return 0;
    }
    D3DPRESENT_PARAMETERS pp = {};
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.BackBufferFormat = D3DFMT_X8R8G8B8;
    IDirect3DDevice9 *device = nullptr;
    HRESULT hr = d3d->CreateDevice(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, reinterpret_cast<HWND>(1),
            D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device);
    if (SUCCEEDED(hr))
    {
        D3DCAPS9 caps;
        if (SUCCEEDED(device->GetDeviceCaps(&caps)))
            std::printf("vs %#x\n", static_cast<unsigned int>(caps.VertexShaderVersion));
        IUnknown *unknown = nullptr;
        if (SUCCEEDED(device->QueryInterface(IID_IUnknown, reinterpret_cast<void **>(&unknown))))
            unknown->Release();
        device->Clear(0, nullptr, D3DCLEAR_TARGET, D3DCOLOR_XRGB(0, 0, 0xff), 1.0f, 0);
        device->Release();
    }
    std::printf("hr %#x\n", static_cast<unsigned int>(hr));
    d3d->Release();
    return 0;
}
